/**
 * The figures made from people's labels on judged verdicts (`human_figures` for a blueprint, or
 * for every blueprint together): how well each judge, and the panel as a whole, agrees with
 * people; how well people agree with each other; and each model's score corrected for the judge.
 *
 * What a value is. A reviewer answers the judge's own question with one of its options. Every
 * answer, the judge's distribution or a person's one option, is read by the same function as a
 * verdict is (`questionValue`, judging/values.ts): a person's label is the distribution with all
 * its mass on that option. A choice option credited null means "does not apply": such a label
 * has no value and is left out, and so is a judge whose answer does not apply. People's value
 * on an item is the mean of their labels' values (2 of 3 saying "true" is 0.667). Values here
 * face the question as the judges answered it; only the model scores turn a should_not point
 * around (1 − value), as its stored score does.
 *
 * A rater's row (the panel first, then each judge in the order first met) is over the items
 * where it has a value and people have at least one:
 * - α: Krippendorff's α (interval) over units [rater's value, people's mean]. Like every α in
 *   Assay it is only given over ALPHA_MIN_UNITS units or more (judging/alpha.ts says why: over a
 *   handful of units it swings between 0 and 1 whatever was said).
 * - κ: weighted Cohen's κ between the rater's most likely option (ties: the first in the order
 *   the judge saw the options) and each person's option, one pair per label; quadratic weights
 *   for ordered options (true/false, score levels), nominal for a choice's options.
 * - bias: the mean of rater − people, with its t interval.
 * - calibration: the rater's value as a probability against people's mean, with its ECE.
 * α's and κ's intervals are percentile bootstraps over items (an item keeps all its labels).
 * People against each other (`humanAlpha`) is α over the items with two or more labels that
 * have a value: the ceiling a judge is read against.
 *
 * The model scores are prediction-powered means (prediction-powered.ts) over every judged verdict
 * of the model in the run: a verdict people labelled contributes people's mean, weighted by its
 * inclusion probability in the review design.
 *
 * Randomness is one seeded generator (pure-rand's xoroshiro128plus): the same input and seed give
 * the same figures.
 */
import { xoroshiro128plus, type RandomGenerator } from 'pure-rand';
import { krippendorffAlpha, type AlphaMatrix } from '../judging/alpha';
import { judgeOptions } from '../judging/prompt';
import type { JudgeQuestion } from '../judging/questions';
import { questionValue, type LabelDistribution } from '../judging/values';
import { bootstrapStatistics, checkBootstrapOptions, percentileInterval } from '../scoring/bootstrap';
import { calibration, judgeBias, weightedKappa, type KappaWeights } from './agreement';
import { predictionPoweredMean, type PpiItem } from './prediction-powered';
import type { AgreementRow, CalibrationFigures, IntervalFigure, ModelPpi } from './stored';

export interface LabelledVerdict {
  verdictId: string;
  modelId: string;
  runId: string;
  question: JudgeQuestion;
  /** The panel's distribution over the question's labels, as the judges answered it (before any should_not inversion). */
  panel: { distribution: Record<string, number> | null };
  /** Each judge of the panel (verdicts.judges): its distribution; null when it failed. */
  judges: Array<{ judge: string; distribution: Record<string, number> | null }>;
  /** The point is a should_not point: its score is 1 − the question's value. */
  inverted: boolean;
  /** The review design's inclusion probability π of this verdict. */
  inclusion: number;
  /** Live labels (not undone, not removed): the reviewer and the option label chosen. */
  labels: Array<{ reviewerId: string; answer: string }>;
}

/** Every judged verdict of the runs the PPI scores are for (labelled or not): its stored score (after should_not inversion). */
export interface PopulationVerdict {
  verdictId: string;
  modelId: string;
  runId: string;
  score: number;
}

const NO_FIGURE: IntervalFigure = { value: null, low: null, high: null };

/** The question's value of an answer, or null when it does not apply or cannot be read. */
function valueOf(question: JudgeQuestion, distribution: LabelDistribution | null): number | null {
  if (distribution === null) return null;
  const outcome = questionValue(question, distribution);
  return 'applicable' in outcome && outcome.applicable ? outcome.value : null;
}

