import { xoroshiro128plus } from 'pure-rand';
import { describe, expect, it } from 'vitest';
import { aggregateRows, competitionRanks, hierarchicalBootstrap, leaderboard, requiredBlueprints, type BoardPromptRow, type BoardRow, type ModelAggregate } from './leaderboard';

const row = (blueprintId: string, modelId: string, score: number | null, ci: [number, number] | null, tags: string[] = [], errorCount = 0): BoardRow => ({
  blueprintId,
  tags,
  modelId,
  judgedVerdicts: 4,
  judgedScored: 4,
  deterministicVerdicts: 2,
  deterministicScored: 2,
  score,
  ciLow: ci?.[0] ?? null,
  ciHigh: ci?.[1] ?? null,
  errorCount,
});

describe('aggregating a model over blueprints', () => {
  it('uses the blueprint’s own interval when there is one blueprint', () => {
    expect(aggregateRows('m', [row('a', 'm', 0.7, [0.6, 0.75])])).toMatchObject({ score: 0.7, ciLow: 0.6, ciHigh: 0.75, blueprints: 1 });
  });

  it('averages blueprints and combines their standard errors (√Σse² / n)', () => {
    // each interval is ±0.1 → se = 0.1/1.96; the mean of two has se = √2·se / 2
    const agg = aggregateRows('m', [row('a', 'm', 0.6, [0.5, 0.7]), row('b', 'm', 0.8, [0.7, 0.9])]);
    expect(agg.score).toBeCloseTo(0.7, 10);
    const half = (1.959964 * (Math.SQRT2 * (0.1 / 1.959964))) / 2;
    expect(agg.ciLow).toBeCloseTo(0.7 - half, 10);
    expect(agg.ciHigh).toBeCloseTo(0.7 + half, 10);
  });

  it('leaves unscored blueprints out of the mean but counts them and their errors', () => {
    const agg = aggregateRows('m', [row('a', 'm', 0.5, null, [], 2), row('b', 'm', null, null, [], 5)]);
    expect(agg).toMatchObject({ score: 0.5, blueprints: 2, scoredBlueprints: 1, errors: 7, ciLow: null });
    expect(aggregateRows('m', [row('a', 'm', null, null)])).toMatchObject({ score: null, ciLow: null, ciHigh: null });
  });

  it('sums the verdict coverage of the blueprints that scored only', () => {
    const agg = aggregateRows('m', [row('a', 'm', 0.5, null), { ...row('b', 'm', null, null), judgedVerdicts: 10, judgedScored: 0 }]);
    expect(agg.coverage).toEqual({ judgedVerdicts: 4, judgedScored: 4, deterministicVerdicts: 2, deterministicScored: 2 });
  });

  it('clamps the combined interval to [0, 1]', () => {
    const agg = aggregateRows('m', [row('a', 'm', 0.98, [0.8, 1]), row('b', 'm', 1, [0.8, 1])]);
    expect(agg.ciHigh).toBe(1);
  });
});

describe('ranking', () => {
  it('orders by score, then lower bound, then id; unscored apart', () => {
    const board = leaderboard([
      row('a', 'zeta', 0.7, [0.6, 0.8]),
      row('a', 'alpha', 0.7, [0.65, 0.75]),
      row('a', 'none', null, null),
      row('a', 'best', 0.9, [0.85, 0.95]),
      row('a', 'beta', 0.7, [0.65, 0.75]),
    ]);
    expect(board.ranked.map((e) => [e.modelId, e.rank])).toEqual([
      ['best', 1],
      ['alpha', 2],
      ['beta', 2],
      ['zeta', 2],
    ]);
    // no score on any blueprint: apart, unranked
    expect(board.unranked.map((e) => [e.modelId, e.score])).toEqual([['none', null]]);
  });

  it('gives equal-looking scores the same rank (competition ranking)', () => {
    expect(competitionRanks([0.9, 0.73449, 0.7345, 0.7, null])).toEqual([1, 2, 3, 4, null]);
    expect(competitionRanks([0.9, 0.7341, 0.7344, 0.7])).toEqual([1, 2, 2, 4]);
  });

  it('ranks only the blueprints of a tag', () => {
    const rows = [row('a', 'm1', 0.9, null, ['facts']), row('b', 'm1', 0.5, null, ['coding']), row('a', 'm2', 0.6, null, ['facts']), row('c', 'm2', 0.8, null, ['facts'])];
    const facts = leaderboard(rows, { tag: 'facts' });
    expect(facts).toMatchObject({ tag: 'facts', blueprintCount: 2, requiredBlueprints: 1 });
    expect(facts.ranked.map((e) => [e.modelId, e.score, e.scoredBlueprints])).toEqual([
      ['m1', 0.9, 1],
      ['m2', 0.7, 2],
    ]);
    // a tie on score and interval falls back to the id, so the order is stable
    expect(leaderboard(rows).ranked.map((e) => [e.modelId, e.rank])).toEqual([
      ['m1', 1],
      ['m2', 1],
    ]);
  });
});

