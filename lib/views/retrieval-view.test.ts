import { describe, expect, it } from 'vitest';
import type { RetrievalBoardRow } from '@/lib/server/db/queries/retrieval-leaderboard';
import type { RetrievalQueryDetail } from '@/lib/server/db/queries/retrieval-query';
import type { RetrievalRunResults } from '@/lib/server/db/queries/retrieval-results';
import { formatMetric, retrievalBoardView, retrievalQueryView, retrievalResultsView } from './retrieval-view';

const row = (over: Partial<RetrievalBoardRow>): RetrievalBoardRow => ({
  blueprintId: 'b1',
  blueprintTitle: 'Kitchen',
  tags: ['cooking'],
  modelId: 'openai:a',
  runId: 'r1',
  metric: 'ndcg@10',
  value: 0.5,
  interval: { low: 0.4, high: 0.6, level: 0.95, method: 'bca-bootstrap', n: 20, clusters: 20, resamples: 1000 },
  modelStatus: 'pass',
  finishedAt: null,
  ...over,
});

describe('formatMetric', () => {
  it('prints trec_eval’s three decimals, rounding half up; no value is a dash, not zero', () => {
    expect(formatMetric(0.81249)).toBe('0.812');
    expect(formatMetric(0.8125)).toBe('0.813');
    expect(formatMetric(null)).toBe('—');
  });
});

describe('retrievalBoardView', () => {
  const rows = [
    row({ modelId: 'openai:a', value: 0.4 }),
    row({ modelId: 'openai:b', value: 0.9, modelStatus: 'fail' }),
    row({ blueprintId: 'b2', blueprintTitle: 'Atlas', tags: ['geo'], modelId: 'openai:a', value: 0.8, metric: 'recall@10', runId: 'r2' }),
  ];
  it('ranks models by the mean primary metric over their blueprints, each cell with its interval, ladder and run', () => {
    const v = retrievalBoardView(rows, null);
    expect(v.columns.map((c) => `${c.title} ${c.metric}`)).toEqual(['Atlas recall@10', 'Kitchen ndcg@10']);
    expect(v.entries.map((e) => [e.rank, e.modelId, e.mean, e.blueprints])).toEqual([
      [1, 'openai:b', '0.900', '1 blueprint'],
      [2, 'openai:a', '0.600', '2 blueprints'],
    ]);
    expect(v.entries[0]!.cells).toEqual([
      { blueprintId: 'b2', value: '—', interval: null, ladder: null, figure: null, runHref: '' },
      {
        blueprintId: 'b1',
        value: '0.900',
        interval: '0.400–0.600',
        ladder: { label: 'Fail', tone: 'failed' },
        // the model's stored status on the run: the run page's figure of the same identity
        figure: { 'data-figure': 'status|run=r1|model=openai:b', 'data-value': 'Fail' },
        runHref: '/runs/r1',
      },
    ]);
  });
  it('keeps the blueprints of a tag, and ties share a rank', () => {
    const v = retrievalBoardView([...rows, row({ modelId: 'openai:c', value: 0.9 })], 'cooking');
    expect(v.title).toBe('Embedding models: retrieval, tagged “cooking”');
    expect(v.entries.map((e) => [e.rank, e.modelId, e.mean])).toEqual([
      [1, 'openai:b', '0.900'],
      [1, 'openai:c', '0.900'],
      [3, 'openai:a', '0.400'],
    ]);
  });
});

