/**
 * Issue 11, finding 5 (the blueprint half): a blueprint with `\0` passed validation and then
 * failed when stored (PostgreSQL's `text` refuses U+0000; `jsonb` refuses `\u0000` and unpaired
 * surrogates). The loader now rejects such text where it is written, and a rejected file's raw
 * text is stored through `storableText` (store-blueprint-version.security.db.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { parseBlueprint } from './parse';
import { storableText } from './text';

const errorsOf = (text: string, file = 'nul.yml') => {
  const result = parseBlueprint(text, { file });
  if (result.ok) throw new Error('expected the blueprint to be rejected');
  return result.errors.map((e) => `${e.line}:${e.col} ${e.code}: ${e.message}`);
};

describe('text PostgreSQL cannot store', () => {
  it('rejects a raw NUL at its line and column, before parsing', () => {
    expect(errorsOf('title: t\nprompts:\n  - prompt: "a\0b"\n')).toEqual(['3:15 unstorable_text: the file contains a NUL character (U+0000), which cannot be stored']);
  });

  it.each([
    ['a YAML "\\0" escape', 'prompts:\n  - prompt: hi\n    should: ["x\\0y"]\n', 'nul.yml', '3:14'],
    ['a YAML "\\x00" escape in a key', 'prompts:\n  - prompt: hi\n    "k\\x00": 1\n', 'nul.yml', '3:5'],
    ['a JSON "\\u0000" escape', '{"prompts": [{"prompt": "hi\\u0000"}]}', 'nul.json', '1:25'],
    ['an unpaired surrogate escape', 'prompts:\n  - prompt: "\\ud800 alone"\n', 'nul.yml', '2:13'],
  ])('rejects %s where the value is written', (_what, text, file, at) => {
    const errors = errorsOf(text, file);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`^${at} unstorable_text: this value contains (a NUL character|an unpaired surrogate)`));
  });

  it('reports a value once, however often an alias repeats it', () => {
    expect(errorsOf('x: &x "a\\0"\nprompts:\n  - prompt: *x\n  - prompt: *x\n')).toEqual(['1:7 unstorable_text: this value contains a NUL character (U+0000), which cannot be stored']);
  });

  it('keeps whole surrogate pairs (emoji) and other control characters', () => {
    const result = parseBlueprint('prompts:\n  - prompt: "😀 \\u0007 \\t"\n', { file: 'ok.yml' });
    expect(result.ok && result.blueprint.prompts[0]!.messages[0]!.content).toBe('😀 \u0007 \t');
  });

  it('storableText replaces exactly the unstorable characters', () => {
    expect(storableText('a\0b\uD800c😀')).toBe('a\uFFFDb\uFFFDc😀');
    expect(storableText('plain')).toBe('plain');
  });
});
