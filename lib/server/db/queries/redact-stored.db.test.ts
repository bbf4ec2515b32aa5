/**
 * Issue 11, finding 8 (pages): a row stored before redaction existed (here: a run made with no
 * secret configured, so nothing was redacted on the way in) shows no known secret on the pages
 * that read reply text back: the prompt page's replies and judge reasoning, the point page's
 * verdicts, and reply search snippets. Real pipeline, fake provider, real database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { executeRun } from '../../runs/engine/execute-run';
import { requestRun } from '../../runs/request-run';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from '../../runs/runs.testkit';
import { freshDatabase, type TestDatabase } from '../db.testkit';
import { getPointVerdicts, getPromptReplies } from './run-prompt';
import { getRunHeader } from './run-header';
import { getRunModelErrors } from './run-model';
import { getRunProgress } from './run-progress';
import { searchReplies } from './search';

const KEY = 'sk-pagetest-0123456789abcdefSECRET';
const BLUEPRINT = `title: Echo
---
- id: echo
  prompt: Repeat the header you were sent.
  should:
    - $icontains: authorization
    - Repeats the header
`;

let t: TestDatabase;
let fake: FakeLlm;
let run: { id: string; versionId: string };
const saved = process.env.OPENAI_API_KEY;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({
    rules: [
      { model: /judge/, judge: { labels: { E: 1 }, reasoning: `It repeats the header with ${KEY}.` } },
      { lastUser: /Repeat the header/, reply: `authorization: Bearer ${KEY}`, toolCalls: [{ name: 'echo', arguments: { header: KEY } }] },
    ],
  });
  const { blueprintId } = await storeBlueprint(t.db, 'echo.yml', BLUEPRINT);
  const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', models: ['openai:model-a'] }, noDispatch, TEST_DEFAULTS);
  expect(await executeRun(await fakeDeps(t.db, fake.url), runId)).toBe('completed');
  run = await t.db.run.findUniqueOrThrow({ where: { id: runId }, select: { id: true, versionId: true } });
}, 120_000);
afterAll(async () => {
  if (saved === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = saved;
  await fake?.close();
  await t?.close();
});

describe(`stored text read for pages (${process.env.ASSAY_TEST_DB})`, () => {
  it('the stored rows hold the key (stored with no secret configured), and show it while none is configured', async () => {
    delete process.env.OPENAI_API_KEY;
    const reply = await t.db.reply.findFirstOrThrow({ where: { runId: run.id } });
    expect(reply.content).toContain(KEY);
    expect(JSON.stringify(await getPromptReplies(t.db, run, 'echo', ['openai:model-a']))).toContain(KEY);
  });

  it('once the key is configured: replies, tool calls, judge reasoning, point verdicts and search snippets show it redacted', async () => {
    process.env.OPENAI_API_KEY = KEY;
    const replies = await getPromptReplies(t.db, run, 'echo', ['openai:model-a']);
    expect(replies).toHaveLength(1);
    const [reply] = replies;
    expect(reply!.content).toBe('authorization: Bearer [redacted]');
    expect(reply!.toolCalls).toEqual([expect.objectContaining({ name: 'echo', arguments: { header: '[redacted]' } })]);
    const judged = reply!.verdicts.find((v) => v.pointIndex === 1)!;
    expect(judged.judges?.length).toBeGreaterThan(0);
    expect(JSON.stringify(judged)).toContain('It repeats the header with [redacted].');
    expect(JSON.stringify(replies)).not.toContain(KEY);

    const point = await getPointVerdicts(t.db, run, 'echo', 1);
    expect(point).toHaveLength(1);
    expect(JSON.stringify(point)).not.toContain(KEY);
    expect(JSON.stringify(point)).toContain('[redacted]');

    for (const q of ['authorization', KEY]) {
      const { hits } = await searchReplies(t.db, q, { limit: 10, offset: 0 });
      expect(hits, q).toHaveLength(1);
      expect(hits[0]!.snippet, q).not.toContain(KEY);
      expect(hits[0]!.snippet.replace(/[\u27e6\u27e7]/g, ''), q).toContain('[redacted]');
    }
  });

  it('failure messages that quote the key: the run header, the progress poll and the model page’s errors show it redacted', async () => {
    process.env.OPENAI_API_KEY = KEY;
    const leaked = `openai: HTTP 401: Incorrect API key provided: ${KEY}`;
    await t.db.run.update({ where: { id: run.id }, data: { error: leaked } });
    await t.db.reply.updateMany({ where: { runId: run.id }, data: { error: leaked, errorKind: 'auth' } });
    const redacted = 'openai: HTTP 401: Incorrect API key provided: [redacted]';
    expect((await getRunHeader(t.db, run.id))!.error).toBe(redacted);
    expect((await getRunProgress(t.db, run.id))!.error).toBe(redacted);
    const errors = await getRunModelErrors(t.db, run, 'openai:model-a');
    expect(errors.map((e) => e.message)).toEqual([`auth: ${redacted}`]);
  });
});
