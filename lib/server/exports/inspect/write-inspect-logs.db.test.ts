/**
 * A real run made by `assay run` (a child process on a fresh database: fixed replies from a
 * fixtures file, the fake LLM server as judge and as the provider of the one reply the fixtures
 * leave out, which fails), exported with writeInspectLogs: one log per model, each accepted by
 * Inspect's published EvalLog schema, no trace of the sealed prompt, and the stored scores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '@/lib/server/db/db.testkit';
import { spawnAssay } from '@/lib/server/runs/runs.testkit';
import { RunNotFoundError } from '@/lib/server/runs/engine/errors';
import { writeInspectLogs } from './write-inspect-logs';
import { readReplyPages, readRunHeader } from './read-run';
import { evalLogValidator } from './schema.testkit';
import type { InspectLogHeader, InspectSample } from './inspect-log';

const BLUEPRINT = `title: Inspect export
models: [openai:alpha, openai:beta]
---
- id: remember
  messages:
    - user: "My order is 48213."
    - assistant: null
    - user: "Which order was it?"
  should:
    - $contains: "48213"
    - Confirms the order number
- id: greet
  prompt: Say hello.
  should:
    - $icontains: hello
- id: statute
  prompt: Summarise the statutory period.
  should:
    - $icontains: period
- id: kestrel-vault
  split: test
  prompt: "kestrel-hidden: what is the vault code?"
  should:
    - $contains: kestrel
`;

// beta's `statute` reply is not in the fixtures: it goes to the fake provider, which refuses it
const FIXTURES = {
  responses: {
    remember: { default: { turns: ['Noted: order 48213.', 'It was order 48213.'] }, byModel: { 'openai:beta': { turns: ['Noted.', 'I do not remember.'] } } },
    greet: { default: 'Hello there!' },
    statute: { byModel: { 'openai:alpha': 'The period is six years.' } },
    'kestrel-vault': { default: 'kestrel-hidden: the code is 0000' },
  },
};

let dir: string;
let t: TestDatabase;
let fake: FakeLlm;
let runId: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assay-inspect-'));
  await writeFile(join(dir, 'inspect-export.yml'), BLUEPRINT);
  await writeFile(join(dir, 'fixtures.json'), JSON.stringify(FIXTURES));
  t = await freshDatabase();
  fake = await startFakeLlm({
    rules: [
      { model: 'beta', lastUser: 'statutory period', error: { status: 400, message: 'context too long' } },
      { model: 'judge', judge: { labels: { E: 1 } } },
    ],
  });
  // the real command, as a user runs it (lib/server may not import the CLI's own test kit)
  const run = spawnAssay(['run', join(dir, 'inspect-export.yml'), '--fixtures', join(dir, 'fixtures.json'), '--judges', 'openai:judge', '--repeats', '2', '--quiet'], {
    DATABASE_URL: t.url,
    ASSAY_LLM_BASE_URL: fake.url,
    OPENAI_API_KEY: 'sk-test',
  });
  await run.exited;
  const stored = await t.db.run.findFirst({ select: { id: true, status: true } });
  expect(stored, `${run.stdout()}\n${run.stderr()}`).not.toBeNull();
  expect(stored!.status, run.stderr()).toBe('completed');
  runId = stored!.id;
}, 120_000);

afterAll(async () => {
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
  await t?.close();
});

type Log = InspectLogHeader & { samples: InspectSample[] };

describe(`writeInspectLogs (${process.env.ASSAY_TEST_DB})`, () => {
  it('writes one log per model that the published EvalLog schema accepts, without the sealed prompt, with the stored scores', { timeout: 60_000 }, async () => {
    const out = join(dir, 'logs');
    const files = await writeInspectLogs(t.db, runId, out);
    expect(files.map((f) => basename(f))).toEqual([`${runId}-openai-alpha.json`, `${runId}-openai-beta.json`]);

    // the stored rows the export must agree with, read straight from the run's tables
    const sealedReplies = await t.db.reply.count({ where: { runId, promptKey: 'kestrel-vault' } });
    expect(sealedReplies).toBe(4); // a check the "not in the files" test can fail: the sealed prompt was run
    const summaries = new Map((await t.db.runModelSummary.findMany({ where: { runId } })).map((s) => [s.modelId, s]));

    const validate = evalLogValidator();
    for (const [i, file] of files.entries()) {
      const modelId = ['openai:alpha', 'openai:beta'][i]!;
      const text = await readFile(file, 'utf8');
      expect(text).not.toMatch(/kestrel/i);
      const log = JSON.parse(text) as Log;
      expect(validate(log)).toEqual([]);

      // 3 visible prompts × 2 attempts, one model per log
      expect(log.samples).toHaveLength(6);
      expect(new Set(log.samples.map((s) => `${s.id}/${s.epoch}`)).size).toBe(6);
      expect(new Set(log.samples.map((s) => s.id))).toEqual(new Set(['remember', 'greet', 'statute']));
      expect(log.eval).toMatchObject({ run_id: runId, task: 'inspect-export', model: modelId.replace(':', '/') });
      expect(log.metadata).toMatchObject({ sealed_prompts_left_out: 1, model_id: modelId });
      expect(log.status).toBe('success');

      const summary = summaries.get(modelId)!;
      expect(summary.score).not.toBeNull();
      expect(log.results!.scores[0]!.metrics.score!.value).toBe(summary.score);
      if (summary.ciLow !== null) expect(log.results!.scores[0]!.metrics.ci_low!.value).toBe(summary.ciLow);

      // every answered sample carries its attempt score as stored
      const attempts = new Map((await t.db.attemptScore.findMany({ where: { runId, modelId } })).map((a) => [a.replyId, a.score]));
      for (const s of log.samples.filter((x) => !x.error)) expect(s.scores!.assay!.value).toBe(attempts.get(s.uuid));
    }

    const beta = JSON.parse(await readFile(files[1]!, 'utf8')) as Log;
    const failed = beta.samples.filter((s) => s.error);
    expect(failed.map((s) => s.id)).toEqual(['statute', 'statute']);
    expect(failed[0]!.error!.message).toMatch(/context too long/);
    expect(failed[0]!.scores?.assay).toBeUndefined();
    expect(beta.results).toMatchObject({ total_samples: 6, completed_samples: 4 });
    const remember = beta.samples.find((s) => s.id === 'remember')!;
    expect(remember.input).toEqual([{ role: 'user', content: 'My order is 48213.' }]);
    expect(remember.output.completion).toBe('I do not remember.');
  });

  it('reads replies in keyset pages: every reply once, in id order, whatever the page size', async () => {
    const src = await readRunHeader(t.db, runId);
    const ids: string[] = [];
    let pages = 0;
    for await (const page of readReplyPages(t.db, src, 'openai:alpha', 4)) {
      pages++;
      ids.push(...page.replies.map((r) => r.id));
    }
    expect(pages).toBe(2);
    expect(ids).toHaveLength(6);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(6);
  });

  it('says how to find a run id when there is no such run', async () => {
    await expect(writeInspectLogs(t.db, 'no-such-run', join(dir, 'none'))).rejects.toThrow(RunNotFoundError);
  });
});
