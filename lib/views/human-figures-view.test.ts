import { xoroshiro128plus } from 'pure-rand';
import { describe, expect, it } from 'vitest';
import {
  ALPHA_MIN_UNITS,
  calibration,
  CalibrationFiguresSchema,
  PairwiseFiguresSchema,
  pairwiseRanking,
  predictionPoweredMean,
  type AgreementRow,
  type CalibrationFigures,
  type PairwiseFigures,
  type PpiEstimate,
  type Preference,
} from '@/lib/core';
import { adminReviewView, calibrationCurve, calibrationView, formatSigned, judgedCheckLine, pairwiseBoardView, type ReviewOverviewInput } from './human-figures-view';

const BP = 'bp/with space';
const GPT = 'openrouter:openai/gpt-4o';
const CLAUDE = 'anthropic:claude-3-5-haiku';
const JUDGE = 'openai:gpt-4.1-mini';
const JUDGE2 = 'openrouter:qwen/qwen-2.5-72b-instruct#prompt-aware';
const NAMES = new Map([[GPT, 'GPT-4o']]);

/** The judge's value and people's yes/no on the same items: a real calibration from core. */
const CAL = calibration([
  ...Array.from({ length: 6 }, (_v, i) => ({ probability: 0.92, outcome: (i < 5 ? 1 : 0) as 0 | 1 })),
  ...Array.from({ length: 2 }, () => ({ probability: 0.15, outcome: 0 as 0 | 1 })),
  ...Array.from({ length: 2 }, (_v, i) => ({ probability: 0.55, outcome: (i === 0 ? 1 : 0) as 0 | 1 })),
]);

function row(over: Partial<AgreementRow> & Pick<AgreementRow, 'rater' | 'kind'>): AgreementRow {
  return {
    items: 40,
    labels: 140,
    alpha: { value: 0.8125, low: 0.735, high: 0.8749 },
    kappa: { value: 0.7, low: 0.605, high: 0.8 },
    bias: { mean: 0.06, low: 0.01, high: 0.11, n: 40 },
    calibration: CAL,
    ...over,
  };
}

const ppi = (over: Partial<PpiEstimate>): PpiEstimate => ({
  estimate: 0.7345,
  low: 0.69,
  high: 0.779,
  level: 0.95,
  judgeMean: 0.7655,
  judgeLow: 0.741,
  judgeHigh: 0.79,
  rectifier: -0.031,
  items: 300,
  labelled: 24,
  reason: null,
  ...over,
});

function figures(over: Partial<CalibrationFigures> = {}): CalibrationFigures {
  return CalibrationFiguresSchema.parse({
    kind: 'calibration',
    blueprintId: BP,
    labels: 150,
    items: 45,
    reviewers: 4,
    humanAlpha: { value: 0.9, low: 0.8, high: 0.95, items: 12 },
    // stored with a judge before the panel: the view puts the panel first
    rows: [
      row({ rater: JUDGE2, kind: 'judge', bias: { mean: -0.03, low: -0.08, high: 0.02, n: 38 }, items: 38 }),
      row({ rater: 'panel', kind: 'panel' }),
      row({ rater: JUDGE, kind: 'judge', alpha: { value: -0.1234, low: -0.3, high: 0.05 } }),
    ],
    models: [],
    level: 0.95,
    resamples: 1000,
    seed: 7,
    ...over,
  });
}

