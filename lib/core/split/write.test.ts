import { describe, expect, it } from 'vitest';
import { parseBlueprint } from '../blueprint/parse';
import { planSplit } from './plan';

/** Every case to the test side (test_share 1), so each layout gets a `split:` written. */
function sealAll(file: string, text: string): string {
  const plan = planSplit([{ file, text, defaultSuite: 'bp' }], { test_share: 1, min_per_side: 0 });
  expect(plan.issues.filter((i) => i.severity === 'error')).toEqual([]);
  return plan.files[0]!.after;
}

describe('writing split: back keeps the file as it was written', () => {
  it('a header and a list: comments, block scalars and quoting stay byte for byte', () => {
    const text = [
      '# header comment',
      'title: X   # trailing',
      '---',
      '# prompts',
      '- id: a    # the a',
      '  lineage: a',
      '  prompt: >-',
      '    folded',
      '    text',
      '  should: [ "x", \'y\' ]',
      '',
      '- prompt: "no id"',
      '  lineage: b',
      '',
    ].join('\n');
    expect(sealAll('bp.yml', text)).toBe(
      [
        '# header comment',
        'title: X   # trailing',
        '---',
        '# prompts',
        '- id: a    # the a',
        '  split: test',
        '  lineage: a',
        '  prompt: >-',
        '    folded',
        '    text',
        '  should: [ "x", \'y\' ]',
        '',
        '- split: test',
        '  prompt: "no id"',
        '  lineage: b',
        '',
      ].join('\n'),
    );
    const parsed = parseBlueprint(sealAll('bp.yml', text), { file: 'bp.yml' });
    expect(parsed.ok && parsed.blueprint.prompts.map((p) => p.split)).toEqual(['test', 'test']);
  });

  it('flow mappings, a `prompts:` key, an empty `split:` and a stream of prompt documents', () => {
    expect(sealAll('a.yml', 'title: T\nprompts:\n  - { id: c, prompt: "flow" }\n  - id: d\n    split:\n    prompt: p\n')).toBe(
      'title: T\nprompts:\n  - { id: c, split: test, prompt: "flow" }\n  - id: d\n    split: test\n    prompt: p\n',
    );
    expect(sealAll('s.yml', 'prompt: one\nid: p1\n---\nid: p2\nprompt: two\n')).toBe('split: test\nprompt: one\nid: p1\n---\nid: p2\nsplit: test\nprompt: two\n');
  });

  it('JSON stays JSON', () => {
    const after = sealAll('b.json', '{\n  "title": "T",\n  "prompts": [\n    { "id": "j1", "prompt": "hi", "split": null }, { "id": "j2", "prompt": "ho" }\n  ]\n}\n');
    expect(after).toBe('{\n  "title": "T",\n  "prompts": [\n    { "id": "j1", "prompt": "hi", "split": "test" }, { "id": "j2", "split": "test", "prompt": "ho" }\n  ]\n}\n');
    expect(JSON.parse(after).prompts.map((p: { split: string }) => p.split)).toEqual(['test', 'test']);
  });

  it('a first document with only `expect:` is a prompt, in the split as in the loader', () => {
    const text = 'id: first\nexpect:\n  - mentions Paris\n---\n- id: second\n  prompt: x\n';
    const plan = planSplit([{ file: 'e.yml', text, defaultSuite: 'e' }], { test_share: 1, min_per_side: 0 });
    expect(plan.cases.map((c) => c.id)).toEqual(['first', 'second']);
  });
});
