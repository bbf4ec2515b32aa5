/**
 * Resume after SIGKILL: `assay run` (a real child process) is killed in the middle of a run
 * of 1,200 provider calls (400 model calls, 800 judge calls) and started again with
 * `--resume`. Nothing stored before the kill is lost or changed, no verdict is stored twice,
 * and the fake's counter shows that no call whose result had been stored was made again
 * (only calls in flight at the moment of the kill can be repeated, at most the concurrency).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { spawnAssay } from '../runs.testkit';

const PROMPTS = 100;
const MODELS = ['openai:model-1', 'openai:model-2', 'openai:model-3', 'openai:model-4'];
const CONCURRENCY = 8;

let t: TestDatabase;
let fake: FakeLlm;
let dir: string;

function blueprint(): string {
  const prompts = Array.from({ length: PROMPTS }, (_, i) => {
    const n = String(i).padStart(3, '0');
    return `- id: q${n}\n  prompt: "Question ${n}: name a prime number greater than ${i * 7}."\n  should:\n    - "Names a prime number greater than ${i * 7}"\n    - $contains: "Fake reply"`;
  });
  return `title: Resume test\ndescription: ${PROMPTS} prompts\n---\n${prompts.join('\n')}\n`;
}

const assay = (args: string[]) =>
  spawnAssay(args, { DATABASE_URL: t.url, ASSAY_LLM_BASE_URL: fake.url, ASSAY_DATA_DIR: 'memory://' });

async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({
    latencyMs: 15,
    keepRequests: 100_000,
    rules: [
      { model: 'judge-a', judge: { labels: { C: 0.5, E: 0.5 } } },
      { model: 'judge-b', judge: { labels: { D: 1 } } },
    ],
  });
  dir = await mkdtemp(join(tmpdir(), 'assay-resume-'));
  await writeFile(join(dir, 'resume-test.yml'), blueprint());
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

describe(`resume after SIGKILL (${process.env.ASSAY_TEST_DB})`, () => {
  it('loses nothing, stores nothing twice and repeats no completed call', { timeout: 300_000 }, async () => {
    const common = ['--models', MODELS.join(','), '--judges', 'openai:judge-a,openai:judge-b', '--concurrency', String(CONCURRENCY), '--quiet'];
    const first = assay(['run', join(dir, 'resume-test.yml'), ...common]);
    await until(() => /run (\S+)/.test(first.stderr()), 60_000, 'the run to start');
    const runId = /run (\S+)/.exec(first.stderr())![1]!;
    // Kill in the middle: after some hundreds of completed calls, well before the 1,200th.
    await until(() => fake.stats().completed >= 500, 120_000, '500 completed calls');
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe(-1);

    const beforeReplies = await t.db.reply.findMany({ where: { runId }, select: { id: true, promptKey: true, modelId: true, content: true } });
    const beforeVerdicts = await t.db.verdict.findMany({ where: { runId }, select: { id: true, replyId: true, pointIndex: true, score: true } });
    expect(beforeReplies.length).toBeGreaterThan(0);
    expect(beforeReplies.length).toBeLessThan(PROMPTS * MODELS.length);
    const interrupted = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(interrupted.status).toBe('running');

    const second = assay(['run', '--resume', runId, ...common]);
    expect(await second.exited, second.stderr()).toBe(0);

    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe('completed');
    const total = PROMPTS * MODELS.length;
    expect(await t.db.reply.count({ where: { runId } })).toBe(total);
    expect(run.doneCalls).toBe(total);
    // Two points per prompt; nothing duplicated (the unique key would refuse it, and the counts agree).
    expect(await t.db.verdict.count({ where: { runId } })).toBe(total * 2);
    expect(run.doneVerdicts).toBe(total * 2);
    expect(await t.db.attemptScore.count({ where: { runId } })).toBe(total);
    const [distinct] = await t.db.$queryRaw<{ n: number }[]>`SELECT count(DISTINCT (reply_id, point_index))::int AS n FROM verdicts WHERE run_id = ${runId}`;
    expect(distinct?.n).toBe(total * 2);

    // Nothing completed before the kill was lost or changed.
    const after = new Map((await t.db.reply.findMany({ where: { runId }, select: { id: true, content: true } })).map((r) => [r.id, r.content]));
    for (const r of beforeReplies) expect(after.get(r.id)).toBe(r.content);
    const afterVerdicts = new Map((await t.db.verdict.findMany({ where: { runId }, select: { id: true, score: true } })).map((v) => [v.id, v.score]));
    for (const v of beforeVerdicts) expect(afterVerdicts.get(v.id)).toBe(v.score);

    // The fake's counter: no model call whose reply was stored before the kill was made twice…
    const stored = new Set(beforeReplies.map((r) => `${r.modelId.replace(/^openai:/, '')}|${r.promptKey}`));
    const completedTwice = new Set([...fake.callsByKey()].filter(([, count]) => count > 1).map(([key]) => key));
    for (const req of fake.requests()) {
      if (req.status !== 200 || !completedTwice.has(req.key) || req.request.model.startsWith('judge')) continue;
      const promptKey = `q${/Question (\d+)/.exec(req.request.messages.at(-1)!.content)![1]}`;
      expect(stored.has(`${req.request.model}|${promptKey}`), `model call for ${promptKey} repeated`).toBe(false);
    }
    // …and the only repeats are calls in flight at the kill: at most the concurrency.
    expect(fake.duplicateCompletedCalls()).toBeLessThanOrEqual(CONCURRENCY);
    expect(fake.stats().completed).toBeGreaterThanOrEqual(1200);
    console.log(
      `resume: killed after ${beforeReplies.length}/${total} replies and ${beforeVerdicts.length} verdicts; ` +
        `${fake.stats().completed} completed calls in all, ${fake.duplicateCompletedCalls()} repeated`,
    );
  });
});