describe('calibrationView', () => {
  it('without labels says so and points to where reviewers label', () => {
    for (const v of [calibrationView(null), calibrationView(figures({ labels: 0 }))]) {
      expect(v).toMatchObject({ kind: 'empty', title: 'Judges checked against people', reviewHref: '/review' });
      expect(v.kind === 'empty' && v.sentence).toContain('No one has labelled a judged verdict here yet');
    }
  });

  it('heads with the panel’s labels and α, two decimals, its interval in brackets', () => {
    const v = calibrationView(figures());
    if (v.kind !== 'figures') throw new Error('expected figures');
    // the panel row's 140 labels, not the 150 of the whole: α 0.8125 → 0.81, 0.735 → 0.74 (half up), 0.8749 → 0.87
    expect(v.headline).toBe('Judges checked against 140 human labels: α 0.81 [0.74–0.87]');
    expect(v.headlineAlpha.attrs).toEqual({ 'data-figure': `alpha|blueprint=${BP}|metric=human-vs-panel`, 'data-value': '0.81', 'data-units': '40' });
    expect(v.basis).toBe('150 labels on 45 items from 4 reviewers; intervals at 95% from 1,000 bootstrap resamples over items.');
  });

  it('lists the panel first, then each judge in stored order, with κ, signed bias and ECE', () => {
    const v = calibrationView(figures(), NAMES);
    if (v.kind !== 'figures') throw new Error('expected figures');
    expect(v.rows.map((r) => [r.label, r.detail, r.items, r.labels, r.alpha.label, r.alpha.interval, r.kappa, r.bias])).toEqual([
      ['Panel', null, '40 items', '140 labels', 'α 0.81', '[0.74–0.87]', '0.70 [0.61–0.80]', '+0.06 [+0.01–+0.11]'],
      ['qwen-2.5-72b-instruct (prompt-aware)', JUDGE2, '38 items', '140 labels', 'α 0.81', '[0.74–0.87]', '0.70 [0.61–0.80]', '−0.03 [−0.08–+0.02]'],
      ['gpt-4.1-mini', JUDGE, '40 items', '140 labels', 'α −0.12', '[−0.30–0.05]', '0.70 [0.61–0.80]', '+0.06 [+0.01–+0.11]'],
    ]);
    expect(v.rows.map((r) => r.alpha.attrs?.['data-figure'])).toEqual([
      `alpha|blueprint=${BP}|metric=human-vs-panel`,
      `alpha|blueprint=${BP}|metric=human-vs-judge:${JUDGE2}`,
      `alpha|blueprint=${BP}|metric=human-vs-judge:${JUDGE}`,
    ]);
    // the lean is read from the interval: above 0 more generous, across 0 no clear lean
    expect(v.rows[0]!.biasTitle).toContain('the panel is more generous than people');
    expect(v.rows[1]!.biasTitle).toContain('no clear lean either way');
    // ECE of CAL: (6·|5/6 − 0.92| + 2·|0 − 0.15| + 2·|0.5 − 0.55|) / 10 = (0.52 + 0.30 + 0.10) / 10 = 0.092 → 0.09
    expect(v.rows[0]!.ece).toBe('0.09');
  });

  it('below the minimum of labelled items prints no α and no κ, and carries no figure', () => {
    const thin = figures({ rows: [row({ rater: 'panel', kind: 'panel', items: ALPHA_MIN_UNITS - 1, labels: 12 })], humanAlpha: { value: 1, low: 1, high: 1, items: 3 } });
    const v = calibrationView(thin);
    if (v.kind !== 'figures') throw new Error('expected figures');
    expect(v.headline).toBe(`Judges checked against 12 human labels: too few labelled items to tell (${ALPHA_MIN_UNITS - 1} items)`);
    expect([v.rows[0]!.alpha.attrs, v.rows[0]!.alpha.interval, v.rows[0]!.kappa]).toEqual([null, null, '—']);
    expect(v.people.alpha).toMatchObject({ label: 'too few labelled items to tell (3 items)', attrs: null });
    // at the minimum it is shown
    const at = calibrationView(figures({ rows: [row({ rater: 'panel', kind: 'panel', items: ALPHA_MIN_UNITS })] }));
    expect(at.kind === 'figures' && at.rows[0]!.alpha.attrs?.['data-units']).toBe(String(ALPHA_MIN_UNITS));
  });

  it('an α that is not defined (every value the same) reads “—”, and a missing bias reads “—”', () => {
    const v = calibrationView(figures({ rows: [row({ rater: 'panel', kind: 'panel', alpha: { value: null, low: null, high: null }, bias: null })] }));
    if (v.kind !== 'figures') throw new Error('expected figures');
    expect([v.rows[0]!.alpha.label, v.rows[0]!.alpha.attrs, v.rows[0]!.bias]).toEqual(['—', null, '—']);
  });

  it('shows people’s agreement with each other as the ceiling, with its own figure', () => {
    const v = calibrationView(figures());
    if (v.kind !== 'figures') throw new Error('expected figures');
    expect(v.people).toMatchObject({ label: 'People with each other', items: '12 items', alpha: { label: 'α 0.90', interval: '[0.80–0.95]' } });
    expect(v.people.alpha.attrs).toEqual({ 'data-figure': `alpha|blueprint=${BP}|metric=human-vs-human`, 'data-value': '0.90', 'data-units': '12' });
  });

  it('every blueprint together is the board’s level', () => {
    const v = calibrationView(figures({ blueprintId: null }));
    expect(v.kind === 'figures' && v.headlineAlpha.attrs?.['data-figure']).toBe('alpha|board=all|metric=human-vs-panel');
  });

  it('orders the models by the prediction-powered mean, those without one last, and says why there is none', () => {
    const few = predictionPoweredMean(Array.from({ length: 30 }, (_v, i) => ({ judge: i % 2, human: i < 3 ? 1 : null, inclusion: 0.5 })));
    const v = calibrationView(
      figures({
        models: [
          { modelId: CLAUDE, runId: 'r1', ppi: few },
          { modelId: 'x:low', runId: 'r1', ppi: ppi({ estimate: 0.5, low: 0.4, high: 0.6 }) },
          { modelId: GPT, runId: 'r1', ppi: ppi({}) },
        ],
      }),
      NAMES,
    );
    if (v.kind !== 'figures') throw new Error('expected figures');
    expect(v.models.map((m) => m.label)).toEqual(['GPT-4o', 'low', 'claude-3-5-haiku']);
    const [gpt, , claude] = v.models;
    expect(gpt).toMatchObject({
      href: '/runs/r1/models/openrouter%3Aopenai/gpt-4o',
      judgeOnly: { score: '76.6', interval: '74.1–79.0' },
      predictionPowered: { score: '73.5', interval: '69.0–77.9' },
      rectifier: '−3.1',
      reason: null,
      basis: '24 of 300 judged points labelled',
    });
    expect(gpt!.predictionPowered!.figures).toEqual({
      score: { 'data-figure': `score|run=r1|model=${GPT}|metric=prediction-powered`, 'data-value': '73.5' },
      interval: { 'data-figure': `interval|run=r1|model=${GPT}|metric=prediction-powered`, 'data-value': '69.0–77.9' },
    });
    expect(gpt!.judgeOnly.figures.score['data-figure']).toBe(`score|run=r1|model=${GPT}|metric=judge-only`);
    expect(claude).toMatchObject({ predictionPowered: null, rectifier: null, reason: few.reason, basis: '3 of 30 judged points labelled' });
    expect(few.reason).toContain('at least 10 are needed');
    expect(v.notes.predictionPowered).toContain('the interval includes the judge’s error (Angelopoulos et al., 2023)');
  });
});

