/**
 * Group commit of verdicts: concurrent writers share statements, each resolves only when its
 * rows are committed, a retry inserts and counts nothing twice, and one bad grading fails
 * alone, never its neighbours in the batch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { freshDatabase, type TestDatabase } from '../db.testkit';
import { COPY_MIN_ROWS, GradingWriter, writeGradings, type Grading } from './grading-writer';
import { storeBlueprint } from '../../runs/runs.testkit';
import { foldVerdictCounts, liveVerdictCounts } from '../verdict-counts';

let t: TestDatabase;
let runId: string;
const replies: { id: string; promptKey: string; modelId: string }[] = [];

beforeAll(async () => {
  t = await freshDatabase();
  const { blueprintId } = await storeBlueprint(t.db, 'writer.yml', 'title: Writer\n---\n- id: p\n  prompt: q\n  should: [a]\n');
  const bp = await t.db.blueprint.findUniqueOrThrow({ where: { id: blueprintId }, select: { latestVersionId: true } });
  runId = (await t.db.run.create({ data: { identityHash: 'w', blueprintId, versionId: bp.latestVersionId!, trigger: 'cli', models: [], judges: [], config: {} } })).id;
  const made = await t.db.reply.createManyAndReturn({
    data: Array.from({ length: 240 }, (_, i) => ({ runId, promptKey: `p${i}`, modelId: 'm', turns: [], content: `reply ${i}` })),
    select: { id: true, promptKey: true, modelId: true },
  });
  replies.push(...made.sort((x, y) => Number(x.promptKey.slice(1)) - Number(y.promptKey.slice(1))));
});
afterAll(async () => t?.close());

/** The counters every reader sees: the run's row plus its unfolded rows (verdict-counts.ts). */
const counts = async (run: string) => (await liveVerdictCounts(t.db, [run])).get(run)!;

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
    expect(await counts(runId)).toEqual({ doneVerdicts: 90, errorVerdicts: 3 });
    // A retried step (same rows again) inserts and counts nothing.
    await Promise.all(batch.slice(0, 5).map((r) => writer.write(grading(r))));
    expect(await t.db.verdict.count({ where: { runId } })).toBe(90);
    expect((await counts(runId)).doneVerdicts).toBe(90);
  });

  it('two writers (two workers) with batches in flight over two runs at once: no deadlock, every counter exact', async () => {
    const bp = await t.db.run.findUniqueOrThrow({ where: { id: runId }, select: { blueprintId: true, versionId: true } });
    const runs = await Promise.all(['w3', 'w4'].map(async (identityHash) => (await t.db.run.create({ data: { identityHash, ...bp, trigger: 'cli', models: [], judges: [], config: {} } })).id));
    const ofRun = await Promise.all(
      runs.map((run) => t.db.reply.createManyAndReturn({ data: Array.from({ length: 200 }, (_, i) => ({ runId: run, promptKey: `q${i}`, modelId: 'm', turns: [], content: `r ${i}` })), select: { id: true, promptKey: true, modelId: true, runId: true } })),
    );
    // Interleaved, so that a batch holds both runs' rows; big enough for the COPY path on a server.
    const all = ofRun[0]!.flatMap((r, i) => [r, ofRun[1]![i]!]).map((r, i) => {
      const g = grading(r, (i >> 1) % 2 === 0 ? 'error' : 'pass');
      return { ...g, runId: r.runId, rows: g.rows.map((row) => ({ ...row, runId: r.runId })) };
    });
    const writers = [new GradingWriter(t.db), new GradingWriter(t.db)];
    await Promise.all(all.map((g, i) => writers[i % 2]!.write(g)));
    for (const run of runs) {
      expect(await t.db.verdict.count({ where: { runId: run } })).toBe(600);
      expect(await counts(run)).toEqual({ doneVerdicts: 600, errorVerdicts: 100 });
      expect(await t.db.attemptScore.count({ where: { runId: run } })).toBe(200);
    }
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

  it('the bulk path (COPY, server only) and the array path store the same rows, and a retried batch stores nothing twice', async () => {
    // Two runs of the same replies' gradings, one through each path; compared column by column.
    const bp = await t.db.run.findUniqueOrThrow({ where: { id: runId }, select: { blueprintId: true, versionId: true } });
    const other = (await t.db.run.create({ data: { identityHash: 'w2', ...bp, trigger: 'cli', models: [], judges: [], config: {} } })).id;
    const tricky = { reasoning: 'tab\there, newline\nthere, back\\slash, nul \u0000, a lone \uD800 and \\N', detail: null };
    // NUL and a lone surrogate inside JSON too (JSON.stringify writes them as escapes jsonb refuses); only some rows, so a chunk mixes clean and unstorable rows
    const batch = (run: string) =>
      replies.slice(40, 40 + 100).map((r, i) => {
        const g = grading(r, i % 7 === 0 ? 'error' : 'pass');
        const judges = i % 10 === 3 ? [{ judge: 'j\u0000', score: 0.5, note: 'half \uDC00' }] : [{ judge: 'j', score: 0.5 }];
        return { ...g, runId: run, rows: g.rows.map((row) => ({ ...row, runId: run, ...tricky, judges, distribution: { A: 0.25, E: 0.75 } })) };
      });
    expect(batch(runId).flatMap((g) => g.rows).length).toBeGreaterThanOrEqual(COPY_MIN_ROWS);
    const copy = t.engine === 'postgres' ? 'copy' : 'arrays'; // PGlite's socket server does not survive COPY FROM STDIN
    await writeGradings(t.db, batch(runId), { path: copy });
    await writeGradings(t.db, batch(other), { path: 'arrays' });
    // Retried: the same batch again inserts and counts nothing, on either path.
    await writeGradings(t.db, batch(runId), { path: copy });
    await writeGradings(t.db, batch(other), { path: 'arrays' });

    const rowsOf = async (run: string) =>
      (await t.db.verdict.findMany({ where: { runId: run, replyId: { in: replies.slice(40, 140).map((r) => r.id) } }, orderBy: [{ replyId: 'asc' }, { pointIndex: 'asc' }] })).map(
        ({ id: _id, runId: _run, createdAt: _at, ...rest }) => rest,
      );
    const viaCopy = await rowsOf(runId);
    expect(viaCopy).toHaveLength(300);
    expect(viaCopy).toEqual(await rowsOf(other));
    expect(viaCopy[0]!.reasoning).toBe(tricky.reasoning.replace('\u0000', '\u2400').replace('\uD800', '\uFFFD')); // NUL stored as ␀ (storable-text.ts)
    expect(viaCopy.filter((v) => JSON.stringify(v.judges).includes('half \uFFFD') && JSON.stringify(v.judges).includes('j\u2400'))).toHaveLength(30);
    const [a, b] = await Promise.all([runId, other].map(counts));
    expect(b!.doneVerdicts).toBe(300);
    expect(b!.errorVerdicts).toBe(15);
    expect(a!.doneVerdicts - 105).toBe(300); // 90 + 15 from the tests above
    expect(await t.db.attemptScore.count({ where: { runId: other } })).toBe(100);
  });

  it('folds the counters into the run while writers append: nothing lost, nothing counted twice', async () => {
    const bp = await t.db.run.findUniqueOrThrow({ where: { id: runId }, select: { blueprintId: true, versionId: true } });
    const run = (await t.db.run.create({ data: { identityHash: 'w5', ...bp, trigger: 'cli', models: [], judges: [], config: {} } })).id;
    const made = await t.db.reply.createManyAndReturn({ data: Array.from({ length: 300 }, (_, i) => ({ runId: run, promptKey: `f${i}`, modelId: 'm', turns: [], content: `r ${i}` })), select: { id: true, promptKey: true, modelId: true } });
    const writer = new GradingWriter(t.db);
    let writing = true;
    const seen: number[] = [];
    // Folds and reads race the writes; every read must be a count some moment really had (never more than written, never going back).
    const folding = (async () => {
      while (writing) {
        await foldVerdictCounts(t.db, run);
        seen.push((await counts(run)).doneVerdicts);
      }
    })();
    await Promise.all(made.map((r, i) => writer.write({ ...grading(r, i % 4 === 0 ? 'error' : 'pass'), runId: run, rows: grading(r).rows.map((row, p) => ({ ...row, runId: run, status: p === 2 && i % 4 === 0 ? 'error' : 'pass' })) })));
    writing = false;
    await folding;
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((n, i) => n <= 900 && n % 3 === 0 && (i === 0 || n >= seen[i - 1]!))).toBe(true);
    expect(await counts(run)).toEqual({ doneVerdicts: 900, errorVerdicts: 75 });
    await foldVerdictCounts(t.db, run);
    const row = await t.db.run.findUniqueOrThrow({ where: { id: run }, select: { doneVerdicts: true, errorVerdicts: true } });
    expect(row).toEqual({ doneVerdicts: 900, errorVerdicts: 75 });
    expect(await t.db.runVerdictCount.count({ where: { runId: run } })).toBe(0);
    await foldVerdictCounts(t.db, run); // a second fold has nothing to move
    expect(await counts(run)).toEqual({ doneVerdicts: 900, errorVerdicts: 75 });
  });
});
