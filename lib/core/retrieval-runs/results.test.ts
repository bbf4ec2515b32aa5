import { describe, expect, it } from 'vitest';
import { overallLadder, parseMetric, scoreRankings, type MetricSpec } from '../retrieval';
import { metricResults, retrievalFinalStatus, retrievalModelStatus } from './results';

const metric = (label: string): MetricSpec => {
  const m = parseMetric(label);
  if (!m.ok) throw new Error(m.error);
  return m.metric;
};

// q1: the relevant doc first; q2: second; q3: not retrieved; reciprocal ranks 1, 1/2, 0
const qrels = [
  { queryId: 'q1', docId: 'a', relevance: 1 },
  { queryId: 'q2', docId: 'b', relevance: 1 },
  { queryId: 'q3', docId: 'c', relevance: 1 },
];
const rankings = {
  q1: [{ docId: 'a', score: 0.9 }, { docId: 'x', score: 0.1 }],
  q2: [{ docId: 'x', score: 0.9 }, { docId: 'b', score: 0.5 }],
  q3: [{ docId: 'x', score: 0.9 }, { docId: 'y', score: 0.5 }],
};
const block = { metrics: [metric('mrr'), metric('recall@1')], thresholds: { min: { mrr: 0.4 }, warnMargin: 0.2 }, primaryMetric: 'mrr' };

describe('metricResults', () => {
  const scores = scoreRankings(qrels, rankings, block.metrics);
  const [mrr, recall] = metricResults(scores, block, 'run|model');

  it('gives each metric’s mean over the queries, its ladder against the minimum, and which is primary', () => {
    expect(mrr).toMatchObject({ metric: 'mrr', value: 0.5, status: 'warn', threshold: 0.4, primary: true, queryCount: 3 });
    expect(recall).toMatchObject({ metric: 'recall@1', status: null, threshold: null, primary: false });
    expect(recall!.value).toBeCloseTo(1 / 3, 12);
  });

  it('resamples the queries (BCa): an interval around the mean within the range of the query values, the same for the same seed', () => {
    expect(mrr!.interval).toMatchObject({ method: 'bca-bootstrap', clusters: 3, n: 3, resamples: 1000, level: 0.95 });
    expect(mrr!.interval!.low).toBeGreaterThanOrEqual(0);
    expect(mrr!.interval!.low).toBeLessThan(0.5);
    expect(mrr!.interval!.high).toBeGreaterThan(0.5);
    expect(mrr!.interval!.high).toBeLessThanOrEqual(1);
    expect(metricResults(scores, block, 'run|model')[0]).toEqual(mrr);
  });

  it('gives no interval over a single query, and no value (not zero) when no query counts', () => {
    const one = metricResults(scoreRankings(qrels.slice(0, 1), { q1: rankings.q1 }, block.metrics), block, 's');
    expect(one[0]).toMatchObject({ value: 1, interval: null, queryCount: 1, status: 'pass' });
    const none = metricResults(scoreRankings(qrels, {}, block.metrics), block, 's');
    expect(none[0]).toMatchObject({ value: null, interval: null, status: null, queryCount: 0 });
  });
});

describe('retrievalModelStatus', () => {
  it('is the worst of the metrics’ statuses, not the primary metric’s: one failing metric fails the model', () => {
    const two = { ...block, metrics: [metric('mrr'), metric('recall@1')], thresholds: { min: { mrr: 0.4, 'recall@1': 0.5 }, warnMargin: 0.05 } };
    const results = metricResults(scoreRankings(qrels, rankings, two.metrics), two, 'run|model');
    // mrr 0.5 passes (≥ 0.45); recall@1 1/3 fails (< 0.5)
    expect(results.map((r) => [r.metric, r.status, r.primary])).toEqual([
      ['mrr', 'pass', true],
      ['recall@1', 'fail', false],
    ]);
    expect(retrievalModelStatus(results)).toBe('fail');
    // the same rule as the ladder over the metrics' values
    expect(retrievalModelStatus(results)).toBe(overallLadder({ mrr: 0.5, 'recall@1': 1 / 3 }, two.thresholds).status);
    expect(retrievalModelStatus([{ status: 'pass' }, { status: null }, { status: 'warn' }])).toBe('warn');
    expect(retrievalModelStatus([{ status: null }])).toBeNull();
  });
});

describe('retrievalFinalStatus', () => {
  const base = { unitsLeft: 0, budgetStop: null, models: 2, scoredModels: 2, failures: [] };
  it('completes when every unit is done and a model was scored', () => {
    expect(retrievalFinalStatus(base)).toEqual({ status: 'completed', error: null });
    expect(retrievalFinalStatus({ ...base, scoredModels: 1, failures: [{ modelId: 'b', message: 'auth' }] }).status).toBe('completed');
  });
  it('is a budget stop or a failure with work left, and a failure when no model could be scored', () => {
    expect(retrievalFinalStatus({ ...base, unitsLeft: 3, budgetStop: 'spent' })).toEqual({ status: 'budget_exceeded', error: 'spent' });
    expect(retrievalFinalStatus({ ...base, unitsLeft: 3 }).status).toBe('failed');
    expect(retrievalFinalStatus({ ...base, scoredModels: 0, failures: [{ modelId: 'a', message: '401 bad key' }] })).toEqual({ status: 'failed', error: 'no model could be scored: a: 401 bad key' });
  });
});
