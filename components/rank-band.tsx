/** A model's statistically tied band on a leaderboard ("rank 2–4"); a band of several ranks is drawn as tied. Presentational. */
export function RankBand({ label, tied }: { label: string | null; tied: boolean }) {
  if (!label) return <span aria-label="no band">—</span>;
  return (
    <span
      data-testid="rank-band"
      data-tied={tied ? 'true' : 'false'}
      title={tied ? 'Tied: its difference with a neighbour is not significant after Holm correction' : 'Separated from every other model'}
      className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap tabular-nums ${tied ? 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200' : 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200'}`}
    >
      {label}
    </span>
  );
}
