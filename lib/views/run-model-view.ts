/** One model within a run: where it stands, its prompts (weakest first), and its errors. */
import { RunModelSortSchema, type RunModelSort } from '@/lib/core';
import type { RunModelError, RunModelPromptRow, RunModelSummaryDetail } from '@/lib/server/db/queries/run-model';
import { scoreColour } from './colour-scale';
import { describeInterval, formatCount, formatDuration, formatInterval, formatScore, modelShortName, plural, truncate } from './format';
import { intervalNote, passAtKView, type IntervalNoteView, type PassAtKView } from './interval-view';
import { paginationView, type PaginationView } from './pagination';
import { figureAttrs, type FigureAttrs } from './figures';
import { runFigures } from './run-view';
import { href } from './urls';
import { costLabel } from './cost-label';

export interface RunModelPageView {
  modelId: string;
  label: string;
  modelPageHref: string;
  scoreLabel: string;
  intervalLabel: string | null;
  intervalText: string;
  /** The interval's method, prompts and attempts. */
  intervalNote: IntervalNoteView | null;
  /** pass@k / pass^k for k = 1..n, where prompts have several attempts. */
  passAtK: PassAtKView | null;
  rankLabel: string;
  figures: ReturnType<typeof runFigures>;
  facts: { label: string; value: string }[];
  prompts: { promptKey: string; href: string; snippet: string; scoreLabel: string; background: string; color: string; errors: number; figure: FigureAttrs }[];
  pagination: PaginationView;
  sorts: { label: string; href: string; current: boolean }[];
  sealedNote: string | null;
  errors: { label: string; message: string; href: string }[];
}

const SORTS: Record<RunModelSort, string> = {
  weakest: 'Weakest first',
  strongest: 'Strongest first',
  position: 'Blueprint order',
};

export function runModelPageView(
  runId: string,
  s: RunModelSummaryDetail,
  prompts: { rows: RunModelPromptRow[]; total: number; sealed: { count: number; mean: number | null } },
  errors: RunModelError[],
  opts: { page: number; pageSize: number; sort: RunModelSort },
  /** The run's models with no known price (RunHeader): this model's cost then says unknown, not $0. */
  unpricedModels: readonly string[] = [],
): RunModelPageView {
  return {
    modelId: s.modelId,
    label: modelShortName(s.modelId, s.displayName),
    modelPageHref: href.model(s.modelId),
    scoreLabel: formatScore(s.score),
    intervalLabel: formatInterval(s.ciLow, s.ciHigh),
    intervalText: describeInterval(s.ciLow, s.ciHigh),
    intervalNote: intervalNote(s.interval),
    passAtK: passAtKView([{ modelId: s.modelId, displayName: s.displayName, passThreshold: s.passThreshold, passCurve: s.passCurve }]),
    rankLabel: s.rank === null ? `unranked of ${s.models}` : `#${s.rank} of ${s.models}`,
    figures: runFigures(runId, s.modelId, formatScore(s.score), formatInterval(s.ciLow, s.ciHigh), s.rank),
    facts: [
      { label: 'Prompts', value: formatCount(s.promptCount) },
      { label: 'Replies', value: formatCount(s.replyCount) },
      { label: 'Verdicts', value: formatCount(s.verdictCount) },
      { label: 'Errors', value: formatCount(s.errorCount) },
      { label: 'Cost', value: costLabel(s.costUsd, unpricedModels.includes(s.modelId) ? [s.modelId] : []) },
      { label: 'Median latency', value: s.latencyMsP50 === null ? '—' : formatDuration(s.latencyMsP50) },
    ],
    prompts: prompts.rows.map((r) => {
      const c = scoreColour(r.score);
      return {
        promptKey: r.promptKey,
        href: href.cell(runId, r.promptKey, s.modelId),
        snippet: truncate(r.snippet, 110),
        scoreLabel: r.score === null ? (r.errorCount ? 'error' : '—') : formatScore(r.score),
        background: c.background,
        color: c.color,
        errors: r.errorCount,
        figure: figureAttrs('score', { run: runId, model: s.modelId, prompt: r.promptKey }, formatScore(r.score)),
      };
    }),
    pagination: paginationView(opts.page, opts.pageSize, prompts.total, 'prompts', (n) => href.runModel(runId, s.modelId, { page: n, sort: opts.sort })),
    sorts: RunModelSortSchema.options.map((sort) => ({ label: SORTS[sort], href: href.runModel(runId, s.modelId, { sort }), current: sort === opts.sort })),
    sealedNote:
      prompts.sealed.count > 0
        ? `${plural(prompts.sealed.count, 'sealed test prompt')} scored (mean ${formatScore(prompts.sealed.mean)}), counted in the total, not shown.`
        : null,
    errors: errors.map((e) => ({
      label: e.kind === 'reply' ? `${e.promptKey}: the reply failed` : `${e.promptKey}, point ${(e.pointIndex ?? 0) + 1}: ${truncate(e.pointText ?? '', 80)}`,
      message: e.message,
      href: e.kind === 'reply' ? href.cell(runId, e.promptKey, s.modelId) : `${href.prompt(runId, e.promptKey, { model: s.modelId })}#point-${e.pointIndex ?? 0}`,
    })),
  };
}
