/**
 * Issue 11, finding 5 (the reply half): a U+0000 in a model reply failed the whole run with
 * no reply stored. Replies whose content, tool-call arguments or judge reasoning carry NUL or
 * a lone surrogate are stored (escaped: NUL → ␀, lone surrogate → U+FFFD) and graded; a reply
 * that cannot be stored (here: too long) becomes an error reply with a message; the run completes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { executeRun } from '../engine/execute-run';
import { MAX_REPLY_CHARS } from './generate';
import { requestRun } from '../request-run';
import { fakeDeps, noDispatch, storeBlueprint } from '../runs.testkit';

let t: TestDatabase;
let fake: FakeLlm;

const BLUEPRINT = `title: NUL replies
models: [openai:model-1]
---
- id: nul-content
  prompt: "Say NUL in content"
  should: [{$contains: after}, "Mentions after"]
- id: nul-tool
  prompt: "Say NUL in a tool call"
  should: [{$contains: x}]
- id: lone-surrogate
  prompt: "Say a lone surrogate"
  should: [{$contains: text}]
- id: huge
  prompt: "Say a huge thing"
  should: [{$contains: x}]
- id: nul-error
  prompt: "Fail with NUL in the error"
  should: [{$contains: x}]
`;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({
    rules: [
      { model: 'judge-a', judge: { labels: { E: 1 }, reasoning: 'judge\u0000reasoning' } },
      { lastUser: 'NUL in content', reply: 'before\u0000after' },
      { lastUser: 'NUL in a tool call', toolCalls: [{ name: 'lookup', arguments: { q: 'x\u0000y', 'k\u0000': 'v' } }] },
      { lastUser: 'lone surrogate', reply: 'bad \uD800 text' },
      { lastUser: 'huge thing', reply: 'x'.repeat(MAX_REPLY_CHARS + 10) },
      { lastUser: 'NUL in the error', error: { status: 400, message: 'bad\u0000request' } },
    ],
  });
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

describe(`replies PostgreSQL refuses as written (${process.env.ASSAY_TEST_DB})`, () => {
  it('are stored escaped and graded, or stored as error replies; the run completes', async () => {
    const { blueprintId } = await storeBlueprint(t.db, 'nul-replies.yml', BLUEPRINT);
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', judges: ['openai:judge-a#standard'] }, noDispatch, { judges: [], defaultCollection: 'CORE', judgeSamples: 1 });
    expect(await executeRun(await fakeDeps(t.db, fake.url), runId)).toBe('completed');

    const replies = new Map((await t.db.reply.findMany({ where: { runId } })).map((r) => [r.promptKey, r]));
    expect(replies.size).toBe(5);
    expect(replies.get('nul-content')).toMatchObject({ content: 'before\u2400after', error: null });
    expect(replies.get('nul-tool')!.error).toBeNull();
    expect(replies.get('nul-tool')!.toolCalls).toMatchObject([{ name: 'lookup', arguments: { q: 'x\u2400y', 'k\u2400': 'v' } }]);
    expect(replies.get('lone-surrogate')).toMatchObject({ content: 'bad \uFFFD text', error: null });
    expect(replies.get('huge')).toMatchObject({ content: '', errorKind: 'unstorable' });
    expect(replies.get('huge')!.error).toMatch(/too long to store/);
    expect(replies.get('nul-error')).toMatchObject({ errorKind: 'bad_request' });
    expect(replies.get('nul-error')!.error).toContain('bad\u2400request');

    // Graded on what was stored: `$contains: after` passes on the escaped content.
    const verdicts = await t.db.verdict.findMany({ where: { runId, promptKey: 'nul-content' }, orderBy: { pointIndex: 'asc' } });
    expect(verdicts.map((v) => v.status)).toEqual(['pass', 'pass']);
    expect(verdicts[0]!.score).toBe(1);
    expect(JSON.stringify(verdicts[1]!.judges)).toContain('judge\u2400reasoning');
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({ status: 'completed', doneCalls: 5, errorCalls: 2, error: null });
  });
});
