import { xoroshiro128plus } from 'pure-rand';
import { describe, expect, it } from 'vitest';
import { ALPHA_MIN_UNITS, krippendorffAlpha, type AlphaMatrix } from '../judging/alpha';
import { judgeOptions } from '../judging/prompt';
import type { JudgeQuestion } from '../judging/questions';
import { questionValue, type LabelDistribution } from '../judging/values';
import { bootstrapStatistics, percentileInterval } from '../scoring/bootstrap';
import { tCritical } from '../scoring/distributions';
import { weightedKappa, type KappaWeights } from './agreement';
import { calibrationFigures, type PopulationVerdict, type LabelledVerdict } from './calibration-figures';
import { predictionPoweredMean } from './prediction-powered';
import { CalibrationFiguresSchema } from './stored';

const noul: JudgeQuestion = { type: 'noul', statement: 'The reply cites a source.' };
const choice: JudgeQuestion = { type: 'choice', question: 'How well is the source cited?', options: { good: 1, partial: 0.5, bad: 0, n_a: null } };

function verdict(id: string, over: Partial<LabelledVerdict> & Pick<LabelledVerdict, 'question' | 'panel' | 'labels'>): LabelledVerdict {
  return { verdictId: id, modelId: 'm', runId: 'run', judges: [], inverted: false, inclusion: 0.5, ...over };
}

/**
 * Ten noul items, both reviewers on each. The panel's P(true), people's labels and their mean:
 *
 *   item   1   2   3   4   5   6   7   8   9   10
 *   panel .9  .9  .9  .7  .7  .3  .3  .1  .1  .1
 *   r1     T   T   T   T   F   F   T   F   F   T
 *   r2     T   T   F   T   F   F   F   F   F   F
 *   mean   1   1  .5   1   0   0  .5   0   0  .5
 *
 * Judge j1 is sure: P(true) = 1 where the panel leans true, 0 where it leans false. Judge j2
 * answers as the panel, but failed on item 10.
 */
const PANEL = [0.9, 0.9, 0.9, 0.7, 0.7, 0.3, 0.3, 0.1, 0.1, 0.1];
const R1 = [true, true, true, true, false, false, true, false, false, true];
const R2 = [true, true, false, true, false, false, false, false, false, false];

function noulCase(): LabelledVerdict[] {
  return PANEL.map((p, i) =>
    verdict(`v${i + 1}`, {
      question: noul,
      panel: { distribution: { true: p, false: 1 - p } },
      judges: [
        { judge: 'j1', distribution: p > 0.5 ? { true: 1, false: 0 } : { true: 0, false: 1 } },
        { judge: 'j2', distribution: i === 9 ? null : { true: p, false: 1 - p } },
      ],
      labels: [
        { reviewerId: 'r1', answer: String(R1[i]) },
        { reviewerId: 'r2', answer: String(R2[i]) },
      ],
    }),
  );
}

/** Krippendorff's α straight from its definition over every pair of values, for checking the figures. */
function alphaByPairs(units: number[][]): number {
  const all = units.flat();
  const n = all.length;
  let within = 0;
  for (const u of units) for (let i = 0; i < u.length; i++) for (let k = 0; k < u.length; k++) if (i !== k) within += (u[i]! - u[k]!) ** 2 / (u.length - 1);
  let between = 0;
  for (let i = 0; i < n; i++) for (let k = 0; k < n; k++) if (i !== k) between += (all[i]! - all[k]!) ** 2;
  return 1 - within / n / (between / (n * (n - 1)));
}

