/**
 * `assay validate PROJECT.yml` on soev files as a soev user has them: the shipped example, and a
 * broken copy whose problems are each reported at their own file:line:col (project, suite,
 * corpus lookup), the project's suites not validated a second time on their own.
 */
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseBlueprint } from '@/lib/core';
import { assay, REPO_ROOT, tempFiles } from '../cli.testkit';

const read = (path: string) => readFile(join(REPO_ROOT, 'blueprints/soev-example', path), 'utf8');

describe('assay validate (soev projects)', () => {
  it('validates the shipped example with its suites and corpus', { timeout: 60_000 }, async () => {
    const r = await assay(['validate', 'blueprints/soev-example']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('blueprints/soev-example/project.yml: ok (soev project: 2 suites in 2 files, 5 cases, corpus 3 units)');
  });

  it('reports each problem in the file it is in, at its line and column', { timeout: 60_000 }, async () => {
    const project = (await read('project.yml')).replace('grenzen: suites/grenzen.yml', 'grenzen: suites/grenzen.yml\n  extra: suites/none*.yml').replace('  timeout_s: 30', '  timeout_s: 30\n  retries: 2');
    const huur = (await read('suites/huur.yml')).replace('    rule: R2\n', '    rule: R3\n');
    const grenzen = (await read('suites/grenzen.yml')).replace('  - id: scope-smalltalk', '  - id: R1-01');
    const dir = await tempFiles({ 'project.yml': project, 'suites/huur.yml': huur, 'suites/grenzen.yml': grenzen, 'corpus/units.jsonl': `${await read('corpus/units.jsonl')}{"id": ""}\n` });
    const r = await assay(['validate', '--json', dir]);
    expect(r.code).toBe(1);
    const reports = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { file: string; ok: boolean; errors: { file: string; line: number; col: number; message: string }[] });
    // a project that does not load names no suites: they are validated on their own
    expect(reports.map((x) => [x.file.replace(`${dir}/`, ''), x.ok])).toEqual([['project.yml', false], ['suites/grenzen.yml', true], ['suites/huur.yml', false]]);
    const at = reports[0]!.errors.map((e) => `${e.file.replace(`${dir}/`, '')}:${e.line}:${e.col} ${e.message}`);
    expect(at).toEqual([
      expect.stringMatching(/^project\.yml:14:3 unknown field `retries` in `project\.system`/),
    ]);
    // with the project itself valid, the suites' and the corpus's problems are listed
    const valid = await tempFiles({ 'project.yml': project.replace('\n  retries: 2', ''), 'suites/huur.yml': await read('suites/huur.yml'), 'suites/grenzen.yml': grenzen, 'corpus/units.jsonl': `${await read('corpus/units.jsonl')}{"id": ""}\n` });
    const again = await assay(['validate', '--json', valid]);
    // one report: the suites are validated with their project, not again on their own
    expect(again.stdout.trim().split('\n')).toHaveLength(1);
    const errors = (JSON.parse(again.stdout.trim()) as (typeof reports)[number]).errors.map((e) => `${e.file.replace(`${valid}/`, '')}:${e.line}:${e.col} ${e.message}`);
    expect(errors).toEqual([
      'corpus/units.jsonl:4:1 a corpus unit needs a non-empty string `id` and a string `text`',
      expect.stringMatching(/^suites\/grenzen\.yml:17:5 the case id "R1-01" is already used at .*suites\/huur\.yml:10:5$/),
      'project.yml:43:3 the suite "extra" matches no file: suites/none*.yml',
    ]);
  });

  it('reads soev `- kind:` criteria in a case, the defaults and the invariants as criterion points', () => {
    const suite = `name: s\ndefaults:\n  - kind: reply.max_length\n    max: 2000\n    gate: true\ncases:\n  - id: a\n    lineage: a\n    category: c\n    turns:\n      - prompt: Hallo\n    criteria:\n      - kind: reply.language\n        language: nl\n        weight: 2\n`;
    const r = parseBlueprint(suite, { file: 's.yml' });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.blueprint.prompts[0]!.points.map((p) => [p.kind, 'criterion' in p ? p.criterion : null, p.weight, p.gate, p.loc?.line])).toEqual([
      ['criterion', 'reply.max_length', 1, true, 3],
      ['criterion', 'reply.language', 2, false, 13],
    ]);
    const bad = parseBlueprint(suite.replace('language: nl', 'languag: nl'), { file: 's.yml' });
    // the misspelt key once, where it is written, with the parameter it lacks
    expect(bad.ok ? [] : bad.errors.map((e) => `${e.line}:${e.col} ${e.message}`)).toEqual(['14:9 reply.language has no parameter `languag` (it needs `language`)']);
  });
});
