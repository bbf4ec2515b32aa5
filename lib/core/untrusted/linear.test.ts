import { describe, expect, it } from 'vitest';
import { compileLinear } from './linear';

describe('compileLinear: patterns read from files, RE2 only', () => {
  it('matches a whole text and returns its groups', () => {
    const r = compileLinear('(R\\d+)-\\d+');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.regex.groupCount).toBe(1);
    expect(r.regex.matchWhole('R2-01')).toEqual(['R2-01', 'R2']);
    expect(r.regex.matchWhole('xR2-01')).toBeNull();
    expect(r.regex.test('see R2-01 here')).toBe(true);
  });

  it('runs a pattern that backtracks for seconds on V8 in linear time', () => {
    const r = compileLinear('((?:a+)+)b');
    expect(r.ok && r.regex.matchWhole('a'.repeat(5000))).toBeNull();
  });

  it('refuses what only a backtracking engine can run, and invalid syntax, saying why', () => {
    const look = compileLinear('(a)(?=b)');
    expect(look.ok === false && look.message).toMatch(/backtracking regex engine .*lookaround/);
    const bad = compileLinear('(a');
    expect(bad.ok === false && bad.message).toMatch(/Unterminated group/);
  });

  it('ignores case when asked', () => {
    const r = compileLinear('abc', { ignoreCase: true });
    expect(r.ok && r.regex.test('xABCx')).toBe(true);
  });
});