describe('calibrationCurve', () => {
  it('draws the bins with items only, judge across and people up, the bigger bins bigger', () => {
    const c = calibrationCurve(CAL)!;
    expect(c.points.map((p) => [p.x, p.y])).toEqual([
      [15, 0],
      [55, 50],
      [92, 83.3],
    ]);
    const [small, , big] = c.points;
    expect(big!.r).toBeGreaterThan(small!.r);
    expect(c.rows).toEqual([
      { bin: '0.1–0.2', items: '2 items', judge: '0.15', people: '0.00' },
      { bin: '0.5–0.6', items: '2 items', judge: '0.55', people: '0.50' },
      { bin: '0.9–1.0', items: '6 items', judge: '0.92', people: '0.83' },
    ]);
    expect(c.ariaLabel).toBe('Calibration of the panel over 10 items, expected calibration error 0.09: judge 0.15, people 0.00, 2 items; judge 0.55, people 0.50, 2 items; judge 0.92, people 0.83, 6 items.');
  });

  it('is absent when no item was binned', () => {
    expect(calibrationCurve(calibration([]))).toBeNull();
  });
});

describe('judgedCheckLine', () => {
  it('says how many human labels the judges were checked against, with the panel’s α, linking to the section', () => {
    const line = judgedCheckLine(figures())!;
    expect(line.text).toBe('judges checked against 140 human labels: α 0.81 [0.74–0.87]');
    expect(line.href).toBe('/blueprints/bp%2Fwith%20space#human-calibration');
    expect(line.alpha.attrs?.['data-figure']).toBe(`alpha|blueprint=${BP}|metric=human-vs-panel`);
    expect(judgedCheckLine(figures({ blueprintId: null }))!.href).toBe('/methodology#human-calibration');
  });

  it('is null without labels or without a panel row', () => {
    expect(judgedCheckLine(null)).toBeNull();
    expect(judgedCheckLine(figures({ labels: 0 }))).toBeNull();
    expect(judgedCheckLine(figures({ rows: [row({ rater: JUDGE, kind: 'judge' })] }))).toBeNull();
  });
});

