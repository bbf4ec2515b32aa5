import { describe, expect, it } from 'vitest';
import { parseBlueprint } from '../blueprint/parse';
import { extractCitations } from '../criteria/citations/extract';
import { parseSoevProject, soevSystemSpec, suiteContext } from './project';

const at = (r: ReturnType<typeof parseBlueprint>) => (r.ok ? [] : r.errors.map((e) => `${e.line}:${e.col} ${e.code} ${e.message}`));

const SUITE = `name: huur
id_pattern: "(R\\\\d+)-\\\\d+"
defaults:
  - $icontains: huur
cases:
  - id: R1-01
    lineage: R1-01
    category: deposit
    rule: R1
    turns:
      - prompt: Hoe hoog mag de borg zijn?
      - prompt: En als hij meer vraagt?
    variants:
      informeel:
        - prompt: hoeveel borg mag ie vragen
    expect:
      behaviour: answer
      sources:
        required:
          borg: [bw7/261]
    answerability:
      label: full
      assessed_by: judge
    provenance:
      generator: human
      round: 0
    criteria:
      - $contains: twee keer
  - id: R2-01
    lineage: R2-01
    derived_from: R1-01
    category: maintenance
    rule: R2
    status: draft
    split: test
    turns:
      - prompt: Wie betaalt de cv-ketel?
`;

