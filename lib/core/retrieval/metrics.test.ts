/**
 * Every metric against figures worked out by hand (the arithmetic is in each comment), with
 * ties, graded relevance and the queries trec_eval leaves out of the mean.
 */
import { describe, expect, it } from 'vitest';
import { parseMetric, type MetricSpec } from './block';
import type { Qrel } from './files';
import { compareCodePoints, metricValue, rankDocuments, rankingDepth, scoreRankings, type RankedDoc } from './metrics';

const m = (label: string): MetricSpec => {
  const parsed = parseMetric(label);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.metric;
};
const judged = (entries: Record<string, number>) => new Map(Object.entries(entries));
const ranked = (...ids: string[]): RankedDoc[] => ids.map((docId, i) => ({ docId, score: ids.length - i }));
const log2 = Math.log2;

describe('ranking as trec_eval ranks (form_res_rels.c)', () => {
  it('orders by score descending and breaks ties by docno descending, ignoring input order', () => {
    const docs = [
      { docId: 'a', score: 0.5 },
      { docId: 'c', score: 0.9 },
      { docId: 'b', score: 0.5 },
      { docId: 'd10', score: 0.5 },
      { docId: 'd9', score: 0.5 },
    ];
    expect(rankDocuments(docs).map((d) => d.docId)).toEqual(['c', 'd9', 'd10', 'b', 'a']);
    expect(rankDocuments([...docs].reverse()).map((d) => d.docId)).toEqual(['c', 'd9', 'd10', 'b', 'a']);
  });

  it("compares docnos as strcmp does (code points), not by JavaScript's UTF-16 units", () => {
    // U+FF5E (one UTF-16 unit, 0xFF5E) sorts below U+1F600 (surrogates 0xD83D…) in UTF-8 bytes.
    expect(compareCodePoints('\uFF5E', '😀')).toBeLessThan(0);
    expect('\uFF5E' < '😀').toBe(false);
    expect(compareCodePoints('ab', 'a')).toBeGreaterThan(0);
    expect(compareCodePoints('a', 'a')).toBe(0);
    // Against the bytes strcmp compares, over strings mixing ASCII, BMP and astral characters.
    const alphabet = ['a', 'z', 'é', '\uE000', '\uFFFD', '😀', '𝄞', '中'];
    let seed = 7;
    const pick = () => alphabet[(seed = (seed * 1103515245 + 12345) % 2147483648) % alphabet.length]!;
    for (let i = 0; i < 500; i++) {
      const a = Array.from({ length: 1 + (i % 4) }, pick).join('');
      const b = Array.from({ length: 1 + ((i >> 2) % 4) }, pick).join('');
      expect(Math.sign(compareCodePoints(a, b)), `${a} vs ${b}`).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
    }
  });
});

describe('one query (graded: d1=2, d2=1, d4=1, d9=3 never retrieved, d3=0)', () => {
  const q = judged({ d1: 2, d2: 1, d3: 0, d4: 1, d9: 3 });
  // ranks: 1 d3 (0), 2 d2 (1), 3 d1 (2), 4 d5 (unjudged), 5 d4 (1), 6 d7 (unjudged); 4 relevant
  const r = ranked('d3', 'd2', 'd1', 'd5', 'd4', 'd7');

  it('precision@k divides by k even when fewer are retrieved (trec_eval P_k)', () => {
    expect(metricValue(m('precision@3'), r, q)).toBeCloseTo(2 / 3, 12);
    expect(metricValue(m('precision@10'), r, q)).toBeCloseTo(3 / 10, 12);
    expect(metricValue(m('precision@1'), r, q)).toBe(0);
  });

  it('recall@k over every relevant document of the qrels, retrieved or not', () => {
    expect(metricValue(m('recall@3'), r, q)).toBeCloseTo(2 / 4, 12);
    expect(metricValue(m('recall@10'), r, q)).toBeCloseTo(3 / 4, 12);
  });

  it('mrr is 1/rank of the first relevant document; mrr@k is 0 when it is below k', () => {
    expect(metricValue(m('mrr'), r, q)).toBe(0.5);
    expect(metricValue(m('mrr@2'), r, q)).toBe(0.5);
    expect(metricValue(m('mrr@1'), r, q)).toBe(0);
  });

  it('map averages precision at each relevant rank over all relevant documents; map@k keeps ranks ≤ k', () => {
    expect(metricValue(m('map'), r, q)).toBeCloseTo((1 / 2 + 2 / 3 + 3 / 5) / 4, 12);
    expect(metricValue(m('map@3'), r, q)).toBeCloseTo((1 / 2 + 2 / 3) / 4, 12);
  });

  it('ndcg@k: gain = relevance, log2(rank + 1) discount, ideal from the qrels (3, 2, 1, 1)', () => {
    expect(metricValue(m('ndcg@3'), r, q)).toBeCloseTo((1 / log2(3) + 2 / log2(4)) / (3 + 2 / log2(3) + 1 / log2(4)), 12);
    expect(metricValue(m('ndcg@10'), r, q)).toBeCloseTo((1 / log2(3) + 2 / log2(4) + 1 / log2(6)) / (3 + 2 / log2(3) + 1 / log2(4) + 1 / log2(5)), 12);
    // A perfect ranking is 1; the same set in the worst order is less.
    expect(metricValue(m('ndcg@4'), ranked('d9', 'd1', 'd2', 'd4'), q)).toBeCloseTo(1, 12);
    expect(metricValue(m('ndcg@4'), ranked('d4', 'd2', 'd1', 'd9'), q)).toBeLessThan(1);
  });

  it('relevance 1 and 3 count alike for the binary metrics; negative relevance is not relevant', () => {
    const neg = judged({ a: -1, b: 1 });
    expect(metricValue(m('mrr'), ranked('a', 'b'), neg)).toBe(0.5);
    expect(metricValue(m('ndcg@2'), ranked('a', 'b'), neg)).toBeCloseTo(1 / log2(3), 12);
  });

  it('a query with no relevant document scores 0 on every metric (not NaN)', () => {
    const none = judged({ a: 0, b: 0 });
    for (const label of ['precision@5', 'recall@5', 'mrr', 'map', 'map@2', 'ndcg@5']) expect(metricValue(m(label), ranked('a', 'b'), none)).toBe(0);
  });
});