describe('formatSigned', () => {
  it('always writes the sign, a true minus, and ± for a zero after rounding', () => {
    expect([0.06, -0.03, 0.004, -0.004, -0.005, 0.125].map(formatSigned)).toEqual(['+0.06', '−0.03', '±0.00', '±0.00', '−0.01', '+0.13']);
  });
});

describe('pairwiseBoardView', () => {
  // a clearly first, then b and c close together
  const prefs: Preference[] = [
    ...Array.from({ length: 12 }, () => ({ a: 'x:a', b: 'x:b', outcome: 'a' as const })),
    ...Array.from({ length: 12 }, () => ({ a: 'x:c', b: 'x:a', outcome: 'b' as const })),
    ...Array.from({ length: 6 }, (_v, i) => ({ a: 'x:b', b: 'x:c', outcome: (i % 3 === 0 ? 'tie' : i % 3 === 1 ? 'a' : 'b') as Preference['outcome'] })),
  ];
  const ranking = pairwiseRanking(prefs, xoroshiro128plus(3), { resamples: 200 });
  const board = (over: Partial<PairwiseFigures> = {}): PairwiseFigures =>
    PairwiseFiguresSchema.parse({ kind: 'pairwise', ranking, labels: prefs.length, reviewers: 3, blueprints: ['bp-1', 'bp-2'], correlation: { spearman: 0.83, kendall: 2 / 3, models: 5 }, seed: 1, ...over });

  it('without preferences says so and points to the review pages', () => {
    expect(pairwiseBoardView(null)).toMatchObject({ kind: 'empty', title: 'People’s preferences', reviewHref: '/review' });
  });

  it('lists the models by rank with band, signed log-strength and interval, and the figures of its own board', () => {
    const v = pairwiseBoardView(board(), new Map([['x:a', 'Model A']]));
    if (v.kind !== 'board') throw new Error('expected a board');
    expect(v.rows.map((r) => [r.rank, r.label])).toEqual([
      [1, 'Model A'],
      [2, ranking.models[1]!.model.slice(2)],
      [3, ranking.models[2]!.model.slice(2)],
    ]);
    const first = v.rows[0]!;
    const m = ranking.models[0]!;
    expect(first.strength).toBe(formatSigned(m.strength));
    expect(first.strength.startsWith('+')).toBe(true);
    expect(first.interval).toBe(`[${formatSigned(m.low)}–${formatSigned(m.high)}]`);
    expect(first.comparisons).toBe('24 comparisons');
    expect(first.rankFigure).toEqual({ 'data-figure': 'rank|board=pairs|model=x:a', 'data-value': '1' });
    expect(first.bandFigure['data-figure']).toBe('band|board=pairs|model=x:a');
    expect(first.bandFigure['data-value']).toBe(first.bandLabel);
    // b and c, one tie and even wins between them, cannot be told apart: they share a band
    expect(v.rows.slice(1).map((r) => [r.bandLabel, r.tied])).toEqual([
      ['rank 2–3', true],
      ['rank 2–3', true],
    ]);
    expect(v.counts).toBe('30 preferences from 3 reviewers, on pairs from 2 blueprints:');
    expect(v.blueprints).toEqual([
      { id: 'bp-1', href: '/blueprints/bp-1' },
      { id: 'bp-2', href: '/blueprints/bp-2' },
    ]);
    expect(v.explanation).toContain('from 200 bootstrap resamples of the 30 comparisons');
  });

  it('states the rank correlation with the rubric leaderboard, or why there is none', () => {
    const say = (correlation: PairwiseFigures['correlation']) => {
      const v = pairwiseBoardView(board({ correlation }));
      return v.kind === 'board' ? v.correlation : '';
    };
    expect(say({ spearman: 0.83, kendall: 2 / 3, models: 5 })).toBe('Against the rubric leaderboard: Spearman ρ 0.83, Kendall τ 0.67 on 5 models both rank.');
    expect(say({ spearman: -0.5, kendall: -0.333, models: 4 })).toContain('Spearman ρ −0.50, Kendall τ −0.33 on 4 models');
    expect(say(null)).toBe('Fewer than 3 models are ranked both here and on the rubric leaderboard: the two orders are compared from 3 models.');
    expect(say({ spearman: null, kendall: null, models: 1 })).toBe('Only 1 model is ranked both here and on the rubric leaderboard: the two orders are compared from 3 models.');
    expect(say({ spearman: null, kendall: null, models: 4 })).toContain('cannot be compared on the 4 models');
  });
});