describe('calibration figures', () => {
  const figures = calibrationFigures({ blueprintId: 'bp', labelled: noulCase(), population: [], seed: 11, resamples: 300 });

  it('counts labels, items and reviewers, and keeps to the stored shape', () => {
    expect(CalibrationFiguresSchema.parse(figures)).toEqual(figures);
    expect(figures).toMatchObject({ kind: 'calibration', blueprintId: 'bp', labels: 20, items: 10, reviewers: 2, level: 0.95, resamples: 300, seed: 11, models: [] });
    expect(figures.rows.map((r) => [r.rater, r.kind, r.items, r.labels])).toEqual([
      ['panel', 'panel', 10, 20],
      ['j1', 'judge', 10, 20],
      ['j2', 'judge', 9, 18],
    ]);
  });

  it('the panel against people: α, κ, bias and calibration by hand', () => {
    const panel = figures.rows[0]!;
    // α (interval) over 10 units [panel, mean], n = 20 values.
    //   Σx = 5.0 + 4.5 = 9.5; Σx² = 3.62 + 3.75 = 7.37 → D_e = 2(20·7.37 − 9.5²)/(20·19) = 114.3/380
    //   a two-value unit adds 2(a − b)²: Σ(a − b)² = .01+.01+.16+.09+.49+.09+.04+.01+.01+.16 = 1.07 → D_o = 2.14/20 = .107
    //   α = 1 − .107 / (114.3/380) = 1 − 40.66/114.3
    expect(panel.alpha.value).toBeCloseTo(1 - 40.66 / 114.3, 10);
    expect(panel.alpha.value).toBeCloseTo(alphaByPairs(PANEL.map((p, i) => [p, (Number(R1[i]) + Number(R2[i])) / 2])), 10);
    expect(panel.alpha.low!).toBeLessThan(panel.alpha.value!);
    expect(panel.alpha.high!).toBeGreaterThan(panel.alpha.value!);
    // κ: the panel's option is true (index 1 of false, true) on items 1–5, false on 6–10; one pair per label:
    //   (true, true) 7, (true, false) 3, (false, false) 8, (false, true) 2 → agreement 15/20;
    //   rows 10 / 10, columns 9 true / 11 false → chance (10·9 + 10·11)/400 = .5; κ = (.75 − .5)/(1 − .5) = .5
    expect(panel.kappa.value).toBeCloseTo(0.5, 12);
    // bias: panel − mean = −.1 −.1 .4 −.3 .7 .3 −.2 .1 .1 −.4 → mean .05, Σd² = 1.07, sd = √((1.07 − 10·.05²)/9)
    const sd = Math.sqrt((1.07 - 10 * 0.05 ** 2) / 9);
    expect(panel.bias!.mean).toBeCloseTo(0.05, 12);
    expect(panel.bias!.high - panel.bias!.mean).toBeCloseTo((tCritical(0.95, 9) * sd) / Math.sqrt(10), 10);
    // calibration, bins of width .1: bin 9 (items 1–3) observes (1 + 1 + .5)/3 = 5/6 against .9; bin 7 (4, 5) .5 against .7;
    //   bin 3 (6, 7) .25 against .3; bin 1 (8–10) 1/6 against .1
    //   ECE = .3·|5/6 − .9| + .2·.2 + .2·.05 + .3·|1/6 − .1| = .02 + .04 + .01 + .02 = .09
    expect(panel.calibration.bins[9]).toMatchObject({ n: 3 });
    expect(panel.calibration.bins[9]!.observed).toBeCloseTo(5 / 6, 12);
    expect(panel.calibration.ece).toBeCloseTo(0.09, 12);
  });

  it('each judge against people, on the items it answered', () => {
    const [, j1, j2] = figures.rows;
    // j1's values 1,1,1,1,1,0,0,0,0,0: Σx = 5 + 4.5, Σx² = 5 + 3.75 → D_e = 2(20·8.75 − 9.5²)/380 = 169.5/380;
    //   differences 0 0 .5 0 1 0 −.5 0 0 −.5 → Σd² = 1.75, D_o = 3.5/20 = .175; α = 1 − .175·380/169.5
    expect(j1!.alpha.value).toBeCloseTo(1 - 66.5 / 169.5, 10);
    // the same option as the panel on every item: the same κ
    expect(j1!.kappa.value).toBeCloseTo(0.5, 12);
    expect(j1!.bias!.mean).toBeCloseTo(0.05, 12);
    // bin 9 (p = 1) holds items 1–5, observing (1+1+.5+1+0)/5 = .7; bin 0 (p = 0) items 6–10, observing 1/5:
    //   ECE = .5·.3 + .5·.2
    expect(j1!.calibration.ece).toBeCloseTo(0.25, 12);
    // j2 answered 9 items: under the units α needs
    expect(9).toBeLessThan(ALPHA_MIN_UNITS);
    expect(j2!.alpha).toEqual({ value: null, low: null, high: null });
    expect(j2!.bias!.n).toBe(9);
  });

  it('people against each other: α over the items labelled twice', () => {
    // units (r1, r2): three disagree (items 3, 7, 10). Σx = 9, Σx² = 9 over 20 values:
    //   D_e = 2(20·9 − 81)/380 = 198/380; D_o = 3·2·1/20 = .3 → α = 1 − .3·380/198 = 14/33
    expect(figures.humanAlpha.value).toBeCloseTo(14 / 33, 12);
    expect(figures.humanAlpha.items).toBe(10);
    expect(figures.humanAlpha.low).not.toBeNull();
    // one label taken off an item: nine items labelled twice, too few for α
    const fewer = noulCase();
    fewer[0]!.labels.pop();
    const f = calibrationFigures({ blueprintId: 'bp', labelled: fewer, population: [], seed: 11, resamples: 50 });
    expect(f.humanAlpha).toEqual({ value: null, low: null, high: null, items: 9 });
    expect(f.rows[0]!.labels).toBe(19);
  });

  it('is the same for a seed, and its intervals move with it', () => {
    const again = calibrationFigures({ blueprintId: 'bp', labelled: noulCase(), population: [], seed: 11, resamples: 300 });
    expect(again).toEqual(figures);
    const other = calibrationFigures({ blueprintId: 'bp', labelled: noulCase(), population: [], seed: 12, resamples: 300 });
    expect(other.rows[0]!.alpha.value).toBe(figures.rows[0]!.alpha.value);
    expect([other.rows[0]!.alpha.low, other.humanAlpha.low]).not.toEqual([figures.rows[0]!.alpha.low, figures.humanAlpha.low]);
  });
});

