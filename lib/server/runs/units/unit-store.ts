/**
 * A run's plan under Inngest, in the database (tables run_units and run_plans): one row per unit
 * of work with its state and lease, and per run the current execution's count of units not
 * settled. Inngest caps a step's output at 4 MB and a function run's state at 32 MB
 * (https://www.inngest.com/docs/usage-limits/inngest); a plan of 25,000 prompt × model groups
 * passed the first when it was a step's output. Here each step returns a few numbers.
 *
 * A unit is `blocked` (waiting for `waitsOn` others), `open`, `done` or `failed`. Settling is one
 * statement that marks the unit, unblocks the unit it leads to, and takes it off the plan's
 * count: the counter row is locked by the update, so of two last units settling at once exactly
 * one sees the count reach 0 (counting the open rows instead would let both see the other still
 * open under READ COMMITTED, and neither ask for the finish).
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../db/client';

export interface UnitSpec {
  /** The unit's identity within the run (unique per run). */
  key: string;
  /** What to do (the kind's step: generate, judge, embed, score). */
  step: string;
  /** What the kind needs to process it; small (it is stored, never sent in an event). */
  data: Record<string, string | number>;
  /** Its concurrency keys: one or two (Inngest allows two per function). */
  keys: [string] | [string, string];
  /** The key of the unit this one leads to (that unit waits for every unit leading to it). */
  then?: string;
}

export interface PlannedUnit {
  id: string;
  key1: string;
  key2: string;
}

export interface StoredUnit {
  id: string;
  runId: string;
  execution: string;
  step: string;
  data: Record<string, string | number>;
  state: string;
}

/** A unit's id: the same for the same run, execution and key, so planning twice writes the same rows. */
export function unitId(runId: string, execution: string, key: string): string {
  return `u${createHash('sha256').update(`${runId}\u0000${execution}\u0000${key}`).digest('hex').slice(0, 32)}`;
}

/**
 * Stores an execution's plan: the run's units of any earlier execution go (their slices, if
 * any still run, then settle nothing), this execution's are inserted once, and the plan row
 * counts them. A repeat of the same execution (a retried planning step) changes nothing.
 */
export async function storePlan(db: Db, runId: string, execution: string, specs: UnitSpec[], deadlineMs: number): Promise<{ units: number; open: number }> {
  const ids = new Map(specs.map((s) => [s.key, unitId(runId, execution, s.key)]));
  const waits = new Map<string, number>();
  for (const s of specs) if (s.then) waits.set(s.then, (waits.get(s.then) ?? 0) + 1);
  const rows = specs.map((s) => {
    const id = ids.get(s.key)!;
    const then = s.then ? ids.get(s.then) : undefined;
    if (s.then && !then) throw new Error(`run ${runId}: unit ${s.key} leads to ${s.then}, which is not in the plan`);
    return { id, key: s.key, step: s.step, data: JSON.stringify(s.data), key1: s.keys[0], key2: s.keys[1] ?? `unit:${id}`, waits: waits.get(s.key) ?? 0, then: then ?? null };
  });
  await db.$transaction([
    db.$executeRaw`DELETE FROM run_units WHERE run_id = ${runId} AND execution <> ${execution}`,
    db.$executeRaw`
      INSERT INTO run_units (id, run_id, execution, step, key, data, key1, key2, state, waits_on, then_id, created_at, updated_at)
      SELECT id, ${runId}, ${execution}, step, key, data::jsonb, key1, key2, CASE WHEN waits > 0 THEN 'blocked' ELSE 'open' END, waits, then_id, now(), now()
      FROM unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.step)}::text[], ${rows.map((r) => r.key)}::text[], ${rows.map((r) => r.data)}::text[],
                  ${rows.map((r) => r.key1)}::text[], ${rows.map((r) => r.key2)}::text[], ${rows.map((r) => r.waits)}::int[], ${rows.map((r) => r.then)}::text[])
           AS x(id, step, key, data, key1, key2, waits, then_id)
      ON CONFLICT (id) DO NOTHING`,
    db.$executeRaw`
      INSERT INTO run_plans (run_id, execution, units, open_units, deadline_at, created_at)
      VALUES (${runId}, ${execution}, ${rows.length}, ${rows.length}, now() + make_interval(secs => ${deadlineMs / 1000}), now())
      ON CONFLICT (run_id) DO UPDATE SET execution = EXCLUDED.execution, units = EXCLUDED.units, open_units = EXCLUDED.open_units,
        deadline_at = EXCLUDED.deadline_at, finished_at = NULL, finished_by = NULL, created_at = EXCLUDED.created_at
      WHERE run_plans.execution <> EXCLUDED.execution`,
  ]);
  const plan = await db.runPlan.findUniqueOrThrow({ where: { runId }, select: { units: true, openUnits: true } });
  return { units: plan.units, open: plan.openUnits };
}