describe('adminReviewView', () => {
  const now = new Date('2025-03-10T12:00:00Z');
  const overview: ReviewOverviewInput = {
    blueprints: [
      { blueprintId: 'zeta', title: 'Zeta', items: 40, itemsComplete: 13, labels: 95, flags: 2, pairs: 20, pairsComplete: 5, pairLabels: 31, judgedVerdicts: 1200 },
      { blueprintId: 'alpha', title: 'Alpha', items: 0, itemsComplete: 0, labels: 0, flags: 0, pairs: 0, pairsComplete: 0, pairLabels: 0, judgedVerdicts: 0 },
    ],
    reviewers: [
      { login: 'never', scopes: ['zeta'], labels: 0, pairLabels: 0, today: 0, last7Days: 0, lastAt: null, agreement: null, removed: 0 },
      { login: 'old', scopes: ['zeta', '*'], labels: 1500, pairLabels: 3, today: 0, last7Days: 4, lastAt: new Date('2025-03-07T12:00:00Z'), agreement: 0.8249, removed: 7 },
      { login: 'recent', scopes: [], labels: 10, pairLabels: 0, today: 10, last7Days: 10, lastAt: new Date('2025-03-10T11:55:00Z'), agreement: 1, removed: 0 },
    ],
  };

  it('lists blueprints by title, with coverage as the complete share of the items drawn', () => {
    const v = adminReviewView(overview, now);
    expect(v.blueprints.map((b) => [b.title, b.items, b.itemsOf, b.complete, b.coverage, b.pairsComplete])).toEqual([
      ['Alpha', '0', 'of 0 judged verdicts', '0', '—', '0 complete'],
      ['Zeta', '40', 'of 1,200 judged verdicts', '13', '33%', '5 complete'],
    ]);
    expect(v.blueprintIds).toEqual(['alpha', 'zeta']);
  });

  it('lists reviewers most recently active first, never-active last, with scopes, relative times and agreement', () => {
    const v = adminReviewView(overview, now);
    expect(v.reviewers.map((r) => [r.login, r.scopes, r.labels, r.lastActive, r.lastActiveAt, r.agreement, r.removed])).toEqual([
      ['recent', 'no grant', '10', '5 min ago', '2025-03-10 11:55 UTC', '100%', '0'],
      ['old', 'all blueprints, zeta', '1,500', '3 d ago', '2025-03-07 12:00 UTC', '82%', '7'],
      ['never', 'zeta', '0', 'never', null, '—', '0'],
    ]);
  });

  it('posts its forms to the admin review routes, the draw starting from the queue’s defaults', () => {
    const v = adminReviewView(overview, now);
    expect(v.actions).toEqual({ grants: '/api/admin/review/grants', draws: '/api/admin/review/draws', removeLabels: '/api/admin/review/remove-labels' });
    expect(v.drawDefaults).toEqual({ expectedLabels: 200, overlapItems: 100, count: 20 });
  });
});