/** A label people gave, read: its value and the option's place in the judge's order. */
interface ReadLabel {
  value: number;
  option: number;
}

function readLabels(v: LabelledVerdict): ReadLabel[] {
  const options = judgeOptions(v.question).map((o) => o.label);
  const read: ReadLabel[] = [];
  for (const l of v.labels) {
    const value = valueOf(v.question, { [l.answer]: 1 });
    const option = options.indexOf(l.answer);
    if (value !== null && option >= 0) read.push({ value, option });
  }
  return read;
}

/** The option a rater found most likely; a tie goes to the first in the order the judge saw them. */
function mostLikelyOption(question: JudgeQuestion, distribution: LabelDistribution): number {
  const options = judgeOptions(question);
  let best = 0;
  options.forEach((o, i) => {
    if ((distribution[o.label] ?? 0) > (distribution[options[best]!.label] ?? 0)) best = i;
  });
  return best;
}

/** One item as one rater and people saw it. */
interface RatedItem {
  rater: number;
  humans: number[];
  humanMean: number;
  /** (rater's option, person's option), one per label. */
  pairs: Array<readonly [number, number]>;
  /** Items are only pooled into one κ with items of the same number of options and weighting. */
  kappaGroup: { k: number; weights: KappaWeights };
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

function alphaOf(matrix: AlphaMatrix): number | null {
  const a = krippendorffAlpha(matrix);
  return a.kind === 'alpha' ? a.value : null;
}

/**
 * κ over items that may mix questions: questions with different numbers of options (or ordered
 * and unordered ones) cannot share one agreement table, so κ is computed per group and the
 * groups' κ averaged, each weighted by its number of labels. A group whose κ is undefined (every
 * answer the same) is left out of the mean.
 */
function pooledKappa(items: readonly RatedItem[]): number | null {
  const groups = new Map<string, { k: number; weights: KappaWeights; pairs: Array<readonly [number, number]> }>();
  for (const item of items) {
    const key = `${item.kappaGroup.weights}:${item.kappaGroup.k}`;
    const group = groups.get(key) ?? { ...item.kappaGroup, pairs: [] };
    group.pairs.push(...item.pairs);
    groups.set(key, group);
  }
  let weighted = 0;
  let labels = 0;
  for (const g of groups.values()) {
    const kappa = weightedKappa(g.pairs, g.k, g.weights);
    if (kappa === null) continue;
    weighted += kappa * g.pairs.length;
    labels += g.pairs.length;
  }
  return labels === 0 ? null : weighted / labels;
}

/** A statistic over items with its percentile bootstrap interval; resamples where it is undefined are left out. */
function bootstrapped<T>(items: readonly T[], statistic: (items: readonly T[]) => number | null, rng: RandomGenerator, resamples: number, level: number): IntervalFigure {
  if (items.length < 2) return NO_FIGURE;
  const value = statistic(items);
  if (value === null) return NO_FIGURE;
  const stats = bootstrapStatistics(items.length, (idx) => statistic(idx.map((i) => items[i]!)) ?? Number.NaN, rng, resamples).filter(Number.isFinite);
  if (stats.length === 0) return { value, low: null, high: null };
  const { low, high } = percentileInterval(stats, level, { n: items.length, clusters: items.length });
  return { value, low, high };
}

function agreementRow(rater: string, kind: AgreementRow['kind'], items: readonly RatedItem[], rng: RandomGenerator, resamples: number, level: number): AgreementRow {
  return {
    rater,
    kind,
    items: items.length,
    labels: items.reduce((a, i) => a + i.humans.length, 0),
    alpha: bootstrapped(items, (xs) => alphaOf(xs.map((i) => [i.rater, i.humanMean])), rng, resamples, level),
    kappa: bootstrapped(items, pooledKappa, rng, resamples, level),
    bias: judgeBias(items.map((i) => ({ judge: i.rater, human: i.humanMean })), level),
    calibration: calibration(items.map((i) => ({ probability: i.rater, outcome: i.humanMean }))),
  };
}

function ratedItem(v: LabelledVerdict, humans: readonly ReadLabel[], distribution: LabelDistribution | null): RatedItem | null {
  const rater = valueOf(v.question, distribution);
  if (rater === null || distribution === null || humans.length === 0) return null;
  const option = mostLikelyOption(v.question, distribution);
  return {
    rater,
    humans: humans.map((h) => h.value),
    humanMean: mean(humans.map((h) => h.value)),
    pairs: humans.map((h) => [option, h.option] as const),
    kappaGroup: { k: judgeOptions(v.question).length, weights: v.question.type === 'choice' ? 'nominal' : 'quadratic' },
  };
}

function modelScores(labelled: readonly LabelledVerdict[], humanMeans: ReadonlyMap<string, number>, population: readonly PopulationVerdict[], level: number): ModelPpi[] {
  const byVerdict = new Map(labelled.map((v) => [v.verdictId, v]));
  const byModel = new Map<string, { modelId: string; runId: string; items: PpiItem[] }>();
  for (const p of population) {
    const key = JSON.stringify([p.runId, p.modelId]);
    const model = byModel.get(key) ?? { modelId: p.modelId, runId: p.runId, items: [] };
    const v = byVerdict.get(p.verdictId);
    const human = humanMeans.get(p.verdictId);
    model.items.push({
      judge: p.score,
      human: v === undefined || human === undefined ? null : v.inverted ? 1 - human : human,
      inclusion: v?.inclusion ?? 1,
    });
    byModel.set(key, model);
  }
  return [...byModel.values()]
    .sort((a, b) => a.modelId.localeCompare(b.modelId) || a.runId.localeCompare(b.runId))
    .map((m) => ({ modelId: m.modelId, runId: m.runId, ppi: predictionPoweredMean(m.items, { level }) }));
}

export function calibrationFigures(input: {
  blueprintId: string | null;
  labelled: readonly LabelledVerdict[];
  population: readonly PopulationVerdict[];
  seed: number;
  resamples?: number;
  level?: number;
}): CalibrationFigures {
  const { resamples, level } = checkBootstrapOptions({ resamples: input.resamples, level: input.level });
  const rng = xoroshiro128plus(input.seed);
  const read = input.labelled.map((v) => ({ verdict: v, humans: readLabels(v) }));

  const judgeIds = [...new Set(input.labelled.flatMap((v) => v.judges.map((j) => j.judge)))];
  const rowItems = (distributionOf: (v: LabelledVerdict) => LabelDistribution | null) =>
    read.map(({ verdict, humans }) => ratedItem(verdict, humans, distributionOf(verdict))).filter((i): i is RatedItem => i !== null);
  const rows = [
    agreementRow('panel', 'panel', rowItems((v) => v.panel.distribution), rng, resamples, level),
    ...judgeIds.map((id) => agreementRow(id, 'judge', rowItems((v) => v.judges.find((j) => j.judge === id)?.distribution ?? null), rng, resamples, level)),
  ];

  const multiply = read.filter((r) => r.humans.length >= 2).map((r) => r.humans.map((h) => h.value));
  const humanAlpha = { ...bootstrapped(multiply, alphaOf, rng, resamples, level), items: multiply.length };

  const humanMeans = new Map(read.filter((r) => r.humans.length > 0).map((r) => [r.verdict.verdictId, mean(r.humans.map((h) => h.value))]));
  return {
    kind: 'calibration',
    blueprintId: input.blueprintId,
    labels: input.labelled.reduce((a, v) => a + v.labels.length, 0),
    items: input.labelled.filter((v) => v.labels.length > 0).length,
    reviewers: new Set(input.labelled.flatMap((v) => v.labels.map((l) => l.reviewerId))).size,
    humanAlpha,
    rows,
    models: modelScores(input.labelled, humanMeans, input.population, level),
    level,
    resamples,
    seed: input.seed,
  };
}
