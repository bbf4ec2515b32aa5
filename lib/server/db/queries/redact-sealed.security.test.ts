/**
 * Issue 11, finding 3: the source view showed `split: test` prompts in full for 7 of 13
 * spellings (`split: *t`, `<<: *sealed`…). Every spelling the parser reads as sealed is hidden
 * from the source view: no id, text or point of a sealed prompt appears, the visible prompt
 * does, and a note counts the hidden ones.
 */
import { describe, expect, it } from 'vitest';
import { parseBlueprint } from '@/lib/core';
import { redactSealedSource } from './redact-sealed';
import { SEALED_SPELLINGS } from '../../blueprints/sealed-spellings.testkit';

describe('sealed prompts are hidden from the source view, however split: test is written', () => {
  it('covers at least 13 spellings', () => expect(SEALED_SPELLINGS.length).toBeGreaterThanOrEqual(13));

  for (const s of SEALED_SPELLINGS) {
    it(s.name, () => {
      const parsed = parseBlueprint(s.text, { file: s.file });
      expect(parsed.ok, JSON.stringify(!parsed.ok && parsed.errors)).toBe(true);
      // The parser (what runs) sees the sealed prompts: the spelling is real.
      expect(parsed.ok && parsed.blueprint.prompts.filter((p) => p.split === 'test').length).toBe(s.sealed);
      const shown = redactSealedSource(s.text, s.file);
      expect(shown).not.toBeNull();
      expect(shown).not.toMatch(/SECRET/);
      expect(shown).toContain('OPEN-visible question');
      expect(shown).toContain(`${s.sealed} sealed test prompt`);
      // What is shown is itself a blueprint: the visible prompts, none sealed.
      const again = parseBlueprint(shown!, { file: 'shown.yml' });
      expect(again.ok && again.blueprint.prompts.map((p) => p.id)).toEqual(['OPEN-1']);
    });
  }

  it('shows nothing of an unparsable file that could hold a sealed prompt (TEST is not a split the parser knows)', () => {
    expect(redactSealedSource('prompts:\n  - split: TEST\n    prompt: SECRET\n', 'x.yml')).toBeNull();
    expect(redactSealedSource('prompts:\n  - "sp\\x6cit": test\n    prompt: [SECRET', 'x.yml')).toBeNull();
  });
});
