/**
 * An α between judges and people: the element carrying the figure shows exactly "α 0.81" (the
 * crawler reads it against its data-value and data-units), its interval beside it; below the
 * minimum of labelled items, the words in the neutral colour and no figure.
 */
import type { HumanAlphaView } from '@/lib/views/human-figures-view';
import { muted } from '../ui';

export function HumanAlpha({ view, testId = 'human-alpha' }: { view: HumanAlphaView; testId?: string }) {
  if (!view.attrs) {
    return (
      <span className={muted} title={view.title} data-testid={testId}>
        {view.label}
      </span>
    );
  }
  return (
    <span className="whitespace-nowrap tabular-nums" title={view.title}>
      <span className="font-semibold" data-testid={testId} {...view.attrs}>
        {view.label}
      </span>
      {view.interval && <span className={muted}> {view.interval}</span>}
    </span>
  );
}
