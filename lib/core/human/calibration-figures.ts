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
import { krippendorffAlpha, unitAlphaStats } from '../judging/alpha';
import { judgeOptions } from '../judging/prompt';
import type { JudgeQuestion } from '../judging/questions';
import { questionValue, type LabelDistribution } from '../judging/values';
import { bootstrapStatistics, checkBootstrapOptions, percentileInterval } from '../scoring/bootstrap';
import { calibration, judgeBias, kappaWeightMatrix, weightedKappaFromTallies, type KappaWeights } from './agreement';
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

/** People's labels on a verdict, read against the judge's options (their labels, in the order the judge saw them). */
function readLabels(v: LabelledVerdict, options: readonly string[]): ReadLabel[] {
  const read: ReadLabel[] = [];
  for (const l of v.labels) {
    const value = valueOf(v.question, { [l.answer]: 1 });
    const option = options.indexOf(l.answer);
    if (value !== null && option >= 0) read.push({ value, option });
  }
  return read;
}

/** The option a rater found most likely; a tie goes to the first in the order the judge saw them. */
function mostLikelyOption(options: readonly string[], distribution: LabelDistribution): number {
  let best = 0;
  options.forEach((o, i) => {
    if ((distribution[o] ?? 0) > (distribution[options[best]!] ?? 0)) best = i;
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

/**
 * α's and κ's bootstraps draw items by index and compute each resample's statistic from what was
 * worked out once per item, without building the resample: α adds up the items' unit statistics,
 * κ their pairs' tallies. Sums run in the order the indices were drawn, as they would over the
 * resampled items themselves, so every figure is that of the statistic over the resample, to the
 * last bit.
 */
type IndexStatistic = (indices: readonly number[]) => number | null;

/**
 * Krippendorff's α over units drawn by index: each unit's statistics (judging/alpha.ts,
 * unitAlphaStats), computed once, summed per draw; α from the sum is α over the drawn units'
 * matrix (missing and non-finite values left out, as alphaStatsOf does).
 */
function alphaStatistic(units: readonly (readonly number[])[]): IndexStatistic {
  // per unit, side by side: pairable (0 or 1), values, pairs, Σx, Σx², within
  const unitStats = new Float64Array(units.length * 6);
  units.forEach((u, i) => {
    const s = unitAlphaStats(u.filter((v) => Number.isFinite(v)));
    unitStats.set([s.units, s.n, s.pairs, s.sum, s.sumSq, s.within], i * 6);
  });
  return (indices) => {
    const stats = unitStats;
    let pairable = 0;
    let values = 0;
    let pairs = 0;
    let sum = 0;
    let sumSq = 0;
    let within = 0;
    for (let d = 0; d < indices.length; d++) {
      const at = indices[d]! * 6;
      pairable += stats[at]!;
      values += stats[at + 1]!;
      pairs += stats[at + 2]!;
      sum += stats[at + 3]!;
      sumSq += stats[at + 4]!;
      within += stats[at + 5]!;
    }
    const a = krippendorffAlpha({ units: pairable, n: values, pairs, sum, sumSq, within });
    return a.kind === 'alpha' ? a.value : null;
  };
}

/**
 * κ over items drawn by index, items that may mix questions: questions with different numbers of
 * options (or ordered and unordered ones) cannot share one agreement table, so κ is computed per
 * group and the groups' κ averaged, each weighted by its number of labels (in the order the
 * groups were first drawn). A group whose κ is undefined (every answer the same) is left out of
 * the mean.
 *
 * Worked out once: each item's group and its pairs (rater's option, person's option), each pair
 * as where it counts in its group's row and column totals and its disagreement weight. Per draw
 * each group's tallies (agreement.ts, KappaTallies) are added up pair by pair, in the order the
 * drawn items' pairs come, and κ read from them (weightedKappaFromTallies, as weightedKappa does).
 */
function pooledKappaStatistic(items: readonly RatedItem[]): IndexStatistic {
  const groupOf = new Map<string, number>();
  const groups: Array<{ k: number; w: number[]; offset: number }> = [];
  let totalsLength = 0;
  const itemGroup = new Int32Array(items.length);
  const pairStart = new Int32Array(items.length + 1);
  const pairCount = items.reduce((a, i) => a + i.pairs.length, 0);
  const pairRow = new Int32Array(pairCount);
  const pairCol = new Int32Array(pairCount);
  const pairWeight = new Float64Array(pairCount);
  let p = 0;
  items.forEach((item, i) => {
    const { k, weights } = item.kappaGroup;
    const key = `${weights}:${k}`;
    let g = groupOf.get(key);
    if (g === undefined) {
      g = groups.length;
      groupOf.set(key, g);
      groups.push({ k, w: kappaWeightMatrix(k, weights), offset: totalsLength });
      totalsLength += k;
    }
    const group = groups[g]!;
    itemGroup[i] = g;
    pairStart[i] = p;
    for (const [a, b] of item.pairs) {
      pairRow[p] = group.offset + a;
      pairCol[p] = group.offset + b;
      pairWeight[p] = group.w[a * k + b]!;
      p++;
    }
  });
  pairStart[items.length] = p;

  // every group's tallies, side by side; each group reads its own stretch of the totals
  const rowTotals = new Float64Array(totalsLength);
  const colTotals = new Float64Array(totalsLength);
  const observed = new Float64Array(groups.length);
  const labels = new Float64Array(groups.length);
  const tallies = groups.map((g) => ({ rowTotals: rowTotals.subarray(g.offset, g.offset + g.k), colTotals: colTotals.subarray(g.offset, g.offset + g.k), n: 0, observed: 0 }));
  const drawnGroups = new Int32Array(groups.length);
  return (indices) => {
    // the arrays as locals: the loop below is the hot path, and reads them without going back to the closure
    const rows = rowTotals;
    const cols = colTotals;
    const disagreement = observed;
    const counts = labels;
    const itemGroups = itemGroup;
    const starts = pairStart;
    const pairRows = pairRow;
    const pairCols = pairCol;
    const pairWeights = pairWeight;
    rows.fill(0);
    cols.fill(0);
    disagreement.fill(0);
    counts.fill(0);
    let drawnCount = 0;
    for (let d = 0; d < indices.length; d++) {
      const i = indices[d]!;
      const g = itemGroups[i]!;
      if (counts[g] === 0) drawnGroups[drawnCount++] = g;
      const start = starts[i]!;
      const end = starts[i + 1]!;
      let o = disagreement[g]!;
      for (let q = start; q < end; q++) {
        rows[pairRows[q]!]!++;
        cols[pairCols[q]!]!++;
        o += pairWeights[q]!;
      }
      disagreement[g] = o;
      counts[g]! += end - start;
    }
    let weighted = 0;
    let pooled = 0;
    for (let c = 0; c < drawnCount; c++) {
      const g = drawnGroups[c]!;
      const t = tallies[g]!;
      t.n = counts[g]!;
      t.observed = disagreement[g]!;
      const kappa = weightedKappaFromTallies(t, groups[g]!.k, groups[g]!.w);
      if (kappa === null) continue;
      weighted += kappa * t.n;
      pooled += t.n;
    }
    return pooled === 0 ? null : weighted / pooled;
  };
}

/**
 * Statistics over items with their percentile bootstrap intervals (resamples where a statistic is
 * undefined are left out); no interval under two items, no figure where the statistic over all
 * items is undefined.
 *
 * bootstrapStatistics clones the generator and never moves it on, so every bootstrap over `n`
 * items draws the same indices: the statistics over the same number of items (a row's α and κ,
 * and rows over the same items) are computed from one pass of draws, each exactly as a
 * bootstrap of its own would compute it.
 */
function bootstrapped(figures: ReadonlyArray<{ n: number; statistic: IndexStatistic }>, rng: RandomGenerator, resamples: number, level: number): IntervalFigure[] {
  const out = figures.map((): IntervalFigure => NO_FIGURE);
  const byCount = new Map<number, Array<{ at: number; value: number; stats: number[] }>>();
  figures.forEach(({ n, statistic }, at) => {
    if (n < 2) return;
    const value = statistic(Array.from({ length: n }, (_v, i) => i));
    if (value === null) return;
    const same = byCount.get(n) ?? [];
    same.push({ at, value, stats: [] });
    byCount.set(n, same);
  });
  for (const [n, same] of byCount) {
    bootstrapStatistics(
      n,
      (idx) => {
        for (const f of same) {
          const v = figures[f.at]!.statistic(idx);
          if (v !== null && Number.isFinite(v)) f.stats.push(v);
        }
        return 0;
      },
      rng,
      resamples,
    );
    for (const { at, value, stats } of same) {
      if (stats.length === 0) out[at] = { value, low: null, high: null };
      else {
        const { low, high } = percentileInterval(stats, level, { n, clusters: n });
        out[at] = { value, low, high };
      }
    }
  }
  return out;
}

/** A rater's row, but for α and κ: the statistics whose bootstraps are still to run. */
function agreementRow(rater: string, kind: AgreementRow['kind'], items: readonly RatedItem[], level: number) {
  return {
    row: {
      rater,
      kind,
      items: items.length,
      labels: items.reduce((a, i) => a + i.humans.length, 0),
      bias: judgeBias(items.map((i) => ({ judge: i.rater, human: i.humanMean })), level),
      calibration: calibration(items.map((i) => ({ probability: i.rater, outcome: i.humanMean }))),
    },
    alpha: { n: items.length, statistic: alphaStatistic(items.map((i) => [i.rater, i.humanMean])) },
    kappa: { n: items.length, statistic: pooledKappaStatistic(items) },
  };
}

function ratedItem(v: LabelledVerdict, options: readonly string[], humans: readonly ReadLabel[], distribution: LabelDistribution | null): RatedItem | null {
  const rater = valueOf(v.question, distribution);
  if (rater === null || distribution === null || humans.length === 0) return null;
  const option = mostLikelyOption(options, distribution);
  return {
    rater,
    humans: humans.map((h) => h.value),
    humanMean: mean(humans.map((h) => h.value)),
    pairs: humans.map((h) => [option, h.option] as const),
    kappaGroup: { k: options.length, weights: v.question.type === 'choice' ? 'nominal' : 'quadratic' },
  };
}

function modelScores(labelled: readonly LabelledVerdict[], humanMeans: ReadonlyMap<string, number>, population: readonly PopulationVerdict[], level: number): ModelPpi[] {
  // what a labelled verdict adds to its model's items: people's value facing the score, and its inclusion probability
  const byVerdict = new Map(labelled.map((v) => [v.verdictId, v]));
  const labelledItem = new Map<string, { human: number | null; inclusion: number }>();
  for (const [id, v] of byVerdict) {
    const human = humanMeans.get(id);
    labelledItem.set(id, { human: human === undefined ? null : v.inverted ? 1 - human : human, inclusion: v.inclusion });
  }
  const byRun = new Map<string, Map<string, { modelId: string; runId: string; items: PpiItem[] }>>();
  const models: Array<{ modelId: string; runId: string; items: PpiItem[] }> = [];
  for (const p of population) {
    let runModels = byRun.get(p.runId);
    if (runModels === undefined) byRun.set(p.runId, (runModels = new Map()));
    let model = runModels.get(p.modelId);
    if (model === undefined) {
      model = { modelId: p.modelId, runId: p.runId, items: [] };
      runModels.set(p.modelId, model);
      models.push(model);
    }
    const l = labelledItem.get(p.verdictId);
    model.items.push({ judge: p.score, human: l?.human ?? null, inclusion: l?.inclusion ?? 1 });
  }
  return models
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
  const read = input.labelled.map((v) => {
    const options = judgeOptions(v.question).map((o) => o.label);
    return { verdict: v, options, humans: readLabels(v, options) };
  });

  const judgeIds = [...new Set(input.labelled.flatMap((v) => v.judges.map((j) => j.judge)))];
  const rowItems = (distributionOf: (v: LabelledVerdict) => LabelDistribution | null) =>
    read.map(({ verdict, options, humans }) => ratedItem(verdict, options, humans, distributionOf(verdict))).filter((i): i is RatedItem => i !== null);
  const pending = [
    agreementRow('panel', 'panel', rowItems((v) => v.panel.distribution), level),
    ...judgeIds.map((id) => agreementRow(id, 'judge', rowItems((v) => v.judges.find((j) => j.judge === id)?.distribution ?? null), level)),
  ];
  const multiply = read.filter((r) => r.humans.length >= 2).map((r) => r.humans.map((h) => h.value));
  const figures = bootstrapped([...pending.flatMap((r) => [r.alpha, r.kappa]), { n: multiply.length, statistic: alphaStatistic(multiply) }], rng, resamples, level);
  const rows: AgreementRow[] = pending.map(({ row: { bias, calibration, ...counts } }, r) => ({ ...counts, alpha: figures[2 * r]!, kappa: figures[2 * r + 1]!, bias, calibration }));
  const humanAlpha = { ...figures[figures.length - 1]!, items: multiply.length };

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