/** Open units of the execution after `cursor` (by id), at most `limit`: one chunk of the fan-out. */
export async function openUnits(db: Db, runId: string, execution: string, cursor: string | null, limit: number): Promise<PlannedUnit[]> {
  return db.runUnit.findMany({
    where: { runId, execution, state: 'open', ...(cursor ? { id: { gt: cursor } } : {}) },
    orderBy: { id: 'asc' },
    take: limit,
    select: { id: true, key1: true, key2: true },
  });
}

/** A unit whose lease a slice took, with the milliseconds left before its execution's deadline. */
export interface TakenUnit extends StoredUnit {
  deadlineLeftMs: number | null;
}

/**
 * Takes the unit's lease (the database's clock, as runs' lease in lease.ts) when nobody holds
 * it, we do, or the holder's lease lapsed: the unit with its execution's deadline, in one
 * statement. Otherwise `settled` when it is done or failed (a repeat has nothing to do), `busy`
 * while another live slice holds it, `gone` when a newer execution replaced the plan.
 */
export async function takeUnit(db: Db, id: string, holder: string, ttlMs: number): Promise<TakenUnit | 'settled' | 'busy' | 'gone'> {
  const [taken] = await db.$queryRaw<{ run_id: string; execution: string; step: string; data: Record<string, string | number>; left_ms: number | null }[]>`
    UPDATE run_units u SET holder = ${holder}, lease_expires_at = now() + make_interval(secs => ${ttlMs / 1000}), updated_at = now()
    WHERE u.id = ${id} AND u.state = 'open' AND (u.holder IS NULL OR u.holder = ${holder} OR u.lease_expires_at IS NULL OR u.lease_expires_at < now())
    RETURNING u.run_id, u.execution, u.step, u.data,
      (SELECT (extract(epoch FROM p.deadline_at - now()) * 1000)::float8 FROM run_plans p WHERE p.run_id = u.run_id AND p.execution = u.execution) AS left_ms`;
  if (taken) return { id, runId: taken.run_id, execution: taken.execution, step: taken.step, data: taken.data, state: 'open', deadlineLeftMs: taken.left_ms };
  const u = await db.runUnit.findUnique({ where: { id }, select: { state: true } });
  if (!u) return 'gone';
  return u.state === 'done' || u.state === 'failed' ? 'settled' : 'busy';
}

export async function renewUnit(db: Db, id: string, holder: string, ttlMs: number): Promise<boolean> {
  const n = await db.$executeRaw`
    UPDATE run_units SET lease_expires_at = now() + make_interval(secs => ${ttlMs / 1000}), updated_at = now()
    WHERE id = ${id} AND holder = ${holder}`;
  return n > 0;
}

export async function releaseUnit(db: Db, id: string, holder: string): Promise<void> {
  await db.$executeRaw`UPDATE run_units SET holder = NULL, lease_expires_at = NULL WHERE id = ${id} AND holder = ${holder}`;
}

