/**
 * How judge reliability reads beside a judged number (one line: α with its reading, coverage,
 * disagreement share, self-judging warnings) and as the blueprint page's panel summary (one
 * row per judge). The numbers come from `judgeReliability` in lib/core; this only words them.
 */
import { readAlpha, roundHalfUp, selfJudging, type AlphaReading, type JudgeReliability } from '@/lib/core';
import type { PooledModelReliability } from '@/lib/server/db/queries/judge-reliability';
import { formatCount, formatPercent, modelShortName, plural } from './format';
import { methodologyHref } from './how-to-read';
import { href } from './urls';

export interface ReliabilityLineView {
  /** False when nothing at this level was judged: the component renders nothing. */
  judged: boolean;
  /** "α 0.93" or "α —" (fewer than two pairable values). */
  alphaLabel: string;
  reading: AlphaReading | null;
  /** "reliable (α ≥ 0.80)" etc., or why there is no α. */
  readingLabel: string;
  /** "208 judged verdicts, 208 with ≥ 2 judges". */
  coverageLabel: string;
  /** "gpt-4.1-mini 208 · qwen-2.5-72b-instruct 208 assessments". */
  assessmentsLabel: string;
  /** "0% flagged as disagreement (0 of 208)", or null when nothing is pairable. */
  disagreementLabel: string | null;
  /** One sentence per self-judging pair, the same-model ones first. */
  selfJudging: string[];
  methodologyHref: string;
}

export interface JudgePanelRowView {
  id: string;
  label: string;
  model: string;
  approach: string | null;
  assessments: string;
  missing: string;
  meanScore: string;
  deviation: string;
  deviationTitle: string;
  selfJudging: string | null;
}

export interface JudgePanelView {
  line: ReliabilityLineView;
  rows: JudgePanelRowView[];
  runHref: string | null;
  note: string;
}

export interface ModelReliabilityRowView {
  modelId: string;
  label: string;
  href: string;
  line: ReliabilityLineView;
}

const READING: Record<AlphaReading, string> = {
  reliable: 'reliable (α ≥ 0.80)',
  tentative: 'tentative (0.667 ≤ α < 0.80)',
  unreliable: 'not reliable (α < 0.667)',
};

/** α at two decimals, a negative one with a true minus sign (−0.75), as the other deltas are shown. */
export const formatAlpha = (alpha: number | null): string => (alpha === null ? '—' : roundHalfUp(alpha, 2).toFixed(2).replace('-', '−'));

const judgeLabel = (model: string, approach: string | null) => `${modelShortName(model)}${approach && approach !== 'standard' ? ` (${approach})` : ''}`;

function selfJudgingSentence(judge: { model: string; approach: string | null }, modelId: string, kind: 'same-model' | 'same-family', names: Map<string, string | null>): string {
  const graded = modelShortName(modelId, names.get(modelId));
  return kind === 'same-model'
    ? `Self-judging: ${judgeLabel(judge.model, judge.approach)} judges ${graded}, the same model.`
    : `Self-judging: ${judgeLabel(judge.model, judge.approach)} judges ${graded}, a model of the same maker.`;
}

/** The one-line summary beside a judged score. `names`: display names of graded models, where known. */
export function reliabilityLine(r: JudgeReliability, names: Map<string, string | null> = new Map()): ReliabilityLineView {
  const reading = r.alpha === null ? null : readAlpha(r.alpha);
  const byId = new Map(r.judges.map((j) => [j.id, j]));
  return {
    judged: r.verdicts > 0,
    alphaLabel: `α ${formatAlpha(r.alpha)}`,
    reading,
    readingLabel: reading ? READING[reading] : r.judges.length < 2 ? 'no α: one judge' : 'no α: fewer than two verdicts with two judges',
    coverageLabel: `${plural(r.verdicts, 'judged verdict')}, ${formatCount(r.pairable)} with ≥ 2 judges`,
    assessmentsLabel: `${r.judges.map((j) => `${judgeLabel(j.model, j.approach)} ${formatCount(j.assessments)}`).join(' · ')} assessments`,
    disagreementLabel: r.disagreementShare === null ? null : `${formatPercent(r.disagreementShare)} flagged as disagreement (${formatCount(r.disagreements)} of ${formatCount(r.pairable)})`,
    selfJudging: r.selfJudging.map((s) => selfJudgingSentence(byId.get(s.judge)!, s.modelId, s.kind, names)),
    methodologyHref: methodologyHref('alpha'),
  };
}