describe('a model’s retrieval status on the run page and the home board', () => {
  // stored: the primary metric passes, recall@10 warns, so the model's status on the run is Warn
  const results: RetrievalRunResults = {
    runId: 'r1',
    blueprintId: 'b1',
    status: 'completed',
    primaryMetric: 'ndcg@10',
    metricLabels: ['ndcg@10', 'recall@10'],
    thresholds: { min: { 'ndcg@10': 0.4, 'recall@10': 0.5 }, warnMargin: 0.1 },
    models: [
      {
        modelId: 'openai:a',
        metrics: [
          { metric: 'ndcg@10', value: 0.6, interval: null, status: 'pass', threshold: 0.4, primary: true, queryCount: 1 },
          { metric: 'recall@10', value: 0.55, interval: null, status: 'warn', threshold: 0.5, primary: false, queryCount: 1 },
        ],
        ladder: 'warn',
        costUsd: 0,
        calls: 0,
        cached: 0,
        texts: 0,
        error: null,
      },
    ],
    sealed: false,
    queries: [],
    queryCount: 1,
  };

  it('shows the stored status with one identity on both pages, and each metric’s own status under another', () => {
    const run = retrievalResultsView(results).rows[0]!;
    const board = retrievalBoardView([row({ modelId: 'openai:a', runId: 'r1', value: 0.6, modelStatus: 'warn' })], null).entries[0]!.cells[0]!;
    expect(run.ladder?.label).toBe('Warn');
    expect(run.figure).toEqual({ 'data-figure': 'status|run=r1|model=openai:a', 'data-value': 'Warn' });
    expect(board.figure).toEqual(run.figure);
    expect(run.metrics.map((m) => m.figure)).toEqual([
      { 'data-figure': 'status|run=r1|model=openai:a|metric=ndcg@10', 'data-value': 'Pass' },
      { 'data-figure': 'status|run=r1|model=openai:a|metric=recall@10', 'data-value': 'Warn' },
    ]);
  });

  it('reads the stored status and decides nothing itself', () => {
    // a stored Fail stays Fail though the metrics listed would only warn
    const stored = retrievalResultsView({ ...results, models: [{ ...results.models[0]!, ladder: 'fail' }] }).rows[0]!;
    expect(stored.figure?.['data-value']).toBe('Fail');
    expect(retrievalResultsView({ ...results, models: [{ ...results.models[0]!, ladder: null }] }).rows[0]!.figure).toBeNull();
  });
});

describe('retrievalQueryView', () => {
  const detail: RetrievalQueryDetail = {
    runId: 'r1',
    queryId: 'q2',
    queryText: 'boil an egg',
    metricLabels: ['ndcg@10', 'mrr'],
    shown: 10,
    queryIds: ['q1', 'q2', 'q3'],
    models: [
      { modelId: 'openai:a', ranking: [{ rank: 1, docId: 'd1', score: 0.51234, text: 'eggs', relevance: 2 }, { rank: 2, docId: 'd9', score: 0.1, text: 'x', relevance: null }], missed: [{ docId: 'd3', text: 'soft eggs', relevance: 1, rank: 14 }], metrics: { 'ndcg@10': 0.7, mrr: 1 } },
      { modelId: 'openai:b', ranking: [], missed: [], metrics: {} },
    ],
  };
  it('labels relevance (unjudged apart from not relevant), the missed documents’ ranks, each metric, and the neighbouring queries', () => {
    const v = retrievalQueryView(detail, null);
    expect(v.models[0]!.ranking.map((d) => [d.docId, d.score, d.relevance, d.relevant])).toEqual([
      ['d1', '0.5123', 'relevant (2)', true],
      ['d9', '0.1000', 'unjudged', false],
    ]);
    expect(v.models[0]!.missed).toEqual([{ docId: 'd3', text: 'soft eggs', relevance: 'relevant (1)', where: 'rank 14' }]);
    expect(v.models[1]!.metrics).toEqual([{ metric: 'ndcg@10', value: '—' }, { metric: 'mrr', value: '—' }]);
    expect([v.previousHref, v.nextHref]).toEqual(['/runs/r1/queries/q1', '/runs/r1/queries/q3']);
  });
  it('shows one model when asked, and keeps it while moving between queries', () => {
    const v = retrievalQueryView(detail, 'openai:b');
    expect(v.models.map((m) => m.modelId)).toEqual(['openai:b']);
    expect(v.nextHref).toBe('/runs/r1/queries/q3?model=openai%3Ab');
  });
});