describe('scoreRankings: which queries the mean is over (trec_eval without -c)', () => {
  const qrels: Qrel[] = [
    { queryId: 'q1', docId: 'd1', relevance: 1 },
    { queryId: 'q2', docId: 'd1', relevance: 0 },
    { queryId: 'q3', docId: 'd2', relevance: 2 },
  ];

  it('averages over queries both judged and ranked (a judged query with no relevant document counts as 0), and says which were left out', () => {
    const scores = scoreRankings(qrels, { q1: [{ docId: 'd1', score: 1 }], q2: [{ docId: 'd1', score: 1 }], q9: [{ docId: 'd1', score: 1 }] }, [m('mrr'), m('recall@1')]);
    expect(scores.queries).toEqual({ q1: { mrr: 1, 'recall@1': 1 }, q2: { mrr: 0, 'recall@1': 0 } });
    expect(scores.overall).toEqual({ mrr: 0.5, 'recall@1': 0.5 });
    expect(scores.skipped).toEqual({ unjudged: ['q9'], unranked: ['q3'] });
  });

  it('ranks each query itself: ties in the input broken by docno descending before scoring', () => {
    const tie = scoreRankings([{ queryId: 'q', docId: 'a', relevance: 1 }], { q: [{ docId: 'a', score: 1 }, { docId: 'b', score: 1 }] }, [m('mrr')]);
    expect(tie.overall.mrr).toBe(0.5); // b before a
  });

  it('has no mean at all when no query counts (never a 0 that looks like a score)', () => {
    expect(scoreRankings(qrels, { q9: [] }, [m('map')]).overall).toEqual({});
  });

  it('an empty ranking of a judged query is scored 0', () => {
    expect(scoreRankings(qrels, { q1: [] }, [m('map'), m('precision@3')]).overall).toEqual({ map: 0, 'precision@3': 0 });
  });
});

describe('rankingDepth', () => {
  it('is the largest cutoff, or null (the whole ranking) when a metric has none', () => {
    expect(rankingDepth([m('ndcg@10'), m('recall@100'), m('mrr@5')])).toBe(100);
    expect(rankingDepth([m('ndcg@10'), m('map')])).toBeNull();
    expect(rankingDepth([m('mrr')])).toBeNull();
  });

  it('a ranking cut at that depth scores exactly as the full one', () => {
    const q: Qrel[] = [{ queryId: 'q', docId: 'd7', relevance: 2 }, { queryId: 'q', docId: 'd2', relevance: 1 }];
    const full = { q: Array.from({ length: 50 }, (_, i) => ({ docId: `d${i}`, score: (i * 7) % 13 })) };
    const metrics = [m('ndcg@10'), m('recall@5'), m('mrr@3'), m('map@10')];
    const cut = { q: rankDocuments(full.q).slice(0, rankingDepth(metrics)!) };
    expect(scoreRankings(q, cut, metrics).overall).toEqual(scoreRankings(q, full, metrics).overall);
  });
});