/** The blueprint page's judge panel, on its latest completed run. */
export function judgePanelView(r: JudgeReliability, runId: string | null, names: Map<string, string | null> = new Map()): JudgePanelView {
  return {
    line: reliabilityLine(r, names),
    runHref: runId ? href.run(runId, { view: 'models' }) : null,
    note: 'Agreement with the panel: the mean distance between a judge’s value and the other judges’ mean on the same verdicts, in points out of 100 (0 = always with the rest). Mean value: how lenient the judge is.',
    rows: r.judges.map((j) => {
      const related = j.selfJudging.map((s) => `${modelShortName(s.modelId, names.get(s.modelId))} (${s.kind === 'same-model' ? 'same model' : 'same maker'})`);
      return {
        id: j.id,
        label: judgeLabel(j.model, j.approach),
        model: j.model,
        approach: j.approach,
        assessments: formatCount(j.assessments),
        missing: formatCount(j.missing),
        meanScore: j.meanScore === null ? '—' : roundHalfUp(j.meanScore * 100, 1).toFixed(1),
        deviation: j.meanAbsDeviation === null ? '—' : roundHalfUp(j.meanAbsDeviation * 100, 1).toFixed(1),
        deviationTitle: j.meanAbsDeviation === null ? 'no verdict shared with another judge' : `over ${plural(j.compared, 'verdict')} shared with another judge`,
        selfJudging: related.length > 0 ? `judges ${related.join(', ')}` : null,
      };
    }),
  };
}

/** The run page's per-model reliability rows. */
export function modelReliabilityRows(runId: string, byModel: { modelId: string; reliability: JudgeReliability }[], names: Map<string, string | null> = new Map()): ModelReliabilityRowView[] {
  return byModel.map((m) => ({
    modelId: m.modelId,
    label: modelShortName(m.modelId, names.get(m.modelId)),
    href: href.runModel(runId, m.modelId),
    line: reliabilityLine(m.reliability, names),
  }));
}

/**
 * The leaderboard's rows: each model's judges pooled over the runs it is ranked on (α from
 * the summed statistics), linked to the model's page.
 */
export function pooledReliabilityRows(pooled: readonly PooledModelReliability[], names: Map<string, string | null> = new Map()): ModelReliabilityRowView[] {
  return pooled.map((p) => {
    const judges = [...new Map(p.judges.map((j) => [j.id, j])).values()];
    const flags = judges.flatMap((j) => {
      const kind = selfJudging(j.model, p.modelId);
      return kind ? [{ judge: j.id, modelId: p.modelId, kind }] : [];
    });
    const r: JudgeReliability = {
      verdicts: p.verdicts,
      pairable: p.pairable,
      alpha: p.alpha,
      disagreements: p.disagreements,
      disagreementShare: p.pairable > 0 ? p.disagreements / p.pairable : null,
      judges: judges.map((j) => ({ ...j, missing: 0, meanScore: null, meanAbsDeviation: null, compared: 0, selfJudging: [] })),
      selfJudging: flags.sort((a, b) => (a.kind === b.kind ? a.judge.localeCompare(b.judge) : a.kind === 'same-model' ? -1 : 1)),
    };
    return { modelId: p.modelId, label: modelShortName(p.modelId, names.get(p.modelId)), href: href.model(p.modelId), line: reliabilityLine(r, names) };
  });
}
