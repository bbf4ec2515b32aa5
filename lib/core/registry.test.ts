import { describe, expect, it } from 'vitest';
import { criterionKindNames, resolveCriterionKind } from './criteria/registry';
import { resolvePointFunction } from './points/registry';
import { createRegistry, didYouMean, ownEntry } from './registry';

const entries = [
  { name: 'contains', weight: 1 },
  { name: 'icontains', weight: 2 },
  { name: 'matches', weight: 3 },
];

describe('createRegistry', () => {
  it('looks entries up by name, lists them in registration order and names them sorted', () => {
    const registry = createRegistry('point function', entries);
    expect(registry.get('icontains')).toBe(entries[1]);
    expect(registry.has('matches')).toBe(true);
    expect(registry.list()).toEqual(entries);
    expect(registry.names).toEqual(['contains', 'icontains', 'matches']);
    expect(createRegistry('thing', [{ name: 'b' }, { name: 'a' }]).names).toEqual(['a', 'b']);
  });

  it('refuses a name registered twice, naming the kind', () => {
    expect(() => createRegistry('criterion kind', [...entries, { name: 'matches', weight: 4 }])).toThrow('criterion kind "matches" is registered twice');
  });

  it('finds nothing under a name an object inherits', () => {
    const registry = createRegistry('thing', entries);
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(registry.get(name), name).toBeUndefined();
      expect(registry.has(name), name).toBe(false);
    }
  });

  it('suggests the closest names, from its own or from the candidates given', () => {
    const registry = createRegistry('thing', entries);
    expect(registry.suggest('contain')).toEqual(['contains', 'icontains']);
    expect(registry.suggest('zzzzzzzz')).toEqual([]);
    expect(registry.suggest('not_contain', ['not_contains', 'contains'])).toEqual(['not_contains']);
  });

  it('writes "did you mean" only when it has suggestions, as the reader writes them', () => {
    expect(didYouMean([])).toBe('');
    expect(didYouMean(['a', 'b'])).toBe('; did you mean a, b?');
    expect(didYouMean(['contains'], (name) => `$${name}`)).toBe('; did you mean $contains?');
  });
});

describe('ownEntry', () => {
  it('reads a table’s own entries only', () => {
    const table: Record<string, string> = { contain: 'contains' };
    expect(ownEntry(table, 'contain')).toBe('contains');
    expect(ownEntry(table, 'constructor')).toBeUndefined();
    expect(ownEntry(table, '__proto__')).toBeUndefined();
  });
});

describe('the registries built on it', () => {
  it('point functions and criterion kinds report a typo the same way', () => {
    expect(resolvePointFunction('$contians')).toMatchObject({ ok: false, message: expect.stringContaining('unknown point function "$contians"; did you mean $contains') });
    expect(resolveCriterionKind('reply.langauge')).toEqual({ ok: false, message: 'unknown criterion kind "reply.langauge"; did you mean reply.language?', suggestions: ['reply.language'] });
    expect(criterionKindNames).toContain('reply.language');
    for (const name of ['constructor', '__proto__', 'not_toString']) {
      expect(resolveCriterionKind(name), name).toMatchObject({ ok: false });
      const fn = resolvePointFunction(`$${name}`);
      expect(fn, name).toMatchObject({ ok: false });
      if (!fn.ok) for (const suggestion of fn.suggestions) expect(typeof suggestion, name).toBe('string');
    }
  });
});
