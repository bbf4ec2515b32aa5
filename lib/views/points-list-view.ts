/** The run's criteria, grouped by prompt (one page of prompts): how the models did on each point. */
import type { RunPointRow } from '@/lib/server/db/queries/run-points';
import { scoreColour } from './colour-scale';
import { formatScore, plural, truncate } from './format';
import { paginationView, type PaginationView } from './pagination';
import { href } from './urls';

export interface PointsListView {
  groups: {
    promptKey: string;
    promptHref: string;
    points: { index: number; text: string; href: string; meanLabel: string; rangeLabel: string; background: string; color: string; notes: string[] }[];
  }[];
  pagination: PaginationView;
}

export function pointsListView(runId: string, data: { prompts: { promptKey: string }[]; points: RunPointRow[]; total: number }, opts: { page: number; pageSize: number }): PointsListView {
  const byPrompt = new Map<string, RunPointRow[]>();
  for (const p of data.points) byPrompt.set(p.promptKey, [...(byPrompt.get(p.promptKey) ?? []), p]);
  return {
    groups: data.prompts.map(({ promptKey }) => ({
      promptKey,
      promptHref: href.prompt(runId, promptKey),
      points: (byPrompt.get(promptKey) ?? [])
        .sort((a, b) => a.pointIndex - b.pointIndex)
        .map((p) => {
          const c = scoreColour(p.mean);
          return {
            index: p.pointIndex,
            text: `${p.mustNot ? 'Must not: ' : ''}${truncate(p.pointText, 140)}`,
            href: href.point(runId, promptKey, p.pointIndex),
            meanLabel: formatScore(p.mean),
            rangeLabel: p.min === null || p.max === null ? '—' : `${formatScore(p.min, 0)}–${formatScore(p.max, 0)}`,
            background: c.background,
            color: c.color,
            notes: [
              ...(p.errors ? [plural(p.errors, 'error')] : []),
              ...(p.notApplicable ? [`${p.notApplicable} not applicable`] : []),
              ...(p.disagreements ? [`judges disagree on ${p.disagreements}`] : []),
            ],
          };
        }),
    })),
    pagination: paginationView(opts.page, opts.pageSize, data.total, 'prompts', (n) => href.run(runId, { view: 'points', page: n })),
  };
}
