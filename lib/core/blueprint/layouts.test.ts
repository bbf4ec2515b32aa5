import { describe, expect, it } from 'vitest';
import { errorsOf, load, loadWithWarnings, where, yaml } from './blueprint.testkit';

describe('document layouts', () => {
  it('reads a header document followed by a list of prompts', () => {
    const bp = load(yaml`
      title: Capitals
      models: [CORE, openrouter:openai/gpt-4o]
      ---
      - id: fr
        prompt: What is the capital of France?
        should: [Paris]
    `);
    expect(bp.title).toBe('Capitals');
    expect(bp.models).toEqual([{ kind: 'collection', name: 'CORE' }, { kind: 'id', id: 'openrouter:openai/gpt-4o' }]);
    expect(bp.prompts.map((p) => p.id)).toEqual(['fr']);
    expect(bp.prompts[0]!.messages).toEqual([{ role: 'user', content: 'What is the capital of France?' }]);
  });

  it('reads a stream of prompt documents, some of them lists', () => {
    const bp = load(yaml`
      prompt: First
      ---
      - id: b
        prompt: Second
      - id: c
        prompt: Third
    `);
    expect(bp.prompts.map((p) => p.messages[0]!.content)).toEqual(['First', 'Second', 'Third']);
    expect(bp.prompts[0]!.idSource).toBe('hash');
  });

  it('reads a single list of prompts and a single document with `prompts:`', () => {
    expect(load('- prompt: a\n- prompt: b\n').prompts).toHaveLength(2);
    const bp = load('title: T\nprompts:\n  - id: p1\n    prompt: x\n');
    expect(bp.title).toBe('T');
    expect(bp.prompts.map((p) => p.id)).toEqual(['p1']);
  });

  it('reads a lone prompt mapping, and a header without prompts', () => {
    expect(load('prompt: alone\nideal: yes\n').prompts[0]!.ideal).toBe('yes');
    const header = load('title: Only a header\ndescription: d\n');
    expect(header.prompts).toEqual([]);
    expect(header.description).toBe('d');
  });

  it('reads JSON, with the legacy field names', () => {
    const bp = load(
      JSON.stringify({
        id: 'legacy',
        title: 'Legacy',
        systemPrompt: 'Be brief.',
        prompts: [{ id: 'p1', promptText: 'What is JSON?', idealResponse: 'A format.', points: [{ text: 'Says data format', multiplier: 2 }] }],
      }),
      { file: 'legacy.json' },
    );
    expect(bp.system).toBe('Be brief.');
    expect(bp.prompts[0]!.ideal).toBe('A format.');
    expect(bp.prompts[0]!.points[0]).toMatchObject({ kind: 'text', text: 'Says data format', weight: 2 });
  });

  it('falls back to the file name for the title', () => {
    expect(load('- prompt: x\n', { file: 'blueprints/sub/my-test.weval.yml' }).title).toBe('my-test');
    expect(load('id: given-id\n---\n- prompt: x\n').title).toBe('given-id');
  });

  it('reports YAML syntax errors with line and column, and a hint', () => {
    const [error] = errorsOf('title: Maternal Benefits: Uttar Pradesh\n---\n- prompt: x\n');
    expect(where([error!])).toEqual(['1:8 syntax']);
    expect(error!.hint).toMatch(/Quote the whole value/);
  });

  it('reports JSON syntax errors at their position', () => {
    const errors = errorsOf('{\n  "id": "x",\n  "prompts": [}\n', { file: 'bad.json' });
    expect(where(errors)).toEqual(['3:15 syntax']);
  });

  it('rejects an empty file and a scalar document', () => {
    expect(where(errorsOf('# nothing here\n'))).toEqual(['1:1 empty']);
    expect(where(errorsOf('just a string\n'))).toEqual(['1:1 schema']);
  });

  it('rejects prompts given both under `prompts:` and as later documents', () => {
    expect(where(errorsOf('title: T\nprompts:\n  - prompt: a\n---\n- prompt: b\n'))).toEqual(['3:3 schema']);
  });

  it('resolves anchors and merge keys', () => {
    const bp = load(yaml`
      - id: a
        prompt: &q Shared question
        should: &rubric
          - Mentions X
      - id: b
        prompt: *q
        should: *rubric
    `);
    expect(bp.prompts[1]!.messages[0]!.content).toBe('Shared question');
    expect(bp.prompts[1]!.points.map((p) => p.text)).toEqual(['Mentions X']);
  });

  it('warns about unknown header and prompt fields, with a suggestion', () => {
    const { blueprint, warnings } = loadWithWarnings('titel: T\nmodels: [CORE]\n---\n- prompt: x\n  shuold: [a]\n');
    expect(warnings.map((w) => [w.line, w.col, w.code])).toEqual([
      [1, 1, 'unknown_field'],
      [5, 3, 'unknown_field'],
    ]);
    expect(warnings[0]!.message).toMatch(/did you mean `title`/);
    expect(warnings[1]!.message).toMatch(/did you mean `should`/);
    // Weval passes unknown header fields through; so does Assay.
    expect(blueprint.extensions).toEqual({ titel: 'T' });
  });
});
