/**
 * Two runs of one blueprint compared, older → newer: per model the change over the prompts
 * both runs scored, with an exact sign test on how many prompts got better or worse (so a
 * reader can tell drift from noise), and the cells that moved most; beside them each run's
 * pooled judge α, so a reader sees whether a change in judged scores rests on reliable judging.
 */
import { signTest, type JudgeReliability } from '@/lib/core';
import type { RunDiff } from '@/lib/server/db/queries/run-diff';
import type { RunModelRow } from '@/lib/server/db/queries/run-ranking';
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
    olderLabel: string;
    newerLabel: string;
    deltaLabel: string;
    tone: Tone;
    counts: string;
    pLabel: string;
    significant: boolean;
  }[];
  cells: { promptKey: string; modelLabel: string; olderLabel: string; newerLabel: string; deltaLabel: string; tone: Tone; olderHref: string; newerHref: string }[];
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
      return {
        modelId: m.modelId,
        label: label(m.modelId),
        href: href.model(m.modelId),
        olderLabel: formatScore(m.meanA),
        newerLabel: formatScore(m.meanB),
        deltaLabel: formatDelta(m.meanDelta),
        tone: tone(m.meanDelta),
        counts: `${m.better} better, ${m.worse} worse, ${m.same} same`,
        pLabel: formatP(p),
        significant: p !== null && p < 0.05,
      };
    });
  const notes = [
    'Scores are unweighted means over the prompts both runs scored for the model; sealed prompts count here but are not listed below.',
    ...(diff.modelsOnlyInA ? [`${plural(diff.modelsOnlyInA, 'model')} ran only in the older run.`] : []),
    ...(diff.modelsOnlyInB ? [`${plural(diff.modelsOnlyInB, 'model')} ran only in the newer run.`] : []),
  ];
  const displayNames = new Map(ranking.map((m) => [m.modelId, m.displayName]));
  return {
    judges: judges && { older: reliabilityLine(judges.older, displayNames), newer: reliabilityLine(judges.newer, displayNames) },
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
    notes,
  };
}
