/**
 * Refusals, replies cut off at the token limit and accounts out of credit, end to end: the fake
 * answers each in its provider's published shape (llm-server-outcomes.ts), the run stores them
 * (replies.refusal, replies.finish_reason, the error reply), and the prompt page reads them back
 * through the same schema and says "Refused" / "Cut off at the token limit".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { getPromptReplies } from '../../db/queries/run-prompt';
import { replyCards } from '@/lib/views/prompt-view';
import { executeRun } from '../engine/execute-run';
import { runResults } from './results';
import { requestRun } from '../request-run';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from '../runs.testkit';

let t: TestDatabase;
let fake: FakeLlm;

const BLUEPRINT = `title: Refusals
models: [openai:refuser, anthropic:claude-haiku-4-5, google:gemini-2.0-flash, openrouter:broke/model]
---
- id: harmful
  prompt: Tell me how to do the bad thing.
  should: [Declines to help]
- id: essay
  prompt: Write a long essay.
  should: [Writes an essay]
- id: hello
  prompt: Say hello.
  should: [Greets]
`;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({
    rules: [
      { name: 'judge', model: 'judge-a', judge: { labels: { E: 1 } } },
      { name: 'openai-refusal', model: 'refuser', lastUser: /bad thing/, reply: "I'm sorry, I can't help with that.", outcome: 'refusal' },
      { name: 'claude-refusal', model: 'claude-haiku-4-5', lastUser: /bad thing/, reply: "I won't help with that.", outcome: 'refusal' },
      { name: 'gemini-safety', model: 'gemini-2.0-flash', lastUser: /bad thing/, reply: 'unused: Gemini sends no text when it stops for safety', outcome: 'refusal' },
      { name: 'claude-cut', model: 'claude-haiku-4-5', lastUser: /essay/, reply: 'Once upon a time, in a land', outcome: 'cut_off' },
      { name: 'no-credit', model: 'broke', error: { status: 402, message: 'Insufficient credits. Add more using https://openrouter.ai/settings/credits' } },
      { name: 'answer', reply: 'Hello!' },
    ],
  });
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

describe(`refusals, cut-off replies and quota stops in a run (${process.env.ASSAY_TEST_DB})`, () => {
  it('stores a refusal with its text, a cut-off reply with its finish reason, and stops calling an account out of credit until a resume', async () => {
    const { blueprintId } = await storeBlueprint(t.db, 'refusals.yml', BLUEPRINT);
    // one cell at a time, so the account's first 402 is seen before the next cell is sent
    const deps = await fakeDeps(t.db, fake.url, { concurrency: 1 });
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', judges: ['openai:judge-a'], bypassCache: true }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(deps, runId)).toBe('completed');

    const replies = await t.db.reply.findMany({ where: { runId }, select: { promptKey: true, modelId: true, content: true, refusal: true, finishReason: true, error: true, errorKind: true } });
    const cell = (promptKey: string, modelId: string) => replies.find((r) => r.promptKey === promptKey && r.modelId === modelId);

    // OpenAI's message.refusal: the text is the reply, the signal beside it
    expect(cell('harmful', 'openai:refuser')).toMatchObject({ content: "I'm sorry, I can't help with that.", refusal: 'message.refusal', error: null });
    expect(cell('harmful', 'anthropic:claude-haiku-4-5')).toMatchObject({ content: "I won't help with that.", refusal: 'stop_reason: refusal', finishReason: 'refusal', error: null });
    expect(cell('essay', 'anthropic:claude-haiku-4-5')).toMatchObject({ content: 'Once upon a time, in a land', refusal: null, finishReason: 'max_tokens' });
    // Gemini's SAFETY stop sends no text: an error reply with the provider's reason, not an empty reply to grade
    expect(cell('harmful', 'google:gemini-2.0-flash')).toMatchObject({ content: '', refusal: null, errorKind: 'blocked', error: expect.stringMatching(/finishReason SAFETY .*HARM_CATEGORY_DANGEROUS_CONTENT/) });
    expect(cell('hello', 'openai:refuser')).toMatchObject({ content: 'Hello!', refusal: null, finishReason: 'stop' });

    // the run's results count them once, for the CLI summary and the JSON report
    expect((await runResults(t.db, runId)).run.replies.outcomes).toEqual({ refused: 2, cutOff: 1 });

    // the judge read the refusal's text as the reply
    const judged = fake.requests().filter((r) => r.rule === 'judge').map((r) => JSON.stringify(r.request.messages));
    expect(judged.some((m) => m.includes("I'm sorry, I can't help with that."))).toBe(true);

    // 402: the first call is not retried, and no later cell of the run calls the account
    const broke = replies.filter((r) => r.modelId === 'openrouter:broke/model');
    expect(broke).toHaveLength(3);
    expect(broke.every((r) => r.errorKind === 'quota')).toBe(true);
    expect(fake.requests().filter((r) => r.rule === 'no-credit')).toHaveLength(1);
    expect(broke.filter((r) => /HTTP 402: Insufficient credits/.test(r.error ?? '') && !/not called/.test(r.error ?? ''))).toHaveLength(1);
    expect(broke.filter((r) => /^openrouter: not called: earlier in this run .*out of credit/.test(r.error ?? ''))).toHaveLength(2);

    // once the account is paid, resuming the run calls it again and answers the cells it stopped
    fake.setRules([{ name: 'paid', model: 'broke', reply: 'Paid now.' }, { name: 'judge', model: 'judge-a', judge: { labels: { E: 1 } } }]);
    expect(await executeRun(deps, runId)).toBe('completed');
    const resumed = await t.db.reply.findMany({ where: { runId, modelId: 'openrouter:broke/model' }, select: { content: true, error: true } });
    expect(resumed).toEqual([...Array(3)].map(() => ({ content: 'Paid now.', error: null })));

    // the page reads the stored outcome back through the same schema and says it
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId }, select: { id: true, versionId: true } });
    const pageOf = async (promptKey: string, modelId: string) => {
      const rows = await getPromptReplies(t.db, run, promptKey, [modelId]);
      const prompt = { promptKey, messages: [{ role: 'user' as const, content: 'x' }], points: [] };
      return replyCards(run.id, prompt, rows, [modelId], [], null)[0]?.attempts[0];
    };
    expect((await pageOf('harmful', 'openai:refuser'))?.outcome).toMatchObject({ kind: 'refused', label: 'Refused' });
    expect((await pageOf('essay', 'anthropic:claude-haiku-4-5'))?.outcome).toMatchObject({ kind: 'cut_off', label: 'Cut off at the token limit' });
    expect((await pageOf('hello', 'openai:refuser'))?.outcome).toBeNull();
  });
});
