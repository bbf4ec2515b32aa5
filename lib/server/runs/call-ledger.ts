/**
 * The gateway's three statements per provider call (gateway.ts): the response-cache lookup,
 * the budget-and-lease reservation, and the record of the made call (cache row, reservation
 * reconciled, cost added). Each is group-committed (db/group-commit.ts): concurrent calls of
 * one worker share one statement through the pool, so a provider call costs a fraction of a
 * round trip instead of three. The guarantees are those of one call per statement:
 *  - a reservation is granted only while the lease is held and the budget has room, in the
 *    statement that takes it (the run's row is locked, so concurrent workers see each other);
 *  - a call is recorded before its caller resumes (and before its provider slot is freed).
 */
import type { ChatResponse } from '../providers';
import { poolOf, type Db } from '../db/client';
import { GroupCommit, perClient } from '../db/group-commit';

interface Lookup {
  runId: string;
  cacheNotBefore: Date | null;
  key: string;
}

interface Reservation {
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

async function lookupBatch(db: Db, items: Lookup[]): Promise<(ChatResponse | null)[]> {
  const out: (ChatResponse | null)[] = items.map(() => null);
  for (const group of groupBy(items, (l) => `${l.runId}|${l.cacheNotBefore?.toISOString() ?? ''}`).values()) {
    const { runId, cacheNotBefore } = group[0]!.item;
    const keys = group.map((g) => g.item.key);
    // Every asking call that hits is counted, as one statement per call counted them.
    const { rows } = await poolOf(db).query<{ key: string; response: ChatResponse }>(
      `WITH hit AS (
         SELECT key, response FROM response_cache WHERE key = ANY($1::text[]) AND ($3::timestamptz IS NULL OR created_at >= $3::timestamptz)
       ), u AS (
         UPDATE runs SET cache_hits = cache_hits + (SELECT count(*) FROM unnest($1::text[]) k JOIN hit ON hit.key = k)::int
         WHERE id = $2 AND EXISTS (SELECT 1 FROM hit) RETURNING 1
       )
       SELECT key, response FROM hit WHERE EXISTS (SELECT 1 FROM u)`,
      [keys, runId, cacheNotBefore],
    );
    const byKey = new Map(rows.map((r) => [r.key, r.response]));
    for (const g of group) out[g.at] = byKey.get(g.item.key) ?? null;
  }
  return out;
}

async function reserveBatch(db: Db, items: Reservation[]): Promise<ReservationOutcome[]> {
  const out: ReservationOutcome[] = items.map(() => 'budget');
  for (const group of groupBy(items, (r) => `${r.runId}|${r.holder ?? ''}`).values()) {
    const { runId, holder } = group[0]!.item;
    // The row is locked first, so `granted` is computed from its latest committed values even
    // when another worker reserved in between; the update then adds exactly that.
    const { rows } = await poolOf(db).query<{ granted: number; leased: boolean }>(
      `WITH cur AS (
         SELECT id, lease_holder,
                CASE WHEN ($2::text IS NOT NULL AND lease_holder IS DISTINCT FROM $2::text) OR (max_cost_usd IS NOT NULL AND cost_usd >= max_cost_usd) THEN 0
                     WHEN max_calls IS NULL THEN $3::int
                     ELSE GREATEST(LEAST($3::int, max_calls - provider_calls - reserved_calls), 0) END AS n
         FROM runs WHERE id = $1 FOR UPDATE
       ), u AS (
         UPDATE runs r SET reserved_calls = r.reserved_calls + cur.n FROM cur WHERE r.id = cur.id AND cur.n > 0 RETURNING 1
       )
       SELECT n::int AS granted, ($2::text IS NULL OR lease_holder = $2::text) AS leased, (SELECT count(*) FROM u) AS updated FROM cur`,
      [runId, holder, group.length],
    );
    const row = rows[0];
    const leased = row ? row.leased : holder === null;
    const granted = row && leased ? row.granted : 0;
    group.forEach((g, i) => (out[g.at] = !leased ? 'lease' : i < granted ? 'ok' : 'budget'));
  }
  return out;
}

async function recordBatch(db: Db, items: CallRecord[]): Promise<void[]> {
  // One cache row per key (two identical calls in one batch: the later answer is kept, as two
  // statements in a row would leave it).
  const cached = new Map<string, { modelId: string; response: string }>();
  for (const r of items) if (r.cache) cached.set(r.cache.key, { modelId: r.cache.modelId, response: JSON.stringify(r.cache.response) });
  const perRun = new Map<string, { n: number; cost: number }>();
  for (const r of items) {
    const t = perRun.get(r.runId) ?? { n: 0, cost: 0 };
    t.n++;
    t.cost += r.cost;
    perRun.set(r.runId, t);
  }
  const runs = [...perRun.entries()];
  await poolOf(db).query(
    `WITH stored AS (
       INSERT INTO response_cache (key, model_id, response, created_at)
       SELECT k, m, r::jsonb, now() FROM unnest($1::text[], $2::text[], $3::text[]) AS x(k, m, r)
       ON CONFLICT (key) DO UPDATE SET response = EXCLUDED.response, created_at = EXCLUDED.created_at
       RETURNING 1
     )
     UPDATE runs r SET reserved_calls = GREATEST(r.reserved_calls - x.n, 0), provider_calls = r.provider_calls + x.n, cost_usd = r.cost_usd + x.c
     FROM unnest($4::text[], $5::int[], $6::float8[]) AS x(id, n, c)
     WHERE r.id = x.id AND (SELECT count(*) FROM stored) >= 0`,
    [[...cached.keys()], [...cached.values()].map((c) => c.modelId), [...cached.values()].map((c) => c.response), runs.map(([id]) => id), runs.map(([, t]) => t.n), runs.map(([, t]) => t.cost)],
  );
  return items.map(() => undefined);
}

interface Ledger {
  lookups: GroupCommit<Lookup, ChatResponse | null>;
  reservations: GroupCommit<Reservation, ReservationOutcome>;
  records: GroupCommit<CallRecord, void>;
}

/** Keeps one statement's array parameters to a size PostgreSQL parses quickly. */
const MAX_BATCH = 500;

const ledgerOf = perClient<Db, Ledger>((db) => ({
  lookups: new GroupCommit((items) => lookupBatch(db, items), { maxCost: MAX_BATCH }),
  reservations: new GroupCommit((items) => reserveBatch(db, items), { maxCost: MAX_BATCH }),
  records: new GroupCommit((items) => recordBatch(db, items), { maxCost: MAX_BATCH }),
}));

/** A cached response for `key` (counted as a cache hit of the run), or null. */
export function lookupCached(db: Db, l: Lookup): Promise<ChatResponse | null> {
  return ledgerOf(db).lookups.submit(l);
}

/** Reserves one call of the run's budget, if its lease is held (`holder`) and the budget has room. */
export function reserveCall(db: Db, r: Reservation): Promise<ReservationOutcome> {
  return ledgerOf(db).reservations.submit(r);
}

/** Records a made call: its reservation becomes a provider call, its cost is added, its response cached. */
export function recordCall(db: Db, r: CallRecord): Promise<void> {
  return ledgerOf(db).records.submit(r);
}
