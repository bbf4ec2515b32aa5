import { describe, expect, it } from 'vitest';
import { parseBlueprint } from '../blueprint/parse';
import { readSplitFile } from './cases';

/** `assay split` reads a file's cases with the parser's layout rule: the same prompts, in the same order. */
const sameAsParser = (file: string, text: string) => {
  const parsed = parseBlueprint(text, { file });
  expect(parsed.ok).toBe(true);
  const split = readSplitFile(file, text, 'bp');
  expect(split.issues).toEqual([]);
  expect(split.cases.map((c) => c.id)).toEqual(parsed.ok ? parsed.blueprint.prompts.map((p) => p.id) : []);
  return split;
};

describe('the cases assay split reads are the prompts the parser reads', () => {
  it('a header whose soev `messages:` is a mapping is a header, not a prompt', () => {
    const text = 'title: T\nmessages:\n  out_of_scope: "No."\n---\n- id: a\n  prompt: Hi\n  should: [x]\n- id: b\n  prompt: Bye\n  should: [y]\n';
    expect(sameAsParser('t.yml', text).cases.map((c) => c.suite)).toEqual(['bp', 'bp']);
  });

  it('each layout: header and list, `prompts:` key, a bare list, one prompt alone', () => {
    sameAsParser('a.yml', 'id: s1\ntitle: A\n---\n- id: p1\n  prompt: One\n  should: [x]\n');
    sameAsParser('b.yml', 'title: B\nprompts:\n  - id: p1\n    prompt: One\n    should: [x]\n  - id: p2\n    prompt: Two\n    should: [y]\n');
    sameAsParser('c.yml', '- id: p1\n  prompt: One\n  should: [x]\n');
    sameAsParser('d.yml', 'id: p1\nprompt: One\nshould: [x]\n');
  });
});