describe('blueprint coverage', () => {
  const rows = ['a', 'b', 'c', 'd'].map((b) => row(b, 'wide', 0.6, null)).concat([row('a', 'half', 0.7, null), row('b', 'half', 0.7, null), row('a', 'narrow', 0.99, null)]);

  it('ranks only models scored on the minimum share of the board’s blueprints, keeping the others apart', () => {
    const board = leaderboard(rows, { minCoverage: 0.5 });
    expect(board.requiredBlueprints).toBe(2);
    expect(board.ranked.map((e) => [e.modelId, e.rank])).toEqual([
      ['half', 1],
      ['wide', 2],
    ]);
    expect(board.unranked.map((e) => e.modelId)).toEqual(['narrow']);
    expect(leaderboard(rows, { minCoverage: 1 }).ranked.map((e) => e.modelId)).toEqual(['wide']);
    expect(leaderboard(rows, { minCoverage: 0 }).ranked.map((e) => e.modelId)).toEqual(['narrow', 'half', 'wide']);
  });

  it('needs at least one blueprint and rounds the share up', () => {
    expect(requiredBlueprints(0, 0.5)).toBe(1);
    expect(requiredBlueprints(5, 0.5)).toBe(3);
    expect(requiredBlueprints(10, 0.3)).toBe(3);
  });
});

