/**
 * A YAML alias outside a sealed prompt that refers to an anchor inside one would carry the
 * sealed text into what is shown (the documents are plain values, aliases resolved): such a
 * file is refused, naming where the alias is. Aliases that stay inside sealed prompts, or
 * visible anchors used by sealed prompts, are fine.
 */
import { describe, expect, it } from 'vitest';
import { parseBlueprint } from './parse';
import { redactSealed } from './sealed';

const shownText = (r: ReturnType<typeof redactSealed>) => JSON.stringify(r.ok ? r.documents : null);

describe('aliases and sealed prompts', () => {
  const leaks: [string, string, { line: number; col: number }][] = [
    ['from the header (prompts: in the header)', 'title: T\nprompts:\n  - id: SEALED-1\n    prompt: &s SECRET question\n    split: test\n    should: [$icontains: x]\n  - id: OPEN-1\n    prompt: OPEN-visible question\n    should: [$icontains: y]\ndescription: *s\n', { line: 10, col: 14 }],
    ['from a visible prompt', 'title: T\n---\n- id: SEALED-1\n  prompt: &s SECRET question\n  split: test\n  should: [$icontains: x]\n- id: OPEN-1\n  prompt: *s\n  should: [$icontains: y]\n', { line: 8, col: 11 }],
    ['of a whole point list, through a merge key', 'title: T\n---\n- id: SEALED-1\n  prompt: SECRET question\n  split: test\n  should: &p [$icontains: SECRET-point]\n- id: OPEN-1\n  prompt: OPEN-visible question\n  should: *p\n', { line: 9, col: 11 }],
    ['of the sealed prompt itself, merged', 'title: T\n---\n- &whole\n  id: SEALED-1\n  prompt: SECRET question\n  split: test\n  should: [$icontains: x]\n- <<: *whole\n  id: OPEN-1\n  split: dev\n', { line: 8, col: 7 }],
    ['of an anchor holding the sealed prompt list', 'title: T\nprompts: &all\n  - id: SEALED-1\n    prompt: SECRET question\n    split: test\n    should: [$icontains: x]\n  - id: OPEN-1\n    prompt: OPEN-visible question\n    should: [$icontains: y]\nnotes: *all\n', { line: 10, col: 8 }],
  ];
  for (const [name, text, at] of leaks) {
    it(`refuses an alias into a sealed prompt ${name}, at the alias`, () => {
      const parsed = parseBlueprint(text, { file: 'b.yml' });
      // the parser reads it (and seals SEALED-1): the spelling is real
      expect(parsed.ok, JSON.stringify(!parsed.ok && parsed.errors)).toBe(true);
      expect(parsed.ok && parsed.blueprint.prompts.find((p) => p.id === 'SEALED-1')?.split).toBe('test');
      const r = redactSealed(text, { file: 'b.yml' });
      expect(r).toEqual({ ok: false, aliasIntoSealed: at });
    });
  }

  it('keeps showing a file whose aliases stay inside the sealed prompts or point out of them', () => {
    const text = 'title: T\nauthor: {name: &t test}\nprompts:\n- id: SEALED-1\n  prompt: &s SECRET question\n  system: *s\n  split: *t\n  should: [$icontains: x]\n- id: OPEN-1\n  prompt: &o OPEN-visible question\n  should: [$icontains: y]\n- id: SEALED-2\n  prompt: *o\n  split: test\n  should: [$icontains: z]\n';
    const r = redactSealed(text, { file: 'b.yml' });
    expect(r).toMatchObject({ ok: true, sealed: 2 });
    expect(shownText(r)).not.toContain('SECRET');
    expect(shownText(r)).toContain('OPEN-visible question');
  });
});
