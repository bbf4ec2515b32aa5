/**
 * The gateway's statements per provider call (gateway.ts): the response-cache lookup, and the
 * budget-and-lease reservation with the record of the call its provider slot made before
 * (cache row, reservation reconciled, cost added); a record with no next call to carry it goes
 * alone. Each is group-committed (db/group-commit.ts): concurrent calls of one worker share one
 * statement through the pool, so a provider call costs a fraction of a round trip instead of
 * three. The guarantees are those of one call per statement:
 *  - a reservation is granted only while the lease is held and the budget has room, in the
 *    statement that takes it (the run's row is locked, so concurrent workers see each other);
 *  - a call is recorded before its caller resumes, and before its slot's next call is sent.
 */
import type { ChatResponse } from '../../providers';
import { poolOf, type Db } from '../../db/client';
import { GroupCommit, perClient } from '../../db/group-commit';
import { compareCodeUnits } from '@/lib/core';
import { preparedStatement } from '../../db/prepared';

interface Lookup {
  runId: string;
  cacheNotBefore: Date | null;
  key: string;
}

export interface Reservation {
  runId: string;
  holder: string | null;
}

export type ReservationOutcome = 'ok' | 'budget' | 'lease';

export interface CallRecord {
  runId: string;
  /** The cached response (null: the call failed; it still counts as made). */
  cache: { key: string; modelId: string; response: ChatResponse } | null;
  cost: number;
}

/** Items of a batch by a key, keeping each item's position in the batch. */
function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, { item: T; at: number }[]> {
  const groups = new Map<string, { item: T; at: number }[]>();
  items.forEach((item, at) => {
    const k = key(item);
    const g = groups.get(k);
    if (g) g.push({ item, at });
    else groups.set(k, [{ item, at }]);
  });
  return groups;
}

const CACHE_LOOKUP = preparedStatement('cache-lookup', `WITH hit AS (
         SELECT key, response FROM response_cache WHERE key = ANY($1::text[]) AND ($3::timestamptz IS NULL OR created_at >= $3::timestamptz)
       ), u AS (
         UPDATE runs SET cache_hits = cache_hits + (SELECT count(*) FROM unnest($1::text[]) k JOIN hit ON hit.key = k)::int
         WHERE id = $2 AND EXISTS (SELECT 1 FROM hit) RETURNING 1
       )
       SELECT key, response FROM hit WHERE EXISTS (SELECT 1 FROM u)`);

async function lookupBatch(db: Db, items: Lookup[]): Promise<(ChatResponse | null)[]> {
  const out: (ChatResponse | null)[] = items.map(() => null);
  for (const group of groupBy(items, (l) => `${l.runId}|${l.cacheNotBefore?.toISOString() ?? ''}`).values()) {
    const { runId, cacheNotBefore } = group[0]!.item;
    const keys = group.map((g) => g.item.key);
    // Every asking call that hits is counted, as one statement per call counted them.
    const { rows } = await poolOf(db).query<{ key: string; response: ChatResponse }>(CACHE_LOOKUP([keys, runId, cacheNotBefore]));
    const byKey = new Map(rows.map((r) => [r.key, r.response]));
    for (const g of group) out[g.at] = byKey.get(g.item.key) ?? null;
  }
  return out;
}

/** A reservation, a record, or both: the record of a slot's last call with the reservation of its next (gateway.ts). */
type LedgerOp = { reserve: Reservation; record?: CallRecord } | { reserve?: undefined; record: CallRecord };

interface RunRow {
  runId: string;
  holder: string | null;
  /** Reservations asked, and the batch positions asking. */
  k: number;
  asking: number[];
  /** Calls recorded and their cost. */
  n: number;
  cost: number;
}