describe('hierarchical bootstrap over blueprints then prompts', () => {
  // 3 blueprints × 30 prompts; within each blueprint, scores 0.1 either side of its mean
  const prompts = (modelId: string, means: number[]): BoardPromptRow[] =>
    means.flatMap((m, b) => Array.from({ length: 30 }, (_v, i) => ({ blueprintId: `b${b}`, promptKey: `q${i}`, modelId, weight: 1, score: m + (i % 2 ? 0.1 : -0.1) })));
  const rowsFor = (modelId: string, means: number[]) => means.map((m, b) => row(`b${b}`, modelId, m, [m - 0.04, m + 0.04]));

  it('is reproducible from the seed, and the seed matters', () => {
    const p = prompts('m', [0.3, 0.5, 0.7]);
    const once = aggregateRows('m', rowsFor('m', [0.3, 0.5, 0.7]), { prompts: samples(p), seed: 7 });
    const again = aggregateRows('m', rowsFor('m', [0.3, 0.5, 0.7]), { prompts: samples(p), seed: 7 });
    const other = aggregateRows('m', rowsFor('m', [0.3, 0.5, 0.7]), { prompts: samples(p), seed: 8 });
    expect(once).toEqual(again);
    expect(once.intervalMethod).toBe('hierarchical-bootstrap');
    // its n: the prompts resampled (3 blueprints × 30), its clusters: the 3 blueprints
    expect([once.intervalPrompts, once.scoredBlueprints]).toEqual([90, 3]);
    expect(other.ciLow).not.toBe(once.ciLow);
  });

  it('widens when blueprints disagree, though each blueprint alone is just as precise', () => {
    const agree = aggregateRows('m', rowsFor('m', [0.5, 0.5, 0.5]), { prompts: samples(prompts('m', [0.5, 0.5, 0.5])) });
    const disagree = aggregateRows('m', rowsFor('m', [0.2, 0.5, 0.8]), { prompts: samples(prompts('m', [0.2, 0.5, 0.8])) });
    expect(agree.score).toBeCloseTo(0.5, 12);
    expect(disagree.score).toBeCloseTo(0.5, 12);
    const width = (a: ModelAggregate) => a.ciHigh! - a.ciLow!;
    // agree: only prompt noise, sd 0.1/√90 → about ±0.02; disagree: the blueprint means vary by ±0.3
    expect(width(agree)).toBeLessThan(0.06);
    expect(width(disagree)).toBeGreaterThan(0.3);
    // the old combination of per-blueprint intervals cannot see the disagreement
    const combined = aggregateRows('m', rowsFor('m', [0.2, 0.5, 0.8]));
    expect(combined.intervalMethod).toBe('combined-normal');
    expect(width(combined)).toBeLessThan(0.06);
  });

  it('with one blueprint is that blueprint’s own stored interval, even with its prompt scores', () => {
    const agg = aggregateRows('m', [row('b0', 'm', 0.5, [0.31, 0.62])], { prompts: samples(prompts('m', [0.5])) });
    expect({ low: agg.ciLow, high: agg.ciHigh, method: agg.intervalMethod }).toEqual({ low: 0.31, high: 0.62, method: 'blueprint' });
  });

  it('refuses a blueprint with nothing to resample', () => {
    expect(() => hierarchicalBootstrap([[{ weight: 1, score: 1 }], []], xoroshiro128plus(1))).toThrow(/at least one scored prompt/);
  });

  it('leaderboard(): ranks get tied bands from the paired tests; the board is the same for the same rows', () => {
    const rows = [...rowsFor('top', [0.8, 0.8, 0.8]), ...rowsFor('close', [0.79, 0.79, 0.79]), ...rowsFor('low', [0.4, 0.4, 0.4])];
    const ps = [...prompts('top', [0.8, 0.8, 0.8]), ...prompts('low', [0.4, 0.4, 0.4])];
    // 'close' is 'top' a little worse on some prompts and a little better on others: indistinguishable from it
    ps.push(...prompts('top', [0.8, 0.8, 0.8]).map((p, i) => ({ ...p, modelId: 'close', score: (p.score as number) - (i % 7 === 0 ? 0.07 : i % 7 === 3 ? -0.06 : 0) })));
    const board = leaderboard(rows, { prompts: ps });
    expect(board.ranked.map((r) => [r.modelId, r.bandLabel])).toEqual([
      ['top', 'rank 1–2'],
      ['close', 'rank 1–2'],
      ['low', 'rank 3'],
    ]);
    expect(leaderboard(rows, { prompts: ps })).toEqual(board);
    // without prompt scores there is no band, and the interval is the old combination
    expect(leaderboard(rows).ranked[0]).toMatchObject({ band: null, bandLabel: null, intervalMethod: 'combined-normal' });
  });
});

describe('cost and latency beside quality', () => {
  it('averages the runs’ cost per prompt and median latency over the blueprints that scored', () => {
    const agg = aggregateRows('m', [
      { ...row('a', 'm', 0.5, null), costUsd: 0.2, promptCount: 10, latencyMsP50: 400 },
      { ...row('b', 'm', 0.7, null), costUsd: 0.6, promptCount: 20, latencyMsP50: 800 },
      { ...row('c', 'm', null, null), costUsd: 9, promptCount: 1, latencyMsP50: 9000 },
    ]);
    expect(agg.costPerPromptUsd).toBeCloseTo((0.02 + 0.03) / 2, 12);
    expect(agg.latencyMsP50).toBe(600);
    expect(aggregateRows('m', [row('a', 'm', 0.5, null)])).toMatchObject({ costPerPromptUsd: null, latencyMsP50: null });
  });
});

function samples(ps: readonly BoardPromptRow[]): Map<string, { weight: number; score: number }[]> {
  const out = new Map<string, { weight: number; score: number }[]>();
  for (const p of ps) out.set(p.blueprintId, [...(out.get(p.blueprintId) ?? []), { weight: p.weight, score: p.score as number }]);
  return out;
}
