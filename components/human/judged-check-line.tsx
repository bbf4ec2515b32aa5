/**
 * "judges checked against 140 human labels: α 0.81 [0.74–0.87]", small and muted, beside a judged
 * number (run header, blueprint header, leaderboard), linking to the calibration section behind
 * it. Nothing when no one has labelled a verdict. View model: judgedCheckLine (lib/views/human-figures-view.ts).
 */
import Link from 'next/link';
import type { JudgedCheckLineView } from '@/lib/views/human-figures-view';
import { link, muted } from '../ui';
import { HumanAlpha } from './human-alpha';

export function JudgedCheckLine({ view }: { view: JudgedCheckLineView | null }) {
  if (!view) return null;
  return (
    <p className={`text-xs ${muted}`} data-testid="judged-check-line">
      <Link href={view.href} prefetch={false} className={link} title="How the judges compare with people’s labels">
        {view.lead}
      </Link>
      {': '}
      <HumanAlpha view={view.alpha} />
    </p>
  );
}