describe('calibration figures on a choice question', () => {
  // options in the judge's order: good (1), partial (.5), bad (0), n_a (null: does not apply)
  const labelled = [
    verdict('A', { question: choice, panel: { distribution: { good: 0.7, partial: 0.3 } }, labels: [{ reviewerId: 'r1', answer: 'good' }, { reviewerId: 'r2', answer: 'n_a' }] }),
    verdict('B', { question: choice, panel: { distribution: { bad: 0.6, partial: 0.4 } }, labels: [{ reviewerId: 'r1', answer: 'partial' }, { reviewerId: 'r2', answer: 'bad' }] }),
    verdict('C', { question: choice, panel: { distribution: { partial: 0.9, good: 0.1 } }, labels: [{ reviewerId: 'r1', answer: 'partial' }] }),
    // the panel says it does not apply: no panel value
    verdict('D', { question: choice, panel: { distribution: { n_a: 0.8, good: 0.2 } }, labels: [{ reviewerId: 'r1', answer: 'good' }] }),
    // people say it does not apply: no human value
    verdict('E', { question: choice, panel: { distribution: { good: 1 } }, labels: [{ reviewerId: 'r1', answer: 'n_a' }, { reviewerId: 'r3', answer: 'n_a' }] }),
  ];

  it('leaves out "does not apply" answers and uses nominal κ', () => {
    const f = calibrationFigures({ blueprintId: null, labelled, population: [], seed: 1, resamples: 100 });
    expect(f).toMatchObject({ labels: 8, items: 5, reviewers: 3 });
    const panel = f.rows[0]!;
    // A (people: good → 1), B (partial .5, bad 0 → .25), C (partial → .5); D and E have no pair of values
    expect([panel.items, panel.labels]).toEqual([3, 4]);
    // panel values: A .7·1 + .3·.5 = .85, B (.6·0 + .4·.5) = .2, C .9·.5 + .1·1 = .55 → differences −.15, −.05, .05
    expect(panel.bias!.mean).toBeCloseTo(-0.05, 12);
    // pairs (panel option, person option): A (good, good), B (bad, partial) (bad, bad), C (partial, partial)
    //   = (0,0) (2,1) (2,2) (1,1): agreement 3/4; rows 1,1,2 and columns 1,2,1 over options 0,1,2 →
    //   chance (1·1 + 1·2 + 2·1)/16 = 5/16; κ = (12/16 − 5/16)/(11/16) = 7/11
    expect(panel.kappa.value).toBeCloseTo(7 / 11, 12);
    // only B has two labels with values
    expect(f.humanAlpha).toMatchObject({ value: null, items: 1 });
  });

  it('pools κ over questions with different options, weighted by labels', () => {
    const f = calibrationFigures({ blueprintId: null, labelled: [...noulCase(), ...labelled], population: [], seed: 1, resamples: 100 });
    // the noul items' κ is .5 over 20 labels, the choice items' 7/11 over 4
    expect(f.rows[0]!.kappa.value).toBeCloseTo((20 * 0.5 + 4 * (7 / 11)) / 24, 12);
  });
});