describe('a soev suite file is a blueprint', () => {
  it('maps cases onto prompts: turns → messages, defaults then criteria → points, case fields kept', () => {
    const r = parseBlueprint(SUITE, { file: 'huur.yml' });
    if (!r.ok) throw new Error(at(r).join('\n'));
    expect(r.blueprint.title).toBe('huur');
    const [first, second] = r.blueprint.prompts;
    expect(first!.id).toBe('R1-01');
    expect(first!.messages).toEqual([
      { role: 'user', content: 'Hoe hoog mag de borg zijn?' },
      { role: 'assistant', content: null },
      { role: 'user', content: 'En als hij meer vraagt?' },
    ]);
    // the suite default first, at its own line; then the case's criterion at its line
    expect(first!.points.map((p) => [p.text, p.loc?.line])).toEqual([['icontains("huur")', 4], ['contains("twee keer")', 28]]);
    expect(first!.variants).toEqual([{ name: 'informeel', messages: [{ role: 'user', content: 'hoeveel borg mag ie vragen' }] }]);
    expect(first!.expect?.sources.required).toEqual({ borg: ['bw7/261'] });
    expect(first!).toMatchObject({ rule: 'R1', category: 'deposit', lineage: 'R1-01', derived_from: null });
    expect(first!.answerability).toEqual({ label: 'full', limitations: [], source_hints: [], detail: '', assessed_by: 'judge' });
    expect(first!.provenance).toEqual({ generator: 'human', reviewer: null, round: 0, notes: null });
    expect(second).toMatchObject({ id: 'R2-01', rule: 'R2', derived_from: 'R1-01', status: 'draft', split: 'test' });
    expect(second!.points.map((p) => p.text)).toEqual(['icontains("huur")']);
  });

  it('reports a duplicate case id at the second one, naming the first', () => {
    const text = SUITE.replace('  - id: R2-01', '  - id: R1-01').replace('rule: R2\n', 'rule: R1\n');
    expect(at(parseBlueprint(text, { file: 'huur.yml' }))).toContain('29:9 duplicate_id the case id "R1-01" is already used by the case at line 6:9');
  });

  it('checks id_pattern: a full match, and its group equal to the rule', () => {
    expect(at(parseBlueprint(SUITE.replace('rule: R2', 'rule: R3'), { file: 'x.yml' }))).toEqual([
      '33:11 schema the case id "R2-01" names the rule "R2" (the group of `id_pattern`), but the case has `rule: R3`',
    ]);
    expect(at(parseBlueprint(SUITE.replace('id: R2-01', 'id: R2-01b'), { file: 'x.yml' }))).toEqual([
      '29:9 schema the case id "R2-01b" does not match the suite\'s `id_pattern` (R\\d+)-\\d+',
    ]);
    expect(at(parseBlueprint(SUITE.replace('"(R\\\\d+)-\\\\d+"', '"R\\\\d+-\\\\d+"'), { file: 'x.yml' }))).toEqual(['2:13 schema `id_pattern` must have exactly one capture group (the rule), not 0']);
  });

  it('runs id_pattern on RE2: a pattern that backtracks for seconds on V8 is an ordinary mismatch, lookaround is refused', () => {
    // On V8, ((?:a+)+)b against a 28-character id blocked the thread for 17 s while the file was parsed.
    const slow = SUITE.replace('"(R\\\\d+)-\\\\d+"', '"((?:a+)+)b"').replace('id: R2-01', `id: ${'a'.repeat(28)}`);
    expect(at(parseBlueprint(slow, { file: 'x.yml' }))).toContain(`29:9 schema the case id "${'a'.repeat(28)}" does not match the suite's \`id_pattern\` ((?:a+)+)b`);
    const look = at(parseBlueprint(SUITE.replace('"(R\\\\d+)-\\\\d+"', '"(R\\\\d+)(?=-)-\\\\d+"'), { file: 'x.yml' }));
    expect(look).toEqual([expect.stringMatching(/^2:13 invalid_regex `id_pattern` is not a valid regular expression: it needs a backtracking regex engine/)]);
  });

  it('rejects a case naming another suite, and unknown fields (suite, case, expect, turn), each at its key', () => {
    const text = SUITE.replace('  - id: R2-01\n', '  - id: R2-01\n    suite: grenzen\n    colour: red\n')
      .replace('behaviour: answer', 'behaviour: answer\n      tone: warm')
      .replace('name: huur', 'name: huur\nowner: me')
      .replace('      - prompt: Wie betaalt de cv-ketel?', '      - prompt: Wie betaalt de cv-ketel?\n        lang: nl');
    expect(at(parseBlueprint(text, { file: 'x.yml' }))).toEqual([
      '2:1 unknown_field unknown suite field `owner`',
      '19:7 unknown_field unknown `expect` field `tone`',
      '32:12 schema the case names the suite "grenzen", but it is in the suite "huur"',
      '33:5 unknown_field unknown case field `colour`',
      '42:9 unknown_field unknown field `lang` in `turn`',
    ]);
  });

  it('needs lineage, category and turns; answerability limitations only with `limited`', () => {
    const text = `name: s\ncases:\n  - id: a\n    turns: []\n    answerability: { label: full, limitations: [fact_dependent], assessed_by: expert }\n`;
    expect(at(parseBlueprint(text, { file: 'x.yml' }))).toEqual([
      '3:5 schema a case needs `lineage`',
      '3:5 schema a case needs `category`',
      '4:12 schema `turns` must be a non-empty list of turns, not a list',
      '4:12 schema `messages` must be a non-empty list of messages, not a list',
      '5:35 schema `answerability.limitations` is only for the label `limited`, not `full`',
    ]);
  });

  it('keeps a point error of a criterion at its file:line:col', () => {
    const text = SUITE.replace('      - $contains: twee keer', '      - $contans: twee keer');
    expect(at(parseBlueprint(text, { file: 'x.yml' }))).toEqual([expect.stringMatching(/^28:9 unknown_function unknown point function "contans"/)]);
  });
});

const PROJECT = `name: p
language: nl
system:
  url_env: SOEV_URL
  credential_env: SOEV_TOKEN
  subject_env: SOEV_SUBJECT
  agent: bot
judge:
  endpoint: default
runs:
  k: 3
invariants:
  - $not_contains: "As an AI"
messages:
  oos: "Daar help ik niet mee."
citations:
  field: metadata.unit_id
suites:
  huur: suites/huur.yml
`;

