/**
 * Every way of writing `split: test` that the parser accepts (a page must hide a sealed prompt
 * whatever its YAML spelling: docs/runs.md, "Sealed prompts"), each a
 * whole blueprint with one visible prompt ("OPEN-…") and sealed prompts whose id, text and
 * points all carry "SECRET". Shared by the security tests of the source view and of every
 * query that shows prompt text.
 */
export interface SealedSpelling {
  name: string;
  file: string;
  text: string;
  /** Sealed prompts the parser should find. */
  sealed: number;
}

const header = 'title: Sealed spellings\nmodels: [openai:m1]\n';
// a function point, so a run of the file scores (with no judges a judged point is an error, and a
// run whose verdicts are all errors is failed and never reaches the leaderboard the tests search)
const open = '  - id: OPEN-1\n    prompt: "OPEN-visible question"\n    should: ["$icontains: OPEN"]\n';

const inList = (name: string, sealedYaml: string, sealed = 1): SealedSpelling => ({
  name,
  file: `sealed-${name.replace(/\W+/g, '-')}.yml`,
  text: `${header}prompts:\n${open}${sealedYaml}`,
  sealed,
});

export const SEALED_SPELLINGS: SealedSpelling[] = [
  inList('plain', '  - id: SECRET-1\n    split: test\n    prompt: "SECRET question"\n    should: ["SECRET point"]\n'),
  inList('single-quoted', "  - id: SECRET-1\n    split: 'test'\n    prompt: SECRET question\n"),
  inList('double-quoted', '  - id: SECRET-1\n    split: "test"\n    prompt: SECRET question\n'),
  inList('anchor and alias', '  - id: SECRET-1\n    split: &t test\n    prompt: SECRET one\n  - id: SECRET-2\n    split: *t\n    prompt: SECRET two\n', 2),
  inList('merge key', '  - &sealed\n    id: SECRET-1\n    split: test\n    prompt: SECRET one\n  - <<: *sealed\n    id: SECRET-2\n    prompt: SECRET two\n', 2),
  inList('merge list', '  - id: SECRET-1\n    split: test\n    prompt: SECRET one\n    should: &pts ["SECRET point"]\n  - <<: [{split: test}]\n    id: SECRET-2\n    prompt: SECRET two\n    should: *pts\n', 2),
  inList('flow mapping', '  - {id: SECRET-1, split: test, prompt: "SECRET question"}\n'),
  inList('literal block scalar', '  - id: SECRET-1\n    split: |-\n      test\n    prompt: SECRET question\n'),
  inList('folded block scalar', '  - id: SECRET-1\n    split: >-\n      test\n    prompt: SECRET question\n'),
  inList('explicit key', '  - id: SECRET-1\n    ? split\n    : test\n    prompt: SECRET question\n'),
  inList('str tag', '  - id: SECRET-1\n    split: !!str test\n    prompt: SECRET question\n'),
  inList('quoted key', '  - id: SECRET-1\n    "split": test\n    prompt: SECRET question\n'),
  inList('escaped letters', '  - id: SECRET-1\n    "sp\\x6cit": "t\\x65st"\n    prompt: SECRET question\n'),
  inList('comment and spaces', '  - id: SECRET-1\n    split:     test    # sealed\n    prompt: SECRET question\n'),
  inList('aliased whole prompt', '  - &whole\n    id: SECRET-1\n    split: test\n    prompt: SECRET question\n  - *whole\n', 2),
  {
    name: 'flow sequence of prompts',
    file: 'sealed-flow-seq.yml',
    text: `${header}prompts: [{id: OPEN-1, prompt: "OPEN-visible question"}, {id: SECRET-1, split: test, prompt: SECRET question}]\n`,
    sealed: 1,
  },
  {
    name: 'JSON layout',
    file: 'sealed-json.json',
    text: JSON.stringify({ title: 'Sealed spellings', models: ['openai:m1'], prompts: [{ id: 'OPEN-1', prompt: 'OPEN-visible question', should: ['$icontains: OPEN'] }, { id: 'SECRET-1', split: 'test', prompt: 'SECRET question', should: ['SECRET point'] }] }, null, 2),
    sealed: 1,
  },
  {
    name: 'JSON with an escaped value',
    file: 'sealed-json-escaped.json',
    text: '{"title":"Sealed spellings","prompts":[{"id":"OPEN-1","prompt":"OPEN-visible question"},{"id":"SECRET-1","split":"\\u0074est","prompt":"SECRET question"}]}',
    sealed: 1,
  },
  {
    name: 'multi-document stream',
    file: 'sealed-stream.yml',
    text: `${header}---\n- id: OPEN-1\n  prompt: "OPEN-visible question"\n---\nid: SECRET-1\nsplit: test\nprompt: SECRET question\n---\n- id: SECRET-2\n  split: test\n  prompt: SECRET two\n`,
    sealed: 2,
  },
  {
    name: 'prompt list document without header',
    file: 'sealed-list.yml',
    text: '- id: OPEN-1\n  prompt: "OPEN-visible question"\n- id: SECRET-1\n  split: test\n  prompt: SECRET question\n',
    sealed: 1,
  },
];
