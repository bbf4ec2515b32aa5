import { describe, expect, it } from 'vitest';
import type { MetricSpec } from '../retrieval';
import { batchRange, displayDepth, isSealedRetrieval, planEmbedUnits, retrievalRunIdentity, searchDepth } from './plan';

const ks = (...k: (number | null)[]): MetricSpec[] => k.map((x) => ({ name: x === null ? 'mrr' : 'recall', k: x, label: x === null ? 'mrr' : `recall@${x}` }));

describe('searchDepth', () => {
  it('is the largest k, at least 10 for the drill-down, never more than the corpus', () => {
    expect(searchDepth(ks(5, 20), 500)).toBe(20);
    expect(searchDepth(ks(3), 500)).toBe(10);
    expect(searchDepth(ks(50), 30)).toBe(30);
    expect([displayDepth(ks(3)), displayDepth(ks(5, 20, null))]).toEqual([10, 20]);
  });
  it('reads the full ranking (1,000 deep, as trec_eval’s run files) when a metric has no cut-off', () => {
    expect(searchDepth(ks(10, null), 5000)).toBe(1000);
    expect(searchDepth(ks(null), 14)).toBe(14);
  });
});

describe('planEmbedUnits and batchRange', () => {
  it('cuts each model’s documents and queries into batches, documents first, the last batch short', () => {
    const units = planEmbedUnits(['a', 'b'], { documents: 5, queries: 2 }, 2);
    expect(units.map((u) => `${u.modelId}:${u.kind}:${u.batchIndex}`)).toEqual(['a:document:0', 'a:document:1', 'a:document:2', 'a:query:0', 'b:document:0', 'b:document:1', 'b:document:2', 'b:query:0']);
    expect(batchRange(2, 2, 5)).toEqual({ start: 4, end: 5 });
  });
  it('plans nothing for an empty side', () => {
    expect(planEmbedUnits(['a'], { documents: 0, queries: 1 }, 8)).toEqual([{ modelId: 'a', kind: 'query', batchIndex: 0 }]);
  });
});

describe('retrievalRunIdentity', () => {
  const base = { contentHash: 'c', dataHash: 'd', models: ['m1', 'm2'], depth: 10, parserVersion: 'p' };
  it('changes with the data files, the blueprint, the models or the depth; not with the models’ order', () => {
    const id = retrievalRunIdentity(base);
    expect(retrievalRunIdentity({ ...base, models: ['m2', 'm1'] })).toBe(id);
    for (const change of [{ dataHash: 'd2' }, { contentHash: 'c2' }, { models: ['m1'] }, { depth: 20 }]) expect(retrievalRunIdentity({ ...base, ...change })).not.toBe(id);
  });
});

describe('isSealedRetrieval', () => {
  it('is `split: test` in the header, as a prompt’s', () => {
    expect(isSealedRetrieval({ extensions: { split: 'test' } })).toBe(true);
    expect(isSealedRetrieval({ extensions: { split: 'train' } })).toBe(false);
    expect(isSealedRetrieval({ extensions: {} })).toBe(false);
  });
});
