/**
 * The call ledger's two promises under its group commit (commits that do not wait for their
 * WAL flush): a budget is granted exactly, never over, however the concurrent reservations
 * and records fall into batches; and the relaxed commit stays inside
 * the ledger's own transactions (a session left with `synchronous_commit = off` would make the
 * replies and verdicts written on it lose their durability).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NOTHING_SERVED } from '@/lib/core';
import { poolOf } from '../../db/client';
import { freshDatabase, testEngine, type TestDatabase } from '../../db/db.testkit';
import type { ChatResponse } from '../../providers';
import { recordCall, reserveCall } from './call-ledger';
import { storeBlueprint } from '../runs.testkit';

let t: TestDatabase;

beforeAll(async () => {
  t = await freshDatabase();
});
afterAll(async () => {
  await t.close();
});

const reply = (content: string): ChatResponse => ({ content, toolCalls: [], finishReason: 'stop', usage: null, costUsd: null, logprobs: null, latencyMs: 1, served: NOTHING_SERVED });

async function runWithBudget(maxCalls: number): Promise<string> {
  const { blueprintId } = await storeBlueprint(t.db, `ledger-${maxCalls}.yml`, 'title: Ledger\n---\n- id: p\n  prompt: q\n  should: [a]\n');
  const { latestVersionId } = await t.db.blueprint.findUniqueOrThrow({ where: { id: blueprintId }, select: { latestVersionId: true } });
  const run = await t.db.run.create({ data: { identityHash: `ledger-${maxCalls}`, blueprintId, versionId: latestVersionId!, trigger: 'cli', models: [], judges: [], config: {}, maxCalls } });
  return run.id;
}

it('grants a budget of 50 calls to exactly 50 of 300 concurrent callers, with records landing between the reservations', async () => {
  const runId = await runWithBudget(50);
  const outcomes = await Promise.all(
    Array.from({ length: 300 }, async (_, i) => {
      const outcome = await reserveCall(t.db, { runId, holder: null });
      // a granted call is made and recorded at once, so records and reservations share batches
      if (outcome === 'ok') await recordCall(t.db, { runId, cache: { key: `ledger-key-${i}`, modelId: 'openai:m', response: reply(`r${i}`) }, cost: 0.01 });
      return outcome;
    }),
  );
  expect(outcomes.filter((o) => o === 'ok')).toHaveLength(50);
  expect(outcomes.filter((o) => o === 'budget')).toHaveLength(250);
  const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
  expect(run.providerCalls).toBe(50);
  expect(run.reservedCalls).toBe(0);
  expect(run.costUsd).toBeCloseTo(0.5, 10);
  expect(await t.db.responseCache.count({ where: { key: { startsWith: 'ledger-key-' } } })).toBe(50);
});

it('leaves every pooled session committing synchronously after ledger statements ran on them', async () => {
  const runId = await runWithBudget(1_000);
  await Promise.all(Array.from({ length: 200 }, () => reserveCall(t.db, { runId, holder: null })));
  const pool = poolOf(t.db);
  // hold as many sessions as the pool has at once, so each one the ledger used is asked
  const sessions = await Promise.all(Array.from({ length: pool.options.max ?? 10 }, () => pool.connect()));
  try {
    const modes = await Promise.all(sessions.map(async (s) => (await s.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]!.synchronous_commit));
    expect(modes.every((m) => m === 'on')).toBe(true);
  } finally {
    for (const s of sessions) s.release();
  }
});

it('commits the record a reservation carries first, whatever the reservation’s outcome', async () => {
  const runId = await runWithBudget(2);
  expect(await reserveCall(t.db, { runId, holder: null })).toBe('ok');
  // the slot's next call: the first call's record travels with its reservation
  const first = { runId, cache: { key: 'carried-1', modelId: 'openai:m', response: reply('one') }, cost: 0.25 };
  expect(await reserveCall(t.db, { runId, holder: null }, first)).toBe('ok');
  let run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
  expect({ made: run.providerCalls, reserved: run.reservedCalls, cost: run.costUsd }).toEqual({ made: 1, reserved: 1, cost: 0.25 });
  // the budget is spent (one made, one on the wire): refused, and the carried record still counts
  const second = { runId, cache: { key: 'carried-2', modelId: 'openai:m', response: reply('two') }, cost: 0.5 };
  expect(await reserveCall(t.db, { runId, holder: null }, second)).toBe('budget');
  run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
  expect({ made: run.providerCalls, reserved: run.reservedCalls, cost: run.costUsd }).toEqual({ made: 2, reserved: 0, cost: 0.75 });
  expect(await t.db.responseCache.count({ where: { key: { in: ['carried-1', 'carried-2'] } } })).toBe(2);
  // a lapsed lease refuses the reservation, and the record still lands
  await t.db.run.update({ where: { id: runId }, data: { maxCalls: null, leaseHolder: 'someone-else' } });
  expect(await reserveCall(t.db, { runId, holder: 'me' }, { runId, cache: null, cost: 0 })).toBe('lease');
  // (that record reconciles a reservation no one holds: the counter cannot go below zero)
  run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
  expect({ made: run.providerCalls, reserved: run.reservedCalls }).toEqual({ made: 3, reserved: 0 });
});

// Inserting a reply or a verdict takes a key-share lock on its run's row (the foreign key) until
// its transaction ends. A grading transaction holding those on two runs once deadlocked with a
// reservation for both: the reservation must not wait on them at all. PGlite has one session,
// so no second transaction can hold locks beside the ledger's.
it.skipIf(testEngine() === 'pglite')('reserves and records while another transaction holds key-share locks on the runs (rows of the runs being inserted)', async () => {
  const [a, b] = [await runWithBudget(10), await runWithBudget(11)];
  const holder = await poolOf(t.db).connect();
  try {
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM runs WHERE id = ANY($1::text[]) FOR KEY SHARE', [[a, b]]);
    const ledger = Promise.all([
      reserveCall(t.db, { runId: a, holder: null }),
      reserveCall(t.db, { runId: b, holder: null }, { runId: b, cache: { key: 'key-share-b', modelId: 'openai:m', response: reply('b') }, cost: 0.1 }),
    ]);
    const waited = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 3_000));
    expect(await Promise.race([ledger, waited])).toEqual(['ok', 'ok']);
  } finally {
    await holder.query('ROLLBACK');
    holder.release();
  }
  const run = await t.db.run.findUniqueOrThrow({ where: { id: b } });
  expect({ made: run.providerCalls, reserved: run.reservedCalls }).toEqual({ made: 1, reserved: 1 });
});
