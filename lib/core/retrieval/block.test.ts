import { describe, expect, it } from 'vitest';
import { parseMetric } from './block';

describe('parseMetric: the `<metric>@<k>` grammar', () => {
  it('reads every family, with or without a cutoff where allowed, to a canonical label', () => {
    expect(parseMetric('ndcg@10')).toEqual({ ok: true, metric: { name: 'ndcg', k: 10, label: 'ndcg@10' } });
    expect(parseMetric(' MRR ')).toEqual({ ok: true, metric: { name: 'mrr', k: null, label: 'mrr' } });
    expect(parseMetric('map @ 100')).toEqual({ ok: true, metric: { name: 'map', k: 100, label: 'map@100' } });
    expect(parseMetric('P@5')).toEqual({ ok: true, metric: { name: 'precision', k: 5, label: 'precision@5' } });
    expect(parseMetric('recall@1')).toEqual({ ok: true, metric: { name: 'recall', k: 1, label: 'recall@1' } });
  });

  it('refuses unknown names, a missing cutoff where one is needed, and bad cutoffs, saying how to write it', () => {
    for (const [written, error] of [
      ['bleu@4', /unknown metric `bleu`/],
      ['recall', /`recall` needs a cutoff/],
      ['precision', /`precision` needs a cutoff/],
      ['ndcg', /`ndcg` needs a cutoff/],
      ['ndcg@0', /whole number from 1/],
      ['ndcg@2.5', /whole number from 1/],
      ['ndcg@10001', /whole number from 1 to 10,000/],
      ['ndcg@', /is not a metric|whole number/],
      ['@10', /is not a metric/],
    ] as const) {
      const parsed = parseMetric(written);
      expect(parsed.ok, written).toBe(false);
      if (!parsed.ok) {
        expect(parsed.error).toMatch(error);
        expect(parsed.hint.length).toBeGreaterThan(0);
      }
    }
  });
});
