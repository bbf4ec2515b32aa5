/**
 * Group commit of verdicts: concurrent writers share statements, each resolves only when its
 * rows are committed, a retry inserts and counts nothing twice, and one bad grading fails
 * alone, never its neighbours in the batch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { GradingWriter, type Grading } from './grading-writer';
import { storeBlueprint } from './runs.testkit';

let t: TestDatabase;
let runId: string;
const replies: { id: string; promptKey: string; modelId: string }[] = [];

beforeAll(async () => {
  t = await freshDatabase();
  const { blueprintId } = await storeBlueprint(t.db, 'writer.yml', 'title: Writer\n---\n- id: p\n  prompt: q\n  should: [a]\n');
  const bp = await t.db.blueprint.findUniqueOrThrow({ where: { id: blueprintId }, select: { latestVersionId: true } });
  runId = (await t.db.run.create({ data: { identityHash: 'w', blueprintId, versionId: bp.latestVersionId!, trigger: 'cli', models: [], judges: [], config: {} } })).id;
  for (let i = 0; i < 40; i++) {
    const r = await t.db.reply.create({ data: { runId, promptKey: `p${i}`, modelId: 'm', turns: [], content: `reply ${i}` } });
    replies.push({ id: r.id, promptKey: r.promptKey, modelId: r.modelId });
  }
});
afterAll(async () => t?.close());

function grading(reply: (typeof replies)[number], status: 'pass' | 'error' = 'pass'): Grading {
  return {
    runId,
    reply,
    rows: [0, 1, 2].map((pointIndex) => ({
      runId,
      replyId: reply.id,
      promptKey: reply.promptKey,
      modelId: reply.modelId,
      pointIndex,
      status: pointIndex === 2 ? status : 'pass',
      score: pointIndex === 2 && status === 'error' ? null : 1,
      kind: 'function',
      pointText: `point ${pointIndex}`,
      weight: 1,
      gate: false,
      path: null,
      source: 'should',
    })),
    attempt: { score: 1, errorCount: status === 'error' ? 1 : 0, gateFailed: false, noApplicable: false },
  };
}

describe(`grading writer (${process.env.ASSAY_TEST_DB})`, () => {
  it('batches concurrent gradings, commits each before resolving, and counts once', async () => {
    const writer = new GradingWriter(t.db);
    const batch = replies.slice(0, 30);
    await Promise.all(batch.map((r, i) => writer.write(grading(r, i % 10 === 0 ? 'error' : 'pass'))));
    expect(await t.db.verdict.count({ where: { runId } })).toBe(90);
    expect(await t.db.attemptScore.count({ where: { runId } })).toBe(30);
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.doneVerdicts).toBe(90);
    expect(run.errorVerdicts).toBe(3);
    // A retried step (same rows again) inserts and counts nothing.
    await Promise.all(batch.slice(0, 5).map((r) => writer.write(grading(r))));
    expect(await t.db.verdict.count({ where: { runId } })).toBe(90);
    expect((await t.db.run.findUniqueOrThrow({ where: { id: runId } })).doneVerdicts).toBe(90);
  });

  it('fails a bad grading alone and stores its neighbours', async () => {
    const writer = new GradingWriter(t.db);
    const good = replies.slice(30, 35).map((r) => writer.write(grading(r)));
    const bad = writer.write(grading({ id: randomUUID(), promptKey: 'ghost', modelId: 'm' })); // no such reply: a foreign-key violation
    const results = await Promise.allSettled([...good, bad]);
    expect(results.slice(0, 5).every((r) => r.status === 'fulfilled')).toBe(true);
    expect(results[5]!.status).toBe('rejected');
    expect(await t.db.attemptScore.count({ where: { runId, promptKey: { in: ['p30', 'p31', 'p32', 'p33', 'p34'] } } })).toBe(5);
  });
});
