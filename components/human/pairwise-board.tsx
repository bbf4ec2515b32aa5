/**
 * "People's preferences": models ranked from people's choices between two anonymous replies
 * (Bradley–Terry), with the rubric leaderboard's tied bands, the log-strength and its interval,
 * how far the order agrees with the rubric leaderboard, and what the ranking rests on. View
 * model: pairwiseBoardView (lib/views/human-figures-view.ts).
 */
import Link from 'next/link';
import type { PairwiseBoardView } from '@/lib/views/human-figures-view';
import { RankBand } from '../rank-band';
import { Section, link, muted } from '../ui';

const th = 'py-2 pr-3 font-medium';

export function PairwiseBoard({ view, id = 'people-preferences' }: { view: PairwiseBoardView; id?: string }) {
  if (view.kind === 'empty') {
    return (
      <Section id={id} title={view.title}>
        <p className={`max-w-3xl text-sm ${muted}`} data-testid="pairwise-empty">
          {view.sentence}{' '}
          <Link href={view.reviewHref} prefetch={false} className={link}>
            Compare replies
          </Link>
        </p>
      </Section>
    );
  }
  return (
    <Section id={id} title={view.title}>
      <div className="space-y-3">
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="pairwise-board" aria-describedby={`${id}-about`}>
            <caption className="sr-only">{view.title}</caption>
            <thead className={`border-b border-zinc-200 text-xs uppercase dark:border-zinc-800 ${muted}`}>
              <tr>
                <th scope="col" className={`${th} text-right`}>Rank</th>
                <th scope="col" className={th}>Band</th>
                <th scope="col" className={th}>Model</th>
                <th scope="col" className={`${th} text-right`}>Strength</th>
                <th scope="col" className={`${th} text-right`}>Comparisons</th>
              </tr>
            </thead>
            <tbody>
              {view.rows.map((r) => (
                <tr key={r.modelId} className="border-b border-zinc-100 align-top dark:border-zinc-900" data-testid="pairwise-row">
                  <td className="py-2 pr-3 text-right tabular-nums" {...r.rankFigure}>
                    {r.rank}
                  </td>
                  <td className="py-2 pr-3">
                    <RankBand label={r.bandLabel} tied={r.tied} figure={r.bandFigure} />
                  </td>
                  <td className="py-2 pr-3">
                    <Link href={r.href} prefetch={false} className={link}>
                      {r.label}
                    </Link>
                  </td>
                  <td className="py-2 pr-3 text-right whitespace-nowrap tabular-nums">
                    {r.strength} <span className={`text-xs ${muted}`}>{r.interval}</span>
                  </td>
                  <td className={`py-2 pr-3 text-right tabular-nums ${muted}`}>{r.comparisons}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div id={`${id}-about`} className={`max-w-3xl space-y-1 text-sm ${muted}`}>
          <p data-testid="pairwise-correlation">{view.correlation}</p>
          <p data-testid="pairwise-counts">
            {view.counts}{' '}
            {view.blueprints.map((b, i) => (
              <span key={b.id}>
                {i > 0 && ', '}
                <Link href={b.href} prefetch={false} className={`font-mono text-xs ${link}`}>
                  {b.id}
                </Link>
              </span>
            ))}
          </p>
          <p className="text-xs">{view.explanation}</p>
        </div>
      </div>
    </Section>
  );
}
