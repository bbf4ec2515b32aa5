import type { IntervalNoteView } from '@/lib/views/interval-view';
import { muted } from './ui';

/**
 * What an interval rests on and how it was made, beside it: "95% CI 61.0–74.0 · 40 prompts,
 * 120 attempts · clustered · BCa bootstrap" (`withLabel={false}` where the ends are already shown).
 */
export function IntervalNote({ note, withLabel = true }: { note: IntervalNoteView | null | undefined; withLabel?: boolean }) {
  if (!note) return null;
  return (
    <span className={`block max-w-56 text-xs whitespace-normal ${muted}`} data-testid="interval-note" data-method={note.method} title={note.text}>
      {withLabel ? `${note.label} · ${note.basis}` : note.basis}
    </span>
  );
}
