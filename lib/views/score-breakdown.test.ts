import { describe, expect, it } from 'vitest';
import type { ScoredVerdict } from '@/lib/core';
import { pathNames, scoreBreakdown } from './score-breakdown';
import type { VerdictView } from './verdict-view';

const v = (pointIndex: number, score: number | null, over: Partial<ScoredVerdict> = {}): ScoredVerdict => ({
  pointIndex,
  status: score === null ? 'error' : score >= 0.5 ? 'pass' : 'fail',
  score,
  weight: 1,
  gate: false,
  path: null,
  ...over,
});
const view = (r: ScoredVerdict) => ({ pointIndex: r.pointIndex, text: `point ${r.pointIndex}` }) as VerdictView;

describe('score breakdown: the arithmetic of an attempt score', () => {
  const rows = [v(0, 0.8), v(1, 1, { path: 'should:0' }), v(2, 0.5, { path: 'should:0' }), v(3, 0.2, { path: 'should:1' }), v(4, null)];
  const paths = [null, 'should:0', 'should:0', 'should:1', null];

  it('groups required points and OR paths, marks the best, and adds up to the stored score', () => {
    const b = scoreBreakdown(rows, rows.map(view), paths, 0.775);
    expect(b.groups.map((g) => [g.kind, g.title, g.scoreLabel, g.best, g.verdicts.map((x) => x.pointIndex)])).toEqual([
      ['required', 'Required points', '80.0', false, [0, 4]],
      ['path', 'Path 1', '75.0', true, [1, 2]],
      ['path', 'Path 2', '20.0', false, [3]],
    ]);
    expect(b.arithmetic).toEqual([
      'Required points: weighted mean of 80.0 = 80.0',
      'Path 1 (best): weighted mean of 100.0, 50.0 = 75.0',
      'Path 2: weighted mean of 20.0 = 20.0',
      '1 verdict in error left out (an error is never a 0)',
      'Score = mean of required 80.0 and best path Path 1 75.0 = 77.5',
    ]);
    expect(b.mismatch).toBeNull();
  });

  it('shows weights where they differ, and a stored score that disagrees', () => {
    const weighted = [v(0, 1, { weight: 3 }), v(1, 0)];
    const b = scoreBreakdown(weighted, weighted.map(view), [null, null], 0.5);
    expect(b.arithmetic[0]).toBe('Required points: weighted mean of 100.0 × 3, 0.0 × 1 = 75.0');
    expect(b.mismatch).toBe('The stored score (50.0) is not what these verdicts give (75.0).');
  });

  it('says a failed gate makes the score 0, with the gate apart from the mean', () => {
    const gated = [v(0, 0.1, { gate: true }), v(1, 1)];
    const b = scoreBreakdown(gated, gated.map(view), [null, null], 0);
    expect(b.gateFailed).toBe(true);
    expect(b.groups.map((g) => g.kind)).toEqual(['gates', 'required']);
    expect(b.arithmetic.at(-1)).toBe('A gate failed (point 1): the score is 0');
  });

  it('has no score when every verdict erred, and names paths in the order written', () => {
    expect(scoreBreakdown([v(0, null)], [], [null], null).arithmetic.at(-1)).toBe('No verdict could count: no score');
    expect([...pathNames(['should:1', null, 'should:0', 'should:1', ' '])]).toEqual([
      ['should:1', 'Path 1'],
      ['should:0', 'Path 2'],
    ]);
  });
});
