/**
 * A split 40-case blueprint through the real pipeline: `assay split` seals 12 cases (6
 * lineages), `assay run` (a child process on a real database, the fake LLM server as the
 * provider) runs all 40, and its `--json` export and its report hold no sealed prompt's id,
 * marker or echoed reply, while the stored run scored every prompt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { fortyCaseBlueprint, sealedPattern } from '@/testing/split-suite';
import { assay as runAssay, tempFiles } from '@/lib/cli/cli.testkit';
import { freshDatabase, type TestDatabase } from '@/lib/server/db/db.testkit';

let dir: string;
let t: TestDatabase;
let fake: FakeLlm;
const MODELS = ['openai:model-a', 'openai:model-b'];

beforeAll(async () => {
  dir = await tempFiles({ 'support.yml': fortyCaseBlueprint(MODELS) });
  t = await freshDatabase();
  // this helper's port range (3500–3599), one port per database engine (the file runs under both)
  fake = await startFakeLlm({ rules: [], port: process.env.ASSAY_TEST_DB === 'pglite' ? 3521 : 3520 });
});
afterAll(async () => {
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
  await t?.close();
});

describe(`a split blueprint's sealed prompts in assay run (${process.env.ASSAY_TEST_DB})`, () => {
  it('are run and scored, but not in the --json export or the report', { timeout: 120_000 }, async () => {
    const file = join(dir, 'support.yml');
    const split = await runAssay(['split', '--test-share', '0.25', '--seed', '7', '--min-per-side', '1', file]);
    expect(split.code, split.stderr).toBe(0);
    const text = await readFile(file, 'utf8');
    const sealedIds = [...text.matchAll(/^- id: (\S+)\n {2}split: test$/gm)].map((m) => m[1]!);
    expect(sealedIds).toHaveLength(12);

    const out = join(dir, 'out.json');
    const run = await runAssay(['run', file, '--json', out], undefined, { DATABASE_URL: t.url, ASSAY_LLM_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test' });
    expect(run.code, run.stderr).toBe(0);
    const exported = await readFile(out, 'utf8');
    const doc = JSON.parse(exported) as { run: { sealedPrompts: number }; results: { prompt: string; reply: string }[] };

    // 28 visible prompts × 2 models; the 12 sealed ones are counted, not listed
    expect(doc.results).toHaveLength(56);
    expect(doc.run.sealedPrompts).toBe(12);
    expect(doc.results[0]!.reply).toMatch(/^Fake reply from model-[ab] to: kestrel-/);
    const sealed = sealedPattern(sealedIds);
    expect(exported).not.toMatch(sealed);
    expect(`${run.stdout}\n${run.stderr}`).not.toMatch(sealed);

    // …and the run did grade them: 40 prompts × 2 models of cells
    expect(await t.db.runCellSummary.count()).toBe(80);
    expect(await t.db.versionPrompt.count({ where: { split: 'test' } })).toBe(12);
    // a check the pattern can fail: the stored replies of the sealed prompts do hold their markers
    const stored = await t.db.reply.findMany({ where: { promptKey: { in: sealedIds } }, select: { content: true } });
    expect(stored).toHaveLength(24);
    for (const r of stored) expect(r.content).toMatch(sealed);
  });

  it("keeps a sealed prompt's error messages out of the report and the run's recorded reason", { timeout: 120_000 }, async () => {
    const file = join(dir, 'errors.yml');
    // both prompts' checks throw with the reply in the message; only the visible one's may show
    const throwing = '    - $js: "throw new Error(\'bad reply: \' + r)"';
    const blueprint = ['title: Errors', 'models: [openai:model-a]', '---', '- id: open-one', '  prompt: "osprey-open: hello"', '  should:', throwing, '- id: sealed-one', '  split: test', '  prompt: "kestrel-hidden: hello"', '  should:', throwing, ''].join('\n');
    await writeFile(file, blueprint);
    const run = await runAssay(['run', file, '--json', '-'], undefined, { DATABASE_URL: t.url, ASSAY_LLM_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test' });
    const all = `${run.stdout}\n${run.stderr}`;
    expect(all).toMatch(/bad reply: Fake reply from model-a to: osprey-open/);
    expect(all).toContain('errors in sealed prompts (their messages are not shown)');
    expect(all).not.toMatch(/kestrel-hidden|sealed-one/);
    const stored = await t.db.run.findFirstOrThrow({ where: { blueprint: { title: 'Errors' } }, select: { status: true, error: true } });
    expect(stored.error ?? '').not.toMatch(/kestrel-hidden/);
    // the stored verdict of the sealed prompt does quote it (what the report must not show)
    const verdict = await t.db.verdict.findFirstOrThrow({ where: { promptKey: 'sealed-one' }, select: { detail: true } });
    expect(verdict.detail).toMatch(/kestrel-hidden/);
  });
});
