import Link from 'next/link';
import type { FigureAttrs } from '@/lib/views/figures';

/**
 * A model's statistically tied band on a leaderboard ("rank 2–4"); a band of several ranks is
 * drawn as tied. With `href`, the band links to the comparison behind it (with its neighbour),
 * which says what the pair's own test and the board's correction make of the gap. Presentational.
 */
export function RankBand({ label, tied, figure, href }: { label: string | null; tied: boolean; figure?: FigureAttrs | null; href?: string | null }) {
  if (!label) return <span aria-label="no band">—</span>;
  const band = (
    <span
      data-testid="rank-band"
      data-tied={tied ? 'true' : 'false'}
      {...figure}
      title={tied ? 'Tied: its difference with a neighbour is not significant after Holm correction' : 'Separated from every other model'}
      className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap tabular-nums ${tied ? 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200' : 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200'}`}
    >
      {label}
    </span>
  );
  if (!href) return band;
  return (
    <Link href={href} prefetch={false} className="hover:underline" aria-label={`${label}: the comparison behind it`} data-testid="rank-band-link">
      {band}
    </Link>
  );
}
