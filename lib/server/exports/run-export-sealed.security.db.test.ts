/**
 * Sealed prompts in exports: for each spelling of `split: test` the parser accepts, a blueprint
 * is stored and run against the fake LLM (whose replies echo the prompt, so a sealed prompt's
 * reply carries "SECRET" too), and every table in every format holds the open prompt's rows and
 * nothing of a sealed one: no id, text, point, reply or verdict.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { buffer, text } from 'node:stream/consumers';
import { ExportTableSchema } from '@/lib/core';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { SEALED_SPELLINGS } from '../blueprints/sealed-spellings.testkit';
import { poolOf } from '../db/client';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { executeRun } from '../runs/engine/execute-run';
import { requestRun } from '../runs/request-run';
import { fakeDeps, noDispatch, storeBlueprint } from '../runs/runs.testkit';
import { openRunExport } from './run-export';

let t: TestDatabase;
let fake: FakeLlm;
const runs: { name: string; runId: string }[] = [];

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm();
  const deps = await fakeDeps(t.db, fake.url, { sandbox: false });
  for (const s of SEALED_SPELLINGS) {
    const { blueprintId } = await storeBlueprint(t.db, s.file, s.text);
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', models: ['openai:model-1'] }, noDispatch, { judges: [], defaultCollection: 'CORE', judgeSamples: 1 });
    expect(await executeRun(deps, runId), s.name).toBe('completed');
    runs.push({ name: s.name, runId });
  }
}, 240_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

describe(`sealed prompts in run exports (${process.env.ASSAY_TEST_DB})`, () => {
  it('the sealed prompts were run and their replies carry the secret (so leaving them out is a real test)', async () => {
    for (const r of runs) {
      const secret = await t.db.reply.count({ where: { runId: r.runId, content: { contains: 'SECRET' } } });
      expect(secret, r.name).toBe(SEALED_SPELLINGS.find((s) => s.name === r.name)!.sealed);
    }
  });

  it.each(SEALED_SPELLINGS.map((s) => s.name))('%s: every table, JSONL, CSV and gzip, has the open prompt and no sealed one', async (name) => {
    const { runId } = runs.find((r) => r.name === name)!;
    // the open prompt's rows, as stored (a spelling whose open prompt has no point has no verdicts)
    const open = { runId, promptKey: 'OPEN-1' };
    const expected = { replies: await t.db.reply.count({ where: open }), verdicts: await t.db.verdict.count({ where: open }), attempts: await t.db.attemptScore.count({ where: open }) };
    expect(expected.replies).toBe(1);
    for (const table of ExportTableSchema.options) {
      for (const format of ['jsonl', 'csv'] as const) {
        const file = await openRunExport(poolOf(t.db), runId, { table, format, gzip: false });
        const plain = await text(file.stream);
        expect(file.rowCount(), `${table} ${format}`).toBe(expected[table]);
        const zipped = gunzipSync(await buffer((await openRunExport(poolOf(t.db), runId, { table, format, gzip: true })).stream)).toString('utf8');
        expect(zipped, `${table} ${format}`).toBe(plain);
        if (expected[table] > 0) expect(plain, `${table} ${format}`).toContain('OPEN-1');
        expect(plain, `${table} ${format}`).not.toMatch(/SECRET/);
      }
    }
  });
});
