/**
 * How judge reliability reads beside a judged number (one line: α with its units and pairs, its
 * reading, coverage, disagreement share, self-judging warnings) and as the blueprint page's
 * panel summary (one row per judge). The numbers come from `judgeReliability` in lib/core; this
 * only words them. α is shown at four levels only, each with its figure identity (figures.ts):
 * a run (`alpha|run=<id>`), one model's judge panel in a run (`alpha|run=<id>|model=<id>`), a
 * blueprint's latest completed run (`alpha|blueprint=<id>`) and a model on a board
 * (`alpha|board=all|model=<id>`, `board=tag:<tag>`). Never per verdict or per prompt: there
 * the pages show the judges' answers and their spread (verdict-view.ts). Below ALPHA_MIN_UNITS
 * pairable verdicts the line says "too few verdicts to tell (n units)" in a neutral colour and
 * carries no figure, so no α number is ever printed over too few verdicts.
 */
import { ALPHA_MIN_UNITS, readAlpha, roundHalfUp, selfJudging, type AlphaReading, type JudgeAlpha, type JudgeReliability } from '@/lib/core';
import type { PooledModelReliability } from '@/lib/server/db/queries/judge-reliability';
import { figureAttrs, type FigureAttrs, type FigureScope } from './figures';
import { formatCount, formatPercent, modelShortName, plural } from './format';
import { methodologyHref } from './how-to-read';
import { href } from './urls';

/**
 * The attributes of the element that shows an α number: its identity, the number as shown
 * (`data-value`, "0.93" or "−0.12") and the pairable verdicts it rests on (`data-units`), so a
 * crawler can check every shown α against ALPHA_MIN_UNITS.
 */
export type AlphaAttrs = FigureAttrs & { 'data-units': string };

export interface ReliabilityLineView {
  /** False when nothing at this level was judged: the component renders nothing. */
  judged: boolean;
  /** "α 0.93", or "too few verdicts to tell (3 units)" below ALPHA_MIN_UNITS pairable verdicts. */
  alphaLabel: string;
  /** Spread onto the element that shows `alphaLabel`; null when no α number is shown (no figure to check). */
  alphaAttrs: AlphaAttrs | null;
  /** What α rests on: "over 208 units · 208 pairs"; null when no α number is shown (the sentence gives the units). */
  basisLabel: string | null;
  /** Null when no α number is shown: the line is then in a neutral colour, never "not reliable". */
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
export const formatAlpha = (alpha: number): string => roundHalfUp(alpha, 2).toFixed(2).replace('-', '−');

/** The words for an α that is too thin to show: "too few verdicts to tell (3 units)". */
export const tooFewLabel = (units: number): string => `too few verdicts to tell (${plural(units, 'unit')})`;

/** What a level's α reads as on a page: the label, its attributes, its basis, its reading. */
export interface AlphaFigureView {
  alphaLabel: string;
  alphaAttrs: AlphaAttrs | null;
  basisLabel: string | null;
  reading: AlphaReading | null;
}

/** One α as a page shows it, at the level `scope` names (figures.ts). */
export function alphaFigure(alpha: JudgeAlpha, scope: FigureScope): AlphaFigureView {
  if (alpha.kind !== 'alpha') return { alphaLabel: tooFewLabel(alpha.units), alphaAttrs: null, basisLabel: null, reading: null };
  const value = formatAlpha(alpha.value);
  return {
    alphaLabel: `α ${value}`,
    alphaAttrs: { ...figureAttrs('alpha', scope, value), 'data-units': String(alpha.units) },
    basisLabel: `over ${plural(alpha.units, 'unit')} · ${plural(alpha.pairs, 'pair')}`,
    reading: readAlpha(alpha.value),
  };
}

/** Why a judged level has no α number. */
function noAlphaReason(r: JudgeReliability): string {
  return r.judges.length < 2 ? 'one judge: no two answers to compare' : `α is shown from ${plural(ALPHA_MIN_UNITS, 'verdict')} with two judges’ answers`;
}

const judgeLabel = (model: string, approach: string | null) => `${modelShortName(model)}${approach && approach !== 'standard' ? ` (${approach})` : ''}`;

function selfJudgingSentence(judge: { model: string; approach: string | null }, modelId: string, kind: 'same-model' | 'same-family', names: Map<string, string | null>): string {
  const graded = modelShortName(modelId, names.get(modelId));
  return kind === 'same-model'
    ? `Self-judging: ${judgeLabel(judge.model, judge.approach)} judges ${graded}, the same model.`
    : `Self-judging: ${judgeLabel(judge.model, judge.approach)} judges ${graded}, a model of the same maker.`;
}

/**
 * The one-line summary beside a judged score. `scope`: the level it is at, as its figure
 * identity names it (a run, a model in a run, a blueprint, a model on a board). `names`:
 * display names of graded models, where known.
 */
export function reliabilityLine(r: JudgeReliability, scope: FigureScope, names: Map<string, string | null> = new Map()): ReliabilityLineView {
  const figure = alphaFigure(r.alpha, scope);
  const byId = new Map(r.judges.map((j) => [j.id, j]));
  return {
    judged: r.verdicts > 0,
    ...figure,
    readingLabel: figure.reading ? READING[figure.reading] : noAlphaReason(r),
    coverageLabel: `${plural(r.verdicts, 'judged verdict')}, ${formatCount(r.pairable)} with ≥ 2 judges`,
    assessmentsLabel: `${r.judges.map((j) => `${judgeLabel(j.model, j.approach)} ${formatCount(j.assessments)}`).join(' · ')} assessments`,
    disagreementLabel: r.disagreementShare === null ? null : `${formatPercent(r.disagreementShare)} flagged as disagreement (${formatCount(r.disagreements)} of ${formatCount(r.pairable)})`,
    selfJudging: r.selfJudging.map((s) => selfJudgingSentence(byId.get(s.judge)!, s.modelId, s.kind, names)),
    methodologyHref: methodologyHref('alpha'),
  };
}

/** The blueprint page's judge panel, on its latest completed run: α at the blueprint's level. */
export function judgePanelView(r: JudgeReliability, at: { blueprintId: string; runId: string | null }, names: Map<string, string | null> = new Map()): JudgePanelView {
  const runId = at.runId;
  return {
    line: reliabilityLine(r, { blueprint: at.blueprintId }, names),
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

/** The run page's per-model reliability rows: each model's judge panel in the run. */
export function modelReliabilityRows(runId: string, byModel: { modelId: string; reliability: JudgeReliability }[], names: Map<string, string | null> = new Map()): ModelReliabilityRowView[] {
  return byModel.map((m) => ({
    modelId: m.modelId,
    label: modelShortName(m.modelId, names.get(m.modelId)),
    href: href.runModel(runId, m.modelId),
    line: reliabilityLine(m.reliability, { run: runId, model: m.modelId }, names),
  }));
}

/**
 * The leaderboard's rows: each model's judges pooled over the runs it is ranked on (α from
 * the summed statistics), linked to the model's page. `board`: 'all', or 'tag:<tag>' for a
 * tag's board (the model page pools over the overall board's runs).
 */
export function pooledReliabilityRows(pooled: readonly PooledModelReliability[], names: Map<string, string | null> = new Map(), board = 'all'): ModelReliabilityRowView[] {
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
    return { modelId: p.modelId, label: modelShortName(p.modelId, names.get(p.modelId)), href: href.model(p.modelId), line: reliabilityLine(r, { board, model: p.modelId }, names) };
  });
}