const LEDGER = preparedStatement('ledger', `WITH commit_mode AS (
         -- this statement's own transaction commits without waiting for its WAL flush (see ASYNC_COMMIT)
         SELECT set_config('synchronous_commit', 'off', true) AS mode
       ), stored AS (
         INSERT INTO response_cache (key, model_id, response, created_at)
         SELECT k, m, r::jsonb, now() FROM unnest($1::text[], $2::text[], $3::text[]) AS x(k, m, r)
         ON CONFLICT (key) DO UPDATE SET response = EXCLUDED.response, created_at = EXCLUDED.created_at
         RETURNING 1
       ), ask AS (
         SELECT * FROM unnest($4::text[], $5::text[], $6::int[], $7::int[], $8::float8[]) AS a(id, holder, k, n, c)
       ), cur AS (
         -- locked first, so the grant is computed from the latest committed counters even when
         -- another worker changed them in between; NO KEY UPDATE (the lock the UPDATE below takes
         -- anyway), not UPDATE: a plain FOR UPDATE also waits on the key-share locks that inserting
         -- a reply or verdict of the run takes on its row, and a grading transaction holding such
         -- locks on two runs deadlocked with a batch reserving for both (CI, board.db.test.ts)
         -- the holder is the run's (the in-process runner's lease) or, under Inngest, a unit's
         -- (runs/units/unit-store.ts: one slice of the run, its lease live by the database's clock)
         SELECT r.id, r.max_calls, r.max_cost_usd, ask.holder, ask.k,
                (ask.holder IS NULL OR r.lease_holder = ask.holder
                 OR EXISTS (SELECT 1 FROM run_units u WHERE u.run_id = r.id AND u.holder = ask.holder AND u.lease_expires_at > now())) AS held,
                r.provider_calls + ask.n AS calls, GREATEST(r.reserved_calls - ask.n, 0) AS reserved, r.cost_usd + ask.c AS cost
         FROM runs r JOIN ask ON ask.id = r.id ORDER BY r.id FOR NO KEY UPDATE OF r
       ), granted AS (
         SELECT id, holder, calls, reserved, cost, held AS leased,
                CASE WHEN k = 0 OR NOT held OR (max_cost_usd IS NOT NULL AND cost >= max_cost_usd) THEN 0
                     WHEN max_calls IS NULL THEN k
                     ELSE GREATEST(LEAST(k, max_calls - calls - reserved), 0) END AS g
         FROM cur
       ), u AS (
         UPDATE runs r SET provider_calls = g.calls, reserved_calls = g.reserved + g.g, cost_usd = g.cost
         FROM granted g WHERE r.id = g.id AND (SELECT count(*) FROM stored) >= 0 RETURNING 1
       )
       SELECT id, holder, g::int AS granted, leased FROM granted WHERE (SELECT count(*) FROM u) >= 0 AND (SELECT mode FROM commit_mode) IS NOT NULL`);

/**
 * Reservations and records share one statement (and so one commit on the run's row, which
 * every counter update of a run waits on): a batch's records are applied first, then its
 * reservations are granted from the reconciled counters.
 */