describe('a soev project file', () => {
  it('gives every suite its invariants (before the defaults), runs.k as repeats and the system as an HTTP model', () => {
    const p = parseSoevProject(PROJECT, { file: 'project.yml' });
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    expect(p.project).toMatchObject({ concurrency: 1, runs: { k: 3 }, corpus: { path: 'corpus/units.jsonl', law_names: {} }, split: { test_share: 0.2, seed: 0, min_per_side: 2 } });
    const soev = suiteContext(p.project, { systemSpec: soevSystemSpec(p.project, 'http://127.0.0.1:3401/'), corpusPath: '../corpus/units.jsonl' });
    const r = parseBlueprint(SUITE, { file: 'suites/huur.yml', soev });
    if (!r.ok) throw new Error(at(r).join('\n'));
    const first = r.blueprint.prompts[0]!;
    expect(first.points.map((x) => x.text)).toEqual(['not_contains("As an AI")', 'icontains("huur")', 'contains("twee keer")']);
    // the invariant keeps its position in the project file
    expect(first.points[0]!.loc).toEqual({ line: 13, col: 5 });
    expect(first.repeats).toBe(3);
    expect(r.blueprint.models).toEqual([expect.objectContaining({ kind: 'custom', id: 'soev:bot', spec: expect.objectContaining({ url: 'http://127.0.0.1:3401/api/v1/threads/runs' }) })]);
    expect(r.blueprint.extensions).toMatchObject({ soev: { project: 'p', language: 'nl' } });
    // the project's `citations: { field }` is relative to each cited element of a thread reply
    // (`reply.citations[]`): the header's mapping walks there from the stored body
    expect(r.blueprint.citation_reading).toEqual({ mapping: { path: 'reply.citations.metadata.unit_id', regex: null }, pattern: null, match: 'hierarchical' });
    const body = { thread_id: 't', reply: { text: '…', citations: [{ title: 'Art. 7:261 BW', metadata: { unit_id: 'bw7/261' } }, { metadata: { unit_id: 'bw7/240' } }] } };
    expect(extractCitations({ text: '…', structured: body }, r.blueprint.citation_reading!).map((c) => c.id)).toEqual(['bw7/261', 'bw7/240']);
  });

  it('rejects unknown and invalid fields at their positions', () => {
    const text = PROJECT.replace('agent: bot', 'agent: bot\n  colour: red').replace('k: 3', 'k: 0').replace('field: metadata.unit_id', 'field: metadata.unit_id\n  regex: "("');
    const p = parseSoevProject(text, { file: 'project.yml' });
    expect(p.ok ? [] : p.errors.map((e) => `${e.line}:${e.col} ${e.message}`)).toEqual([
      '8:3 unknown field `colour` in `project.system`',
      '12:6 `project.runs.k`: Too small: expected number to be >=1',
      expect.stringMatching(/^19:10 `project.citations.regex`: not a valid regular expression: /),
    ]);
  });

  it('titles a suite from the project’s `extensions.assay.suites`, else by its name; an unknown suite there is a warning', () => {
    const titled = `${PROJECT}extensions:\n  other: { kept: true }\n  assay:\n    suites:\n      huur:\n        title: Rent questions\n        description: One rule per case.\n      hur: { title: Typo }\n`;
    const p = parseSoevProject(titled, { file: 'project.yml' });
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    expect(p.warnings.map((w) => `${w.line}:${w.col} ${w.message}`)).toEqual(['27:12 `extensions.assay.suites` titles the suite "hur", which the project does not list under `suites`']);
    const parse = (suite?: string) => parseBlueprint(SUITE, { file: 'suites/huur.yml', soev: suiteContext(p.project, { systemSpec: null, corpusPath: '../corpus/units.jsonl', suite }) });
    const r = parse('huur');
    expect(r.ok ? [r.blueprint.title, r.blueprint.description] : at(r)).toEqual(['Rent questions', 'One rule per case.']);
    // a suite the extension does not title keeps its name as title, and no description
    const plain = parse(undefined);
    expect(plain.ok ? [plain.blueprint.title, plain.blueprint.description] : at(plain)).toEqual(['huur', null]);
    const bad = parseSoevProject(titled.replace('title: Rent questions', 'title: Rent questions\n        colour: red'), { file: 'project.yml' });
    expect(bad.ok ? [] : bad.errors.map((e) => `${e.line}:${e.col} ${e.message}`)).toEqual(['26:9 unknown field `colour` in `project.extensions.assay.suites.huur`']);
  });

  it('reports an invariant point error in the project file', () => {
    const p = parseSoevProject(PROJECT.replace('$not_contains', '$not_contans'), { file: 'project.yml' });
    expect(p.ok ? [] : p.errors.map((e) => `${e.file}:${e.line}:${e.col} ${e.code}`)).toEqual(['project.yml:13:5 unknown_function']);
  });
});
