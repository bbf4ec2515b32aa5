/**
 * YAML that js-yaml (Weval's parser) accepts and the `yaml` package reports: a comment written
 * straight after a value (`prompts: []# note`, seen in a real blueprint). Weval read the file, so
 * Assay reads it too, the same way, with a warning at the `#`.
 */
import { describe, expect, it } from 'vitest';
import { parseBlueprint, parseBlueprintExact } from './parse';

const spaced = 'title: Leniency\nmodels: [openai:gpt-4o] # the model\n---\n- prompt: "Say hi"\n  should: ["says hi"] # graded\n- prompt: Bye\n  ideal: "Goodbye." # short\n';
const unspaced = spaced.replace(' # the model', '# the model').replace(' # graded', '# graded').replace(' # short', '# short');

describe('a comment without a space before it', () => {
  it('is read as the comment js-yaml reads, with a warning at each `#`', () => {
    for (const parse of [parseBlueprint, parseBlueprintExact]) {
      const strict = parse(spaced, { file: 'x.yml' });
      const lenient = parse(unspaced, { file: 'x.yml' });
      expect(strict.ok && lenient.ok).toBe(true);
      if (!strict.ok || !lenient.ok) return;
      expect(lenient.blueprint).toEqual(strict.blueprint);
      expect(strict.warnings).toEqual([]);
      expect(lenient.warnings.map((w) => [w.severity, w.code, `${w.line}:${w.col}`])).toEqual([
        ['warning', 'syntax', '2:24'],
        ['warning', 'syntax', '5:22'],
        ['warning', 'syntax', '7:20'],
      ]);
      expect(lenient.warnings[0]!.message).toMatch(/read as a comment, as Weval \(js-yaml\) reads it/);
      expect(lenient.warnings[0]!.hint).toMatch(/Put a space before `#`/);
    }
  });

  it('keeps the case from the corpus: `prompts: []# comment`', () => {
    const r = parseBlueprint('title: Empty for now\nprompts: []# comment\n', { file: 'x.yml' });
    expect(r.ok).toBe(true);
    expect(r.warnings.map((w) => `${w.line}:${w.col} ${w.code}`)).toEqual(['2:12 syntax']);
  });

  it('is no excuse for other syntax errors, nor for a `#` inside a plain value', () => {
    const broken = parseBlueprint('title: Maternal Benefits: Uttar Pradesh# x\n', { file: 'x.yml' });
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.errors.map((e) => e.code)).toContain('syntax');
    const plain = parseBlueprint('title: C# basics\n---\n- prompt: hi\n', { file: 'x.yml' });
    expect(plain.ok && plain.blueprint.title).toBe('C# basics');
    expect(plain.warnings).toEqual([]);
  });
});
