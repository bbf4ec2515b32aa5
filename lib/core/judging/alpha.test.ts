import { describe, expect, it } from 'vitest';
import { addAlphaStats, ALPHA_MIN_UNITS, alphaStatsOf, EMPTY_ALPHA_STATS, krippendorffAlpha, readAlpha, unitAlphaStats, type AlphaMatrix, type JudgeAlpha } from './alpha';
import { krippendorffAlphaInterval } from './consensus';

const _ = null;
/**
 * Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability": four observers, twelve
 * units, values 1–5, missing data. Published for these data: α_nominal = 0.743, α_ordinal =
 * 0.815, α_interval = 0.849, α_ratio = 0.797, over n = 40 pairable values in N = 11 units (unit
 * 12 has one value). Our judges' values are interval (a place on [0, 1]), so the interval figure
 * is the one to reproduce.
 */
const A = [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _];
const B = [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3];
const C = [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _];
const D = [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _];
const TEXTBOOK: AlphaMatrix = A.map((_v, u) => [A[u]!, B[u]!, C[u]!, D[u]!]);

/** The value of an α that must be one (the test fails, saying what it got, when it is "not enough"). */
function valueOf(a: JudgeAlpha): number {
  if (a.kind !== 'alpha') throw new Error(`expected an α, got ${JSON.stringify(a)}`);
  return a.value;
}

describe('krippendorffAlpha: α with what it rests on', () => {
  it('reproduces Krippendorff’s published interval α, 0.849, over his 11 pairable units and 40 values', () => {
    const a = krippendorffAlpha(TEXTBOOK);
    expect(a).toMatchObject({ kind: 'alpha', units: 11, values: 40 });
    expect(valueOf(a)).toBeCloseTo(0.849, 3);
    // pairs within units: m values give m(m − 1)/2; units 2–9 have 4 values, units 1 and 10 have 3, unit 11 has 2
    expect(a.pairs).toBe(8 * 6 + 2 * 3 + 1);
    // the statistics give exactly what the textbook formula gives on the matrix
    expect(valueOf(a)).toBeCloseTo(krippendorffAlphaInterval(TEXTBOOK)!, 12);
  });

  it('reproduces the Wikipedia example (3 coders, 15 units): interval α 0.811 (0.810845 in the krippendorff Python package’s tests)', () => {
    const rows = [
      [_, _, _, _, _, 3, 4, 1, 2, 1, 1, 3, 3, _, 3],
      [1, _, 2, 1, 3, 3, 4, 3, _, _, _, _, _, _, _],
      [_, _, 2, 1, 3, 4, 4, _, 2, 1, 1, 3, 3, _, 4],
    ];
    const a = krippendorffAlpha(rows[0]!.map((_v, u) => rows.map((r) => r[u]!)));
    expect(a).toMatchObject({ kind: 'alpha', units: 12 });
    expect(valueOf(a)).toBeCloseTo(0.810845, 6);
  });

  it('identical verdicts across enough units are full agreement, 1, whatever the values', () => {
    const same = Array.from({ length: ALPHA_MIN_UNITS }, (_v, u) => [u / 10, u / 10]);
    expect(krippendorffAlpha(same)).toEqual({ kind: 'alpha', value: 1, units: 10, values: 20, pairs: 10 });
    // every judge giving 0.92 on every verdict: no variation at all, still agreement
    expect(krippendorffAlpha(Array.from({ length: 12 }, () => [0.92, 0.92, 0.92]))).toEqual({ kind: 'alpha', value: 1, units: 12, values: 36, pairs: 36 });
  });

  it('over one unit is not enough: no number, whether the judges agreed or not', () => {
    // one unit: the formula itself gives 1 for two equal answers and 0 for any two different ones
    expect(krippendorffAlphaInterval([[0.92, 0.92]])).toBe(1);
    expect(krippendorffAlphaInterval([[0.92, 0.9]])).toBe(0);
    expect(krippendorffAlpha([[0.92, 0.92]])).toEqual({ kind: 'not-enough', minUnits: ALPHA_MIN_UNITS, units: 1, values: 2, pairs: 1 });
    expect(krippendorffAlpha([[0.92, 0.9]])).toEqual({ kind: 'not-enough', minUnits: ALPHA_MIN_UNITS, units: 1, values: 2, pairs: 1 });
  });

  it('below the minimum of pairable units is not enough; at the minimum it is a number', () => {
    const units = (k: number) => Array.from({ length: k }, (_v, u) => [u % 2, u % 3 === 0 ? 1 : u % 2]);
    expect(krippendorffAlpha(units(ALPHA_MIN_UNITS - 1))).toMatchObject({ kind: 'not-enough', units: ALPHA_MIN_UNITS - 1 });
    expect(krippendorffAlpha(units(ALPHA_MIN_UNITS)).kind).toBe('alpha');
    // a verdict with one judge's value is not a unit of agreement, however many there are
    const lone = Array.from({ length: 50 }, () => [0.5, null]);
    expect(krippendorffAlpha(lone)).toEqual({ kind: 'not-enough', minUnits: ALPHA_MIN_UNITS, units: 0, values: 0, pairs: 0 });
    expect(krippendorffAlpha([])).toMatchObject({ kind: 'not-enough', units: 0 });
  });

  it('goes below 0 when judges disagree systematically', () => {
    const crossed = Array.from({ length: 10 }, (_v, u) => (u % 2 === 0 ? [0, 1] : [1, 0]));
    expect(valueOf(krippendorffAlpha(crossed))).toBeLessThan(0);
  });
});

describe('α from sufficient statistics (what the leaderboard sums in SQL)', () => {
  const units = TEXTBOOK.map((row) => row.filter((v): v is number => v !== null));
  it('gives the textbook α from the statistics, and the pooled α of two halves summed, which is not the mean of theirs', () => {
    const all = units.map(unitAlphaStats).reduce(addAlphaStats, EMPTY_ALPHA_STATS);
    expect(all).toMatchObject({ units: 11, n: 40 });
    expect(all).toEqual(alphaStatsOf(TEXTBOOK));
    expect(valueOf(krippendorffAlpha(all))).toBeCloseTo(0.849, 3);
    const first = units.slice(0, 6).map(unitAlphaStats).reduce(addAlphaStats, EMPTY_ALPHA_STATS);
    const rest = units.slice(6).map(unitAlphaStats).reduce(addAlphaStats, EMPTY_ALPHA_STATS);
    expect(krippendorffAlpha(addAlphaStats(first, rest))).toEqual(krippendorffAlpha(all));
    // each half alone is under the minimum: neither has an α of its own to average
    expect([krippendorffAlpha(first).kind, krippendorffAlpha(rest).kind]).toEqual(['not-enough', 'not-enough']);
  });

  it('counts a unit of m values as one unit, m values and m(m − 1)/2 pairs; a lone value adds nothing', () => {
    expect(unitAlphaStats([0.5])).toEqual(EMPTY_ALPHA_STATS);
    expect(unitAlphaStats([0, 0.5, 1])).toMatchObject({ units: 1, n: 3, pairs: 3 });
  });
});

describe('readAlpha (Krippendorff 2004’s thresholds)', () => {
  it('reads 0.80 and up as reliable, from 0.667 as tentative, below as unreliable', () => {
    expect([0.8, 0.799, 0.667, 0.666, -0.2].map(readAlpha)).toEqual(['reliable', 'tentative', 'tentative', 'unreliable', 'unreliable']);
  });
});
