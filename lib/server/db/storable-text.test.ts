import { describe, expect, it } from 'vitest';
import { storable, storableText } from './storable-text';

describe('storableText', () => {
  it('keeps ordinary text (and well-formed surrogate pairs) as it is', () => {
    const s = 'Paris 🇫🇷 naïve';
    expect(storableText(s)).toBe(s);
  });
  it('escapes NUL visibly and replaces lone surrogates', () => {
    expect(storableText('a\u0000b')).toBe('a\u2400b');
    expect(storableText('x\uD800y\uDC00')).toBe('x\uFFFDy\uFFFD');
  });
  it('cleans keys and values at any depth, returning the same object when nothing changes', () => {
    const clean = { a: ['b', { c: 1 }] };
    expect(storable(clean)).toBe(clean);
    expect(storable({ 'k\u0000': ['v\u0000', 2, null] })).toEqual({ 'k\u2400': ['v\u2400', 2, null] });
  });
  it('copies an object from its first changed entry on, keeping the entries before it and their order', () => {
    const input = { id: 'r1', score: 0.5, nested: { ok: 'yes' }, reasoning: 'cut\u0000off', after: 'kept' };
    const out = storable(input);
    expect(out).not.toBe(input);
    expect(Object.entries(out)).toEqual([['id', 'r1'], ['score', 0.5], ['nested', { ok: 'yes' }], ['reasoning', 'cut\u2400off'], ['after', 'kept']]);
    expect(out.nested).toBe(input.nested); // unchanged parts are shared, not copied
    expect(input.reasoning).toBe('cut\u0000off'); // the input is never changed
  });
});