/**
 * The bootstraps straight from their definition: each resample's items built, α over their
 * matrix, κ per group over their pairs (the groups in the order first drawn), each statistic
 * bootstrapped on its own. The figures must be these to the last bit: the module computes the
 * same sums in the same order without building the resamples.
 */
describe('α and κ intervals, against the statistics recomputed over every resample', () => {
  const score4: JudgeQuestion = { type: 'score', question: 'How complete?', levels: ['none', 'some', 'most', 'all'] };
  const questions: JudgeQuestion[] = [noul, choice, score4];
  let s = 7;
  const rand = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  // judges never say "does not apply" (so the panel and j1 rate the same items); people sometimes do
  const answer = (q: JudgeQuestion): LabelDistribution => {
    const labels = judgeOptions(q)
      .map((o) => o.label)
      .filter((l) => l !== 'n_a');
    const top = labels[Math.floor(rand() * labels.length)]!;
    const next = labels[Math.floor(rand() * labels.length)]!;
    return top === next ? { [top]: 1 } : { [top]: 0.75, [next]: 0.25 };
  };
  const labelled: LabelledVerdict[] = Array.from({ length: 40 }, (_v, i) => {
    const question = questions[i % 3]!;
    const labels = judgeOptions(question).map((o) => o.label);
    return verdict(`v${i}`, {
      question,
      panel: { distribution: answer(question) },
      judges: [
        { judge: 'j1', distribution: answer(question) },
        { judge: 'j2', distribution: i % 7 === 0 ? null : answer(question) },
      ],
      labels: Array.from({ length: 1 + (i % 3) }, (_l, r) => ({ reviewerId: `r${r}`, answer: labels[Math.floor(rand() * labels.length)]! })),
    });
  });
  const seed = 5;
  const resamples = 200;
  const f = calibrationFigures({ blueprintId: null, labelled, population: [], seed, resamples });

  const valueOf = (q: JudgeQuestion, d: LabelDistribution | null) => {
    const o = d === null ? null : questionValue(q, d);
    return o !== null && 'applicable' in o && o.applicable ? o.value : null;
  };
  const humansOf = (v: LabelledVerdict) =>
    v.labels.flatMap((l) => {
      const value = valueOf(v.question, { [l.answer]: 1 });
      const option = judgeOptions(v.question).findIndex((o) => o.label === l.answer);
      return value === null ? [] : [{ value, option }];
    });
  const interval = (n: number, statistic: (xs: readonly number[]) => number | null) => {
    const value = statistic(Array.from({ length: n }, (_v, i) => i));
    if (value === null) return { value: null, low: null, high: null };
    const stats = bootstrapStatistics(n, (idx) => statistic(idx) ?? Number.NaN, xoroshiro128plus(seed), resamples).filter(Number.isFinite);
    const { low, high } = percentileInterval(stats, 0.95, { n, clusters: n });
    return { value, low, high };
  };
  const alpha = (matrix: AlphaMatrix) => {
    const a = krippendorffAlpha(matrix);
    return a.kind === 'alpha' ? a.value : null;
  };
  const row = (distributionOf: (v: LabelledVerdict) => LabelDistribution | null) => {
    const items = labelled.flatMap((v) => {
      const d = distributionOf(v);
      const rater = valueOf(v.question, d);
      const humans = humansOf(v);
      if (rater === null || d === null || humans.length === 0) return [];
      const options = judgeOptions(v.question).map((o) => o.label);
      const option = options.reduce((best, o, k) => ((d[o] ?? 0) > (d[options[best]!] ?? 0) ? k : best), 0);
      const humanMean = humans.reduce((a, h) => a + h.value, 0) / humans.length;
      const weights: KappaWeights = v.question.type === 'choice' ? 'nominal' : 'quadratic';
      return [{ rater, humanMean, pairs: humans.map((h) => [option, h.option] as const), group: `${weights}:${options.length}`, k: options.length, weights }];
    });
    const kappa = (idx: readonly number[]) => {
      const groups = new Map<string, { k: number; weights: KappaWeights; pairs: Array<readonly [number, number]> }>();
      for (const i of idx) {
        const item = items[i]!;
        const g = groups.get(item.group) ?? { k: item.k, weights: item.weights, pairs: [] };
        g.pairs.push(...item.pairs);
        groups.set(item.group, g);
      }
      let weighted = 0;
      let labels = 0;
      for (const g of groups.values()) {
        const k = weightedKappa(g.pairs, g.k, g.weights);
        if (k === null) continue;
        weighted += k * g.pairs.length;
        labels += g.pairs.length;
      }
      return labels === 0 ? null : weighted / labels;
    };
    return {
      items: items.length,
      alpha: interval(items.length, (idx) => alpha(idx.map((i) => [items[i]!.rater, items[i]!.humanMean]))),
      kappa: interval(items.length, kappa),
    };
  };

  it('are those of every resample built and measured, to the last bit', () => {
    const expected = [row((v) => v.panel.distribution), row((v) => v.judges[0]!.distribution), row((v) => v.judges[1]!.distribution)];
    // the panel and j1 rate the same items (one pass of draws serves both), j2 fewer; every group of κ is met
    const [panel, j1, j2] = expected.map((r) => r.items);
    expect(j1).toBe(panel);
    expect(j2).toBeLessThan(panel!);
    expect(f.rows.map((r) => ({ items: r.items, alpha: r.alpha, kappa: r.kappa }))).toEqual(expected);
    for (const r of f.rows) expect([r.alpha.low, r.kappa.low]).not.toContain(null);
    const multiply = labelled.map(humansOf).filter((h) => h.length >= 2);
    expect(f.humanAlpha).toEqual({ ...interval(multiply.length, (idx) => alpha(idx.map((i) => multiply[i]!.map((h) => h.value)))), items: multiply.length });
  });
});

