/**
 * Two runs of one blueprint compared, older → newer: per model each run's score (the figure its
 * run page shows) and the change over the prompts both runs scored (the drift check's figure),
 * with an exact sign test on how many prompts got better or worse (so a reader can tell drift
 * from noise), and the cells that moved; beside them each run's pooled judge α, so a reader sees
 * whether a change in judged scores rests on reliable judging.
 */
import { signTest, type JudgeReliability } from '@/lib/core';
import type { RunDiff } from '@/lib/server/db/queries/run-diff';
import type { RunModelRow } from '@/lib/server/db/queries/run-ranking';
import { differenceFigure } from './drift-view';
import { figureAttrs, type FigureAttrs } from './figures';
import { formatDateTime, formatDelta, formatScore, modelShortName, plural } from './format';
import { reliabilityLine, type ReliabilityLineView } from './judge-reliability-view';
import { href } from './urls';

export type Tone = 'better' | 'worse' | 'same';

export interface DiffPageView {
  older: { id: string; label: string; href: string };
  newer: { id: string; label: string; href: string };
  models: {
    modelId: string;
    label: string;
    href: string;
    /** Each run's score for the model, as its run page shows it; `olderFigure`/`newerFigure` null when it has none. */
    olderLabel: string;
    olderFigure: FigureAttrs | null;
    newerLabel: string;
    newerFigure: FigureAttrs | null;
    /** The change over the paired prompts (the drift check's figure), and what it is over. */
    deltaLabel: string;
    figure: FigureAttrs | null;
    changeBasis: string;
    tone: Tone;
    counts: string;
    pLabel: string;
    significant: boolean;
  }[];
  /** The visible cells that moved, largest move first (unchanged cells are counted in `unchanged`, not listed). */
  cells: { promptKey: string; modelLabel: string; olderLabel: string; newerLabel: string; deltaLabel: string; tone: Tone; olderHref: string; newerHref: string }[];
  /** "58 prompts unchanged …"; null when every visible cell moved. */
  unchanged: string | null;
  notes: string[];
  /** Each run's judges over all its judged verdicts; null when the page was not given them. */
  judges: { older: ReliabilityLineView; newer: ReliabilityLineView } | null;
}

const tone = (d: number | null): Tone => (d === null || Math.abs(d) < 0.0005 ? 'same' : d > 0 ? 'better' : 'worse');

export function formatP(p: number | null): string {
  if (p === null) return '—';
  if (p < 0.001) return 'p < 0.001';
  return `p = ${p < 0.01 ? p.toFixed(3) : p.toFixed(2)}`;
}

export function diffPageView(
  older: { id: string; createdAt: Date },
  newer: { id: string; createdAt: Date },
  diff: RunDiff,
  ranking: RunModelRow[],
  judges: { older: JudgeReliability; newer: JudgeReliability } | null = null,
): DiffPageView {
  const names = new Map(ranking.map((m) => [m.modelId, modelShortName(m.modelId, m.displayName)]));
  const order = new Map(ranking.map((m, i) => [m.modelId, i]));
  const label = (m: string) => names.get(m) ?? modelShortName(m);
  const models = [...diff.models]
    .sort((a, b) => (order.get(a.modelId) ?? 1e9) - (order.get(b.modelId) ?? 1e9) || a.modelId.localeCompare(b.modelId))
    .map((m) => {
      const p = signTest(m.better, m.worse);
      const score = (runId: string, s: number | null) => (s === null ? null : figureAttrs('score', { run: runId, model: m.modelId }, formatScore(s)));
      return {
        modelId: m.modelId,
        label: label(m.modelId),
        href: href.model(m.modelId),
        olderLabel: formatScore(m.olderScore),
        olderFigure: score(older.id, m.olderScore),
        newerLabel: formatScore(m.newerScore),
        newerFigure: score(newer.id, m.newerScore),
        deltaLabel: formatDelta(m.difference),
        figure: m.difference === null ? null : differenceFigure(older.id, newer.id, m.modelId, m.difference),
        changeBasis: m.paired === 0 ? 'no prompt scored in both runs' : `over the ${plural(m.paired, 'prompt')} both runs scored${m.fromDriftCheck ? ' (the drift check’s figure)' : ''}`,
        tone: tone(m.difference),
        counts: `${m.better} better, ${m.worse} worse, ${m.same} same`,
        pLabel: formatP(p),
        significant: p !== null && p < 0.05,
      };
    });
  const notes = [
    'Older and Newer are each run’s score for the model, as its run page shows it (over every prompt it scored there). Change is newer − older over the prompts both runs scored, weighted as the blueprint weights its prompts — the figure the drift checks show — so it need not equal Newer − Older. Sealed prompts count here but are not listed below.',
    ...(diff.modelsOnlyInA ? [`${plural(diff.modelsOnlyInA, 'model')} ran only in the older run.`] : []),
    ...(diff.modelsOnlyInB ? [`${plural(diff.modelsOnlyInB, 'model')} ran only in the newer run.`] : []),
  ];
  const displayNames = new Map(ranking.map((m) => [m.modelId, m.displayName]));
  return {
    judges: judges && { older: reliabilityLine(judges.older, { run: older.id }, displayNames), newer: reliabilityLine(judges.newer, { run: newer.id }, displayNames) },
    older: { id: older.id, label: `Run of ${formatDateTime(older.createdAt)}`, href: href.run(older.id) },
    newer: { id: newer.id, label: `Run of ${formatDateTime(newer.createdAt)}`, href: href.run(newer.id) },
    models,
    cells: diff.cells.map((c) => ({
      promptKey: c.promptKey,
      modelLabel: label(c.modelId),
      olderLabel: formatScore(c.scoreA),
      newerLabel: formatScore(c.scoreB),
      deltaLabel: formatDelta(c.delta),
      tone: tone(c.delta),
      olderHref: href.cell(older.id, c.promptKey, c.modelId),
      newerHref: href.cell(newer.id, c.promptKey, c.modelId),
    })),
    unchanged: diff.unchangedCells === 0 ? null : `${plural(diff.unchangedCells, 'prompt')} unchanged: prompt × model cells that scored the same in both runs are not listed.`,
    notes,
  };
}
