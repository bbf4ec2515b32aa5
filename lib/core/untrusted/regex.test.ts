import { describe, expect, it } from 'vitest';
import { checkPattern, compilePattern } from './regex';

// The loader reports a bad pattern through checkPattern (no RE2 compilation); evaluation
// compiles with compilePattern. They must agree on every pattern, or a blueprint that loads
// would fail at evaluation (or one rejected at load would have run).
const PATTERNS: [string, boolean, string][] = [
  ['^The ruling', false, ''],
  ['(?i)hello', false, ''],
  ['(?is)a.b', false, ''],
  ['(?x)spaced', false, ''],
  ['\\-\\:', false, ''],
  ['\\p{L}+', true, ''],
  ['(?<=a)b', false, ''],
  ['(a)\\1', false, ''],
  ['[unclosed', false, ''],
  ['a{2,1}', false, ''],
  ['(?', false, ''],
  ['x', false, 'm'],
  ['x', false, 'q'],
  ['x', false, 'gu'],
  ['\\b(??{(312*49)-777})', false, ''],
];

describe('checkPattern', () => {
  it.each(PATTERNS)('agrees with compilePattern on %j (i=%s, flags=%j)', (pattern, ci, flags) => {
    const before = checkPattern(pattern, ci, flags); // not yet in compilePattern's cache
    const compiled = compilePattern(pattern, ci, flags);
    const expected = compiled.ok ? { ok: true } : { ok: false, message: compiled.message };
    expect(before).toEqual(expected);
    expect(checkPattern(pattern, ci, flags)).toEqual(expected); // from the cache
  });

  it('agrees on patterns it sees before compilePattern does', () => {
    expect(checkPattern('[never-compiled', false)).toEqual({ ok: false, message: (compilePattern('[never-compiled', false) as { message: string }).message });
    expect(checkPattern('(?i)never compiled either', false)).toEqual({ ok: true });
  });
});
