import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fortyCaseSuite, suiteCase } from '@/testing/split-suite';
import { assay, lines, tempFiles } from '../cli.testkit';

const PROJECT = `name: support-project
language: nl
system: { url_env: U, credential_env: C, subject_env: S, agent: a }
judge: { endpoint: j }
citations: { field: metadata.unit_id }
split:
  test_share: 0.25
  seed: 7
  min_per_side: 2
suites:
  support: suites/*.yaml
`;

// Each test spawns the command five times: on a loaded machine that takes more than the default 20 s.
describe('assay split (the real command)', () => {
  it('splits a 40-case suite by the project settings, writes split:, and a second run after adding cases moves nothing', { timeout: 120_000 }, async () => {
    const dir = await tempFiles({ 'project.yaml': PROJECT, 'suites/support.yaml': fortyCaseSuite() });
    const suite = join(dir, 'suites/support.yaml');

    const first = await assay(['split', dir]);
    expect(first.stderr).toContain('below min_per_side 2');
    expect(first.code).toBe(0);
    expect(lines(first.stdout)).toEqual([
      'split: test_share 0.25, seed 7, min_per_side 2',
      '  support  category=billing: 8 lineages, 2 test / 6 dev, test share 0.25 (target 2)',
      '  support  category=privacy: 6 lineages, 2 test / 4 dev, test share 0.33 (target 2)',
      '  support  category=refunds: 4 lineages, 1 test / 3 dev, test share 0.25 (target 1)',
      '  support  category=smalltalk: 2 lineages, 1 test / 1 dev, test share 0.50 (target 1)',
      '40 cases, 12 on the test side (sealed); 40 new split: fields in 1 file',
    ]);
    const written = await readFile(suite, 'utf8');
    expect(written.match(/^ {4}split: test$/gm)).toHaveLength(12);
    expect(written.startsWith('# Support questions (kept by the split)\n')).toBe(true);

    // --json: the assignment per case and the share per stratum
    const json = JSON.parse((await assay(['split', '--json', dir])).stdout);
    const sides = new Map<string, string>(json.cases.map((c: { id: string; split: string }) => [c.id, c.split]));
    const sealed = json.cases.find((c: { split: string; category: string }) => c.split === 'test' && c.category === 'privacy');
    expect(json.strata.map((s: { value: string; share: number }) => [s.value, s.share])).toEqual([['billing', 0.25], ['privacy', 2 / 6], ['refunds', 0.25], ['smalltalk', 0.5]]);
    expect(json.files).toEqual([
      { file: expect.stringContaining('project.yaml'), kind: 'project', written: 0 },
      { file: expect.stringContaining('support.yaml'), kind: 'suite', written: 0 },
    ]);

    // add a case derived from a sealed case and two new lineages
    const added = [suiteCase('privacy-new', 'privacy', { lineage: 'privacy-new', derived_from: sealed.id }), suiteCase('smalltalk-3', 'smalltalk'), suiteCase('smalltalk-4', 'smalltalk')];
    await writeFile(suite, `${written}${added.join('\n')}\n`);
    const patch = await assay(['split', '--patch', dir]);
    expect(patch.code).toBe(0);
    // the diff adds three split: lines and removes nothing
    expect(patch.stdout.split('\n').filter((l) => /^[+-](?![+-])/.test(l))).toEqual([expect.stringMatching(/^\+ {4}split: test$/), expect.stringMatching(/^\+ {4}split: (dev|test)$/), expect.stringMatching(/^\+ {4}split: (dev|test)$/)]);
    expect(await readFile(suite, 'utf8')).toBe(`${written}${added.join('\n')}\n`); // --patch wrote nothing

    const grown = JSON.parse((await assay(['split', '--json', dir])).stdout);
    for (const c of grown.cases as { id: string; split: string }[]) if (sides.has(c.id)) expect([c.id, c.split]).toEqual([c.id, sides.get(c.id)]);
    expect(grown.cases.find((c: { id: string }) => c.id === 'privacy-new').split).toBe('test');
    // smalltalk: 4 lineages → target 1, already 1 test → both new ones are dev
    expect(grown.strata.find((s: { value: string }) => s.value === 'smalltalk')).toMatchObject({ lineages: 4, test: 1, dev: 3 });
  });

  it('a flag overrides the project; bad flags are usage errors; bad files are errors with file:line:col and nothing is written', { timeout: 120_000 }, async () => {
    const dir = await tempFiles({ 'project.yaml': PROJECT, 'suites/support.yaml': fortyCaseSuite() });
    const json = JSON.parse((await assay(['split', '--json', '--test-share', '0.5', '--stratify', 'support=suite', '--patch', dir])).stdout);
    expect(json.settings).toMatchObject({ test_share: 0.5, seed: 7, stratify: { support: 'suite' } });
    expect(json.strata).toEqual([{ suite: 'support', key: 'suite', value: 'support', lineages: 20, test: 10, dev: 10, share: 0.5, target: 10 }]);

    expect((await assay(['split', '--stratify', 'support=topic', dir])).code).toBe(2);
    expect((await assay(['split', '--test-share', '2', dir])).code).toBe(2);

    const bad = `name: s\ncases:\n  - id: a\n    lineage: a\n    derived_from: ghost\n    turns: [{ prompt: hi }]\n`;
    const broken = await tempFiles({ 's.yaml': bad });
    const result = await assay(['split', join(broken, 's.yaml')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/s\.yaml:3:5: error: `derived_from: ghost` names no case/);
    expect(await readFile(join(broken, 's.yaml'), 'utf8')).toBe(bad);
  });
  it('given only the soev project file, splits the suites its globs name (the example project)', { timeout: 120_000 }, async () => {
    const example = 'blueprints/soev-example';
    const files: Record<string, string> = {};
    for (const e of await readdir(example, { recursive: true, withFileTypes: true })) {
      if (e.isFile()) files[relative(example, join(e.parentPath, e.name))] = await readFile(join(e.parentPath, e.name), 'utf8');
    }
    const dir = await tempFiles(files);
    const run = await assay(['split', '--json', '--min-per-side', '0', join(dir, 'project.yml')]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    // every case of every suite got a side, though no suite file was named on the command line
    expect(report.cases.length).toBeGreaterThan(0);
    expect(report.files.filter((f: { kind: string }) => f.kind === 'suite').length).toBeGreaterThanOrEqual(1);
    expect(report.cases.every((c: { split: string }) => c.split === 'dev' || c.split === 'test')).toBe(true);
  });
});