/** Marks the unit done, unblocks the unit it leads to, takes it off the plan's count: one statement. */
export async function settleUnit(db: Db, id: string): Promise<void> {
  await db.$executeRaw`
    WITH s AS (
      UPDATE run_units SET state = 'done', holder = NULL, lease_expires_at = NULL, updated_at = now()
      WHERE id = ${id} AND state = 'open'
      RETURNING run_id, execution, then_id
    ), d AS (
      UPDATE run_units u SET waits_on = u.waits_on - 1, state = CASE WHEN u.waits_on <= 1 THEN 'open' ELSE u.state END, updated_at = now()
      FROM s WHERE u.id = s.then_id AND u.state = 'blocked'
      RETURNING u.id
    )
    -- d runs to completion unread (PostgreSQL runs every data-modifying WITH once, whatever reads it)
    UPDATE run_plans p SET open_units = p.open_units - 1
    FROM s WHERE p.run_id = s.run_id AND p.execution = s.execution`;
}

/**
 * A unit that failed after its retries: failed (settled), with the unit it led to (nothing is
 * left to grade or score behind it), both off the plan's count. One statement; false when the
 * unit was settled already (or replaced by a newer execution).
 */
export async function failUnit(db: Db, id: string, error: string): Promise<boolean> {
  const n = await db.$executeRaw`
    WITH f AS (
      UPDATE run_units SET state = 'failed', error = ${error}, holder = NULL, lease_expires_at = NULL, updated_at = now()
      WHERE id = ${id} AND state IN ('open', 'blocked')
      RETURNING run_id, execution, then_id
    ), g AS (
      UPDATE run_units u SET state = 'failed', error = 'not started: a unit it waits for failed', updated_at = now()
      FROM f WHERE u.id = f.then_id AND u.state = 'blocked'
      RETURNING u.id
    )
    UPDATE run_plans p SET open_units = p.open_units - 1 - (SELECT count(*) FROM g)::int
    FROM f WHERE p.run_id = f.run_id AND p.execution = f.execution`;
  return n > 0;
}

export interface AfterUnit {
  /** The unit this one led to, when it is open now (its event is sent; the event id dedupes repeats). */
  next: PlannedUnit | null;
  /** Nothing of the plan is left: the finish is asked for (again harmless: the finish runs once). */
  finish: boolean;
}

/**
 * What follows a settled unit, read from the rows (never from who settled it: a retried slice
 * that finds its unit settled by its first invocation sends the same events, which Inngest
 * drops as repeats by their ids).
 */
export async function afterUnit(db: Db, id: string): Promise<AfterUnit> {
  const [row] = await db.$queryRaw<{ next_id: string | null; key1: string | null; key2: string | null; open_units: number | null; current: boolean }[]>`
    SELECT n.id AS next_id, n.key1, n.key2, p.open_units, (p.execution = u.execution) AS current
    FROM run_units u
    LEFT JOIN run_units n ON n.id = u.then_id AND n.state = 'open'
    LEFT JOIN run_plans p ON p.run_id = u.run_id
    WHERE u.id = ${id}`;
  if (!row || !row.current) return { next: null, finish: false };
  return { next: row.next_id ? { id: row.next_id, key1: row.key1!, key2: row.key2! } : null, finish: row.open_units === 0 };
}

/**
 * The one finish of an execution: true for one claimant only (`by`, the id of the event asking
 * for it: a retry of that finish claims it again, another finish event does not), and only once
 * every unit is settled unless `force` (a budget stop, the deadline, a cancel). An execution
 * that stored no plan (it failed before) claims a plan row of its own; an older execution's
 * finish claims nothing once a newer one planned.
 */
export async function claimFinish(db: Db, runId: string, execution: string, opts: { force: boolean; by: string }): Promise<boolean> {
  const n = await db.$executeRaw`
    INSERT INTO run_plans (run_id, execution, units, open_units, deadline_at, finished_at, finished_by, created_at)
    VALUES (${runId}, ${execution}, 0, 0, now(), now(), ${opts.by}, now())
    ON CONFLICT (run_id) DO UPDATE SET finished_at = now(), finished_by = EXCLUDED.finished_by
    WHERE run_plans.execution = EXCLUDED.execution
      AND (run_plans.finished_by = EXCLUDED.finished_by OR (run_plans.finished_at IS NULL AND (run_plans.open_units <= 0 OR ${opts.force})))`;
  return n > 0;
}