describe('prediction-powered model scores', () => {
  it('are predictionPoweredMean over each model\'s verdicts, people\'s mean turned around on should_not points', () => {
    // model m1: 30 verdicts, 12 labelled (4 of them should_not); model m0: 5 verdicts, one labelled with no usable answer
    const labelled: LabelledVerdict[] = [];
    const population: PopulationVerdict[] = [];
    for (let i = 0; i < 30; i++) {
      const p = (i % 10) / 10 + 0.05;
      const inverted = i % 3 === 0;
      population.push({ verdictId: `m1-${i}`, modelId: 'm1', runId: 'run-1', score: inverted ? 1 - p : p });
      if (i < 12) {
        labelled.push(
          verdict(`m1-${i}`, {
            modelId: 'm1',
            runId: 'run-1',
            question: noul,
            inverted,
            inclusion: 0.2 + i / 100,
            panel: { distribution: { true: p, false: 1 - p } },
            labels: [
              { reviewerId: 'r1', answer: i % 2 === 0 ? 'true' : 'false' },
              { reviewerId: 'r2', answer: 'true' },
            ],
          }),
        );
      }
    }
    for (let i = 0; i < 5; i++) population.push({ verdictId: `m0-${i}`, modelId: 'm0', runId: 'run-1', score: 0.5 });
    labelled.push(verdict('m0-0', { modelId: 'm0', runId: 'run-1', question: choice, inclusion: 0.3, panel: { distribution: { good: 1 } }, labels: [{ reviewerId: 'r1', answer: 'n_a' }] }));

    const f = calibrationFigures({ blueprintId: 'bp', labelled, population, seed: 2, resamples: 50 });
    expect(f.models.map((m) => [m.modelId, m.runId])).toEqual([
      ['m0', 'run-1'],
      ['m1', 'run-1'],
    ]);
    // by hand: people's mean is 1 (both true) on even i, .5 on odd i; 1 − that on should_not points (i divisible by 3)
    const m1Items = population
      .filter((v) => v.modelId === 'm1')
      .map((v, i) => {
        if (i >= 12) return { judge: v.score, human: null, inclusion: 1 };
        const people = i % 2 === 0 ? 1 : 0.5;
        return { judge: v.score, human: i % 3 === 0 ? 1 - people : people, inclusion: 0.2 + i / 100 };
      });
    expect(f.models[1]!.ppi).toEqual(predictionPoweredMean(m1Items));
    expect(f.models[1]!.ppi.labelled).toBe(12);
    expect(f.models[1]!.ppi.estimate).not.toBeNull();
    // m0's one labelled verdict had only "does not apply": nothing labelled
    expect(f.models[0]!.ppi).toEqual(predictionPoweredMean(Array.from({ length: 5 }, () => ({ judge: 0.5, human: null, inclusion: 1 }))));
  });
});
