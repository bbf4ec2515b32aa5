import { describe, expect, it } from 'vitest';
import { aggregateRows, competitionRanks, leaderboard, requiredBlueprints, type BoardRow } from './leaderboard';

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
