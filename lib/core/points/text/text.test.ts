import { describe, expect, it } from 'vitest';
import { matchText } from './matcher';
import { foldCase, nfc } from './normalize';
import { compilePattern, testPattern } from '../../untrusted';

describe('foldCase', () => {
  it.each([
    ['İstanbul', 'istanbul'],
    ['ISTANBUL', 'istanbul'],
    ['ıstanbul', 'istanbul'],
    ['Straße', 'strasse'],
    ['STRAẞE', 'strasse'],
    ['ﬁle', 'file'],
    ['ΟΔΟΣ', 'οδοσ'],
    ['οδος', 'οδοσ'],
    ['Ǆ', 'ǆ'],
    ['CAFE\u0301', 'café'],
  ])('%s → %s', (input, folded) => {
    expect(foldCase(input)).toBe(nfc(folded));
  });
});

describe('matchText', () => {
  const ci = (mode: 'substring' | 'prefix' | 'suffix' | 'word') => ({ mode, caseInsensitive: true });
  const cs = (mode: 'substring' | 'prefix' | 'suffix' | 'word') => ({ mode, caseInsensitive: false });

  it('compares NFC text', () => {
    expect(matchText('cafe\u0301', 'café', cs('substring'))).toBe(true);
    expect(matchText('café', 'cafe\u0301', cs('suffix'))).toBe(true);
  });

  it('folds case fully for the i forms only', () => {
    expect(matchText('DIE STRASSE', 'straße', ci('substring'))).toBe(true);
    expect(matchText('DIE STRASSE', 'straße', cs('substring'))).toBe(false);
    expect(matchText('İzmir', 'izmir', ci('prefix'))).toBe(true);
  });

  it('word boundaries: accents and marks belong to words; hyphens, apostrophes, punctuation do not', () => {
    expect(matchText('Parana\u0301 River', 'Parana', cs('word'))).toBe(false);
    expect(matchText('नमस्ते दुनिया', 'नमस', cs('word'))).toBe(false); // virama and vowel signs are marks
    expect(matchText('नमस्ते दुनिया', 'नमस्ते', cs('word'))).toBe(true);
    expect(matchText('well-known', 'well', cs('word'))).toBe(true);
    expect(matchText("It's", 'It', cs('word'))).toBe(true);
    expect(matchText('variable_name', 'variable', cs('word'))).toBe(false);
    expect(matchText('x𝒳y 𝒳', '𝒳', cs('word'))).toBe(true);
    expect(matchText('x𝒳y', '𝒳', cs('word'))).toBe(false);
    expect(matchText('2024年', '2024', cs('word'))).toBe(false);
    expect(matchText('abc', '', cs('word'))).toBe(true);
  });

  it('finds a later whole-word occurrence after an embedded one', () => {
    expect(matchText('Paranáense and Paraná', 'Paraná', cs('word'))).toBe(true);
  });
});

describe('compilePattern', () => {
  it('accepts a leading (?i) as the i flag', () => {
    const compiled = compilePattern('(?i)^hello', false);
    expect(compiled.ok && compiled.caseInsensitive).toBe(true);
  });

  it('uses Unicode mode when the pattern allows it, legacy mode otherwise', () => {
    const unicode = compilePattern('^\\p{Lu}', false);
    expect(unicode.ok && testPattern(unicode, 'Ángel')).toMatchObject({ matched: true, engine: 're2' });
    const legacy = compilePattern('a\\-b\\:c', false);
    expect(legacy.ok && testPattern(legacy, 'a-b:c')).toMatchObject({ matched: true, engine: 're2' });
  });

  it('reports an invalid pattern with the engine message', () => {
    expect(compilePattern('[', false)).toEqual({ ok: false, message: expect.stringMatching(/invalid regex "\[".*Unterminated character class/) });
  });

  it('case-insensitive patterns also try the folded response', () => {
    const compiled = compilePattern('straße|istanbul', true);
    expect(compiled.ok && testPattern(compiled, 'İSTANBUL')).toMatchObject({ matched: true, engine: 're2' });
  });
});