async function ledgerBatch(db: Db, ops: LedgerOp[]): Promise<(ReservationOutcome | null)[]> {
  const out: (ReservationOutcome | null)[] = ops.map(() => null);
  // One cache row per key (two identical calls in one batch: the later answer is kept, as two
  // statements in a row would leave it).
  const cached = new Map<string, { modelId: string; response: string }>();
  const rows: RunRow[] = [];
  const rowFor = (runId: string, holder: string | null | undefined): RunRow => {
    let row = rows.find((r) => r.runId === runId && (holder === undefined || r.holder === holder));
    if (!row) rows.push((row = { runId, holder: holder ?? null, k: 0, asking: [], n: 0, cost: 0 }));
    return row;
  };
  // Reservations first, so that a record joins the row of its run's lease holder (one row per run).
  ops.forEach((op, at) => {
    if (!op.reserve) return;
    const row = rowFor(op.reserve.runId, op.reserve.holder);
    row.k++;
    row.asking.push(at);
  });
  for (const { record } of ops) {
    if (!record) continue;
    const row = rowFor(record.runId, undefined);
    row.n++;
    row.cost += record.cost;
    if (record.cache) cached.set(record.cache.key, { modelId: record.cache.modelId, response: JSON.stringify(record.cache.response) });
  }
  // A run's row is updated once per statement: a second lease holder of the same run in one
  // batch (never, while leases hold) goes in a statement of its own.
  const statements: RunRow[][] = [];
  for (const r of rows) {
    const free = statements.find((st) => !st.some((x) => x.runId === r.runId));
    if (free) free.push(r);
    else statements.push([r]);
  }
  for (const [i, st] of statements.entries()) {
    // in key order, as the run rows below are locked in id order: two workers' batches lock alike
    const cache = i === 0 ? [...cached.entries()].sort(([a], [b]) => compareCodeUnits(a, b)) : [];
    const { rows: result } = await poolOf(db).query<{ id: string; holder: string | null; granted: number; leased: boolean }>(LEDGER([cache.map(([k]) => k), cache.map(([, c]) => c.modelId), cache.map(([, c]) => c.response), st.map((r) => r.runId), st.map((r) => r.holder), st.map((r) => r.k), st.map((r) => r.n), st.map((r) => r.cost)]));
    for (const r of st) {
      const row = result.find((x) => x.id === r.runId && x.holder === r.holder);
      const leased = row ? row.leased : r.holder === null;
      const granted = row && leased ? row.granted : 0;
      r.asking.forEach((at, j) => (out[at] = !leased ? 'lease' : j < granted ? 'ok' : 'budget'));
    }
  }
  return out;
}

interface Ledger {
  lookups: GroupCommit<Lookup, ChatResponse | null>;
  calls: GroupCommit<LedgerOp, ReservationOutcome | null>;
}

/*
 * ASYNC_COMMIT: the ledger's statements commit with `synchronous_commit = off` (set for their
 * own transaction only). They are visible to every session at once and survive a crash of the
 * app or worker exactly as before; what a crash of PostgreSQL itself (or the machine) can lose
 * is the ledger commits of the last ~0.6 s (3 × wal_writer_delay) that no synchronous commit
 * has flushed since. Replies and verdicts, the completed work, are written with synchronous
 * commits, and a flush takes all WAL before it: once a reply is durable, so is the record of
 * the call that made it. What can be lost is the record of a call whose reply was not yet
 * written (the call is made again on resume, and counted then) and reservations (holds,
 * reconciled on resume): the budget can under-count by those calls. Waiting for the flush held
 * every provider slot ~2 ms longer per statement: 0.90 → 0.92 of ideal at 100 ms
 * (`npm run bench pipeline`). One batch at a time: two in flight (`parallel: 2`) deadlocked in CI (a cache key and
 * a run row taken in opposite orders by two statements of one process) and measured no faster.
 */

/** Keeps one statement's array parameters to a size PostgreSQL parses quickly. */
const MAX_BATCH = 500;

const ledgerOf = perClient<Db, Ledger>((db) => ({
  lookups: new GroupCommit((items) => lookupBatch(db, items), { maxCost: MAX_BATCH }),
  calls: new GroupCommit((ops) => ledgerBatch(db, ops), { maxCost: MAX_BATCH }),
}));

/** A cached response for `key` (counted as a cache hit of the run), or null. */
export function lookupCached(db: Db, l: Lookup): Promise<ChatResponse | null> {
  return ledgerOf(db).lookups.submit(l);
}

/**
 * Reserves one call of the run's budget, if its lease is held (`holder`) and the budget has
 * room. `after`: a made call recorded in the same statement (applied first), committed when
 * this resolves, whatever the outcome of the reservation.
 */
export async function reserveCall(db: Db, r: Reservation, after?: CallRecord): Promise<ReservationOutcome> {
  return (await ledgerOf(db).calls.submit(after ? { reserve: r, record: after } : { reserve: r })) ?? 'budget';
}

/** Records a made call: its reservation becomes a provider call, its cost is added, its response cached. */
export async function recordCall(db: Db, r: CallRecord): Promise<void> {
  await ledgerOf(db).calls.submit({ record: r });
}
