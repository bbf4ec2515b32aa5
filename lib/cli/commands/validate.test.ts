import { truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostileBlueprints } from '@/lib/core';
import { needsCorpus, WEVAL_CORPUS } from '@/testing/outside-data';
import { assay, lines, tempFiles } from '../cli.testkit';

const GOOD = `title: Good
---
- id: capital
  prompt: What is the capital of France?
  should:
    - Names Paris
    - $icontains: paris
`;

const BROKEN = `title: Broken
---
- id: p
  prompt: q
  should:
    - $contans: x
`;

// Every point form the --json output must flatten: functions, text, alternative paths, should_not.
const FULL = `title: Full
---
- id: pasta
  prompt: Recommend a pasta recipe.
  ideal: Spaghetti aglio e olio.
  should:
    - Is friendly
    - { $contains: pasta, weight: 2, citation: Cookbook }
    - - Gives a recipe
      - $icontains: ingredients
    - - Asks about preferences
  should_not:
    - $contains: meat
    - - Is rude
      - Is curt
- messages:
    - user: Hi, my order 42 is late.
    - assistant: null
    - user: Which order was it?
  should: ["$contains: '42'"]
`;

const WARNS = `- prompt: q
  shuold: [x]
`;

describe('assay validate', () => {
  it('reports a valid file in one line, with its prompt and point counts', async () => {
    const dir = await tempFiles({ 'good.yml': GOOD });
    const r = await assay(['validate', join(dir, 'good.yml')]);
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([`${join(dir, 'good.yml')}: ok (1 prompt, 2 points)`]);
  });

  it('reports a broken file as file:line:col: message with the hint indented, and exits 1', async () => {
    const dir = await tempFiles({ 'bad.yml': BROKEN });
    const file = join(dir, 'bad.yml');
    const r = await assay(['validate', file]);
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([
      `${file}:6:7: unknown point function "contans"; did you mean $contains, $contain, $icontains?`,
      '  hint: Write `$contains` or `$contain` or `$icontains` instead.',
    ]);
  });

  it('reports a 50 MB file by its size without reading it, and an alias bomb at the alias', async () => {
    const dir = await tempFiles({ 'bomb.yml': hostileBlueprints.ALIAS_BOMB_469 });
    await writeFile(join(dir, 'huge.yml'), '');
    await truncate(join(dir, 'huge.yml'), 50 * 1024 * 1024); // sparse: nothing is written
    const r = await assay(['validate', dir]);
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([
      `${join(dir, 'bomb.yml')}:7:8: the file expands to more than 100,000 values (lists, mappings and scalars) while expanding the alias \`*e\` (line 7:8)`,
      "  hint: Aliases of anchors that themselves hold aliases multiply; write the values out, or use fewer levels of aliases. Assay's limit is 100,000 values after aliases are expanded per blueprint file (docs/limits.md).",
      `${join(dir, 'huge.yml')}:1:1: the file is 52,428,800 bytes, over the limit of 1,048,576 bytes`,
      "  hint: Split the blueprint into several files. Assay's limit is 1,048,576 bytes per blueprint file (docs/limits.md).",
    ]);
  });

  it('searches folders recursively for .yml, .yaml and .json files only', async () => {
    const dir = await tempFiles({ 'a.yml': GOOD, 'nested/deeper/b.yaml': GOOD, 'nested/c.json': '{"title": "J", "prompts": [{"prompt": "q"}]}', 'nested/notes.txt': 'not a blueprint', 'nested/bad.yml': BROKEN });
    const r = await assay(['validate', dir]);
    expect(r.code).toBe(1);
    const out = lines(r.stdout);
    expect(out.filter((l) => l.endsWith(': ok (1 prompt, 2 points)')).map((l) => l.slice(dir.length + 1))).toEqual(['a.yml: ok (1 prompt, 2 points)', 'nested/deeper/b.yaml: ok (1 prompt, 2 points)']);
    expect(out).toContain(`${join(dir, 'nested/c.json')}: ok (1 prompt, 0 points)`);
    expect(out.some((l) => l.startsWith(`${join(dir, 'nested/bad.yml')}:6:7: `))).toBe(true);
    expect(r.stdout).not.toContain('notes.txt');
  });

  it('--json: one object per file, with the normalised blueprint and a flat point list', async () => {
    const dir = await tempFiles({ 'blueprints/team/full.yml': FULL, 'blueprints/team/bad.yml': BROKEN });
    const r = await assay(['validate', '--json', join(dir, 'blueprints')]);
    expect(r.code).toBe(1);
    const reports = lines(r.stdout).map((l) => JSON.parse(l));
    expect(reports.map((x) => [x.file.slice(dir.length + 1), x.ok])).toEqual([
      ['blueprints/team/bad.yml', false],
      ['blueprints/team/full.yml', true],
    ]);

    const [bad, full] = reports;
    expect(bad.blueprint).toBeNull();
    expect(bad.errors).toEqual([expect.objectContaining({ line: 6, col: 7, message: expect.stringContaining('unknown point function "contans"'), code: 'unknown_function', severity: 'error', hint: expect.any(String) })]);

    expect(full.errors).toEqual([]);
    // Ids come from the path under blueprints/, as in Weval.
    expect(full.blueprint).toMatchObject({ id: 'team__full', title: 'Full' });
    const [pasta, order] = full.blueprint.prompts;
    expect(pasta).toMatchObject({ id: 'pasta', messages: [{ role: 'user', content: 'Recommend a pasta recipe.' }], ideal: 'Spaghetti aglio e olio.' });
    const point = (kind: string, text: string, fn: string | null, args: unknown, path: string | null, source: string, weight = 1, citation: string | null = null) => ({ kind, text, fn, args, weight, citation, path, source });
    const keys = ['kind', 'text', 'fn', 'args', 'weight', 'citation', 'path', 'source'] as const;
    expect(pasta.points.map((p: Record<string, unknown>) => Object.fromEntries(keys.map((k) => [k, p[k]])))).toEqual([
      point('text', 'Is friendly', null, null, null, 'should'),
      point('function', 'contains("pasta")', 'contains', 'pasta', null, 'should', 2, 'Cookbook'),
      point('text', 'Gives a recipe', null, null, 'should:0', 'should'),
      point('function', 'icontains("ingredients")', 'icontains', 'ingredients', 'should:0', 'should'),
      point('text', 'Asks about preferences', null, null, 'should:1', 'should'),
      point('function', 'not_contains("meat")', 'not_contains', 'meat', null, 'should_not'),
      point('text', 'Is rude', null, null, 'should_not:0', 'should_not'),
      point('text', 'Is curt', null, null, 'should_not:0', 'should_not'),
    ]);
    expect(order.id).toMatch(/^hash-[0-9a-f]{12}$/);
    expect(order.messages).toEqual([
      { role: 'user', content: 'Hi, my order 42 is late.' },
      { role: 'assistant', content: null },
      { role: 'user', content: 'Which order was it?' },
    ]);
    expect(order.ideal).toBeNull();
    expect(full.warnings).toEqual([expect.objectContaining({ code: 'suspicious', severity: 'warning' })]);
  });

  it('prints warnings as file:line:col: warning: …, and fails on them with --strict', async () => {
    const dir = await tempFiles({ 'warn.yml': WARNS });
    const file = join(dir, 'warn.yml');
    const warning = `${file}:2:3: warning: unknown prompt field \`shuold\` is ignored; did you mean \`should\`?`;

    // Independent runs, started together (each is a node process).
    const [lenient, strict, strictJson] = await Promise.all([assay(['validate', file]), assay(['validate', '--strict', file]), assay(['validate', '--strict', '--json', file])]);
    expect(lenient.code).toBe(0);
    expect(lines(lenient.stdout)).toEqual([`${file}: ok (1 prompt, 0 points)`, warning, '  hint: Rename it to `should`.']);

    expect(strict.code).toBe(1);
    expect(lines(strict.stdout)).toEqual([warning, '  hint: Rename it to `should`.']);

    const json = JSON.parse(strictJson.stdout);
    expect(json).toMatchObject({ ok: false, errors: [{ line: 2, col: 3, severity: 'warning', code: 'unknown_field' }], blueprint: { prompts: [{}] } });
  });

  it('exit codes: 1 for a missing path (reported, the rest still checked), 2 for usage errors', async () => {
    const dir = await tempFiles({ 'good.yml': GOOD });
    const [missing, none, unknown] = await Promise.all([assay(['validate', join(dir, 'nope.yml'), join(dir, 'good.yml')]), assay(['validate']), assay(['validate', '--frobnicate', dir])]);
    expect(missing.code).toBe(1);
    expect(lines(missing.stdout)[0]).toBe(`${join(dir, 'nope.yml')}: no such file or directory`);
    expect(missing.stdout).toContain(`${join(dir, 'good.yml')}: ok`);

    expect(none.code).toBe(2);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/usage: assay validate/);
  });

  it.skipIf(!WEVAL_CORPUS)(needsCorpus('validates the whole weval-configs corpus: 193 valid, 3 invalid at their exact positions'), async () => {
    const folder = join(WEVAL_CORPUS!, 'blueprints');
    const r = await assay(['validate', folder, '--json']);
    expect(r.code).toBe(1);
    const reports = lines(r.stdout).map((l) => JSON.parse(l) as { file: string; ok: boolean; errors: { line: number; col: number; message: string }[] });
    expect(reports).toHaveLength(196);
    expect(reports.filter((x) => x.ok)).toHaveLength(193);
    const invalid = reports.filter((x) => !x.ok).map((x) => [x.file.replace(`${folder}/`, ''), x.errors.map((e) => `${e.line}:${e.col}`), x.errors[0]!.message.split(':')[0]]);
    expect(invalid).toEqual([
      ['eu-ai-act-202401689.yml', ['3:14'], 'YAML syntax error'],
      ['maternal-health-uttar-pradesh.yml', ['2:8'], 'YAML syntax error'],
      ['tool-use-native-test.yml', ['14:9', '60:19', '61:19'], '`toolUse.mode` must be trace-only or native, not "auto"'],
    ]);
    expect(reports.find((x) => x.file.endsWith('tool-use-native-test.yml'))!.errors[1]!.message).toMatch(/invalid regex/);
  });
});
