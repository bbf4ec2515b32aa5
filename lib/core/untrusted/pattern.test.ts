import { describe, expect, it } from 'vitest';
import { alternatives, escapeRegExp, fragment, literal, pattern, withFlags } from './pattern';

describe('developer regexes around runtime strings', () => {
  it('inserts runtime strings literally, regex syntax included', () => {
    const re = pattern('u')`^<${literal('a.b*(c)[d]{2}|$^\\/')}>$`;
    expect(re.test('<a.b*(c)[d]{2}|$^\\/>')).toBe(true);
    expect(re.test('<aXbbb(c)d{2}>')).toBe(false);
    expect(re.flags).toBe('u');
  });

  it('builds an alternation of literals in the order given; an empty list matches nothing', () => {
    expect('a+b or c?d'.replace(pattern('g')`${alternatives(['a+b', 'c?d'])}`, '#')).toBe('# or #');
    expect(pattern()`${alternatives([])}`.test('anything')).toBe(false);
  });

  it('nests developer fragments and cooks escapes as a template literal does', () => {
    const digits = fragment`\\d{2}`;
    expect(pattern()`^${digits}-${digits}$`.test('12-34')).toBe(true);
    expect(escapeRegExp('a-b')).toBe('a-b');
    expect(withFlags(/a/, 'gi').flags).toBe('gi');
  });
});
