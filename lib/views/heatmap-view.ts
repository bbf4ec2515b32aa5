/**
 * The prompt × model heatmap of one page of a run: rows are prompts, columns models (best
 * first), each cell a link to that prompt × model with its score printed on its colour and
 * an accessible name that says everything the colour does.
 */
import { HeatmapSortSchema, type HeatmapSort } from '@/lib/core';
import type { HeatmapPage } from '@/lib/server/db/queries/run-heatmap';
import type { RunModelRow } from '@/lib/server/db/queries/run-ranking';
import { heatmapLegend, scoreColour } from './colour-scale';
import { formatScore, modelShortName, plural, truncate } from './format';
import { paginationView, type PaginationView } from './pagination';
import { figureAttrs, type FigureAttrs } from './figures';
import { href } from './urls';

export interface HeatmapColumnView {
  modelId: string;
  label: string;
  href: string;
  scoreLabel: string;
  figure: FigureAttrs;
}

export interface HeatmapCellView {
  href: string;
  text: string;
  ariaLabel: string;
  background: string;
  color: string;
  errors: number;
  gateFailed: boolean;
  /** The cell's score as its figure (the prompt and cell pages show the same); null for a cell not run. */
  figure: FigureAttrs | null;
}

export interface HeatmapRowView {
  promptKey: string;
  href: string;
  snippet: string;
  meanLabel: string;
  cells: HeatmapCellView[];
}

export interface HeatmapView {
  columns: HeatmapColumnView[];
  rows: HeatmapRowView[];
  legend: ReturnType<typeof heatmapLegend>;
  sealedNote: string | null;
  pagination: PaginationView;
  sorts: { label: string; href: string; current: boolean }[];
  emptyMessage: string | null;
}

const SORTS: Record<HeatmapSort, string> = {
  position: 'Blueprint order',
  hardest: 'Hardest first',
  easiest: 'Easiest first',
};

export function cellText(score: number | null, attempts: number, errors: number): string {
  if (score !== null) return formatScore(score, 0);
  return errors > 0 || attempts === 0 ? 'err' : '—';
}

export function heatmapView(runId: string, ranking: RunModelRow[], page: HeatmapPage, opts: { page: number; pageSize: number; sort: HeatmapSort }): HeatmapView {
  const columns = ranking.map((m) => ({
    modelId: m.modelId,
    label: modelShortName(m.modelId, m.displayName),
    href: href.runModel(runId, m.modelId),
    scoreLabel: formatScore(m.score),
    figure: figureAttrs('score', { run: runId, model: m.modelId }, formatScore(m.score)),
  }));
  const cellsByKey = new Map(page.cells.map((c) => [`${c.promptKey}\u0000${c.modelId}`, c]));
  const rows = page.prompts.map((p) => {
    const scores: number[] = [];
    const cells = columns.map((col) => {
      const c = cellsByKey.get(`${p.promptKey}\u0000${col.modelId}`);
      const score = c?.score ?? null;
      if (score !== null) scores.push(score);
      const colours = scoreColour(score);
      const errors = c?.errorCount ?? 0;
      const gateFailed = c?.gateFailed ?? false;
      const text = c ? `${cellText(score, c.attempts, errors)}${gateFailed ? ' ⊘' : ''}` : '—';
      const what = c ? (score === null ? (errors > 0 ? 'no score, failed' : 'no score') : `score ${formatScore(score)}`) : 'not run';
      return {
        href: href.cell(runId, p.promptKey, col.modelId),
        text,
        ariaLabel: `${p.promptKey} × ${col.label}: ${what}${gateFailed ? ', a gate failed (scored 0)' : ''}${errors > 0 ? `, ${plural(errors, 'error')}` : ''}`,
        background: colours.background,
        color: colours.color,
        errors,
        gateFailed,
        figure: c ? figureAttrs('score', { run: runId, model: col.modelId, prompt: p.promptKey }, formatScore(score)) : null,
      };
    });
    return {
      promptKey: p.promptKey,
      href: href.prompt(runId, p.promptKey),
      snippet: truncate(p.snippet, 90),
      meanLabel: formatScore(scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null),
      cells,
    };
  });
  return {
    columns,
    rows,
    legend: heatmapLegend(),
    sealedNote: page.sealedCount > 0 ? `${plural(page.sealedCount, 'sealed test prompt')} ${page.sealedCount === 1 ? 'is' : 'are'} scored in every model’s total but not shown.` : null,
    pagination: paginationView(opts.page, opts.pageSize, page.total, 'prompts', (n) => href.run(runId, { page: n, sort: opts.sort })),
    sorts: HeatmapSortSchema.options.map((sort) => ({ label: SORTS[sort], href: href.run(runId, { sort }), current: sort === opts.sort })),
    emptyMessage: page.total === 0 ? 'No results yet: this run has no scored prompts.' : null,
  };
}
