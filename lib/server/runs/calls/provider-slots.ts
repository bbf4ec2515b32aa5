/**
 * Calls in flight per provider across every app instance. Under Inngest each step runs on
 * whichever instance Inngest calls, and the step's calls go through that instance's gateway:
 * Inngest's concurrency keys count steps executing, not the calls inside them
 * (https://www.inngest.com/docs/guides/concurrency), so without a shared limit the calls in
 * flight on a provider are instances × the gateway's per-provider maximum. These slots make
 * the maximum (providers/concurrency.ts) hold for all instances together.
 *
 * A slot is a row of `provider_slots` (provider, slot number) held by one call: taken in one
 * statement (`FOR UPDATE SKIP LOCKED`: concurrent takers never wait on each other's row),
 * given back when the call ends. The hold is a lease, renewed while the call runs, so a slot
 * of an instance that died is free again once its lease lapses (`ttlMs`). A row lock or an
 * advisory lock would not do: Prisma's pool gives each statement any connection, and a
 * session's lock would have to keep one connection per call in flight. It works the same on
 * PostgreSQL and on the embedded PGlite (plain SQL; PGlite serialises the statements).
 *
 * Cost: two short statements per call (take, give back) on an UNLOGGED table (its commits wait
 * for no disk flush; its rows are worthless after a crash anyway); `npm run bench --
 * provider-slots` measures them against two plain `SELECT 1` round trips. A taker that finds
 * none free polls again with a growing, jittered wait.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client';

/** Gives back a slot taken with `SharedSlots.take`. */
export type GiveBack = () => Promise<void>;

/** The port the gateway holds a slot through (absent: the gateway's own per-process limit only). */
export interface SharedSlots {
  /** Waits for one of `limit` slots of `provider`; the caller gives it back when its call ends. */
  take(provider: string, limit: number, signal?: AbortSignal): Promise<GiveBack>;
}

export interface DatabaseSlotsOptions {
  /** How long a hold lasts without renewal: a dead instance's slots are free after this. Default 60 s. */
  ttlMs?: number;
  /** How often a held slot is renewed. Default a third of the TTL. */
  renewMs?: number;
  /** The first wait when no slot is free (then ×1.5 up to `maxWaitMs`, ±50 % jitter). Default 10 ms, at most 250 ms. */
  firstWaitMs?: number;
  maxWaitMs?: number;
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

export function databaseSlots(db: Db, opts: DatabaseSlotsOptions = {}): SharedSlots {
  const ttlMs = opts.ttlMs ?? 60_000;
  const renewMs = opts.renewMs ?? Math.max(1, Math.floor(ttlMs / 3));
  const firstWaitMs = opts.firstWaitMs ?? 10;
  // a slot freed is found within a quarter second: little against a call of seconds, and a
  // waiting taker costs one short statement per wait
  const maxWaitMs = opts.maxWaitMs ?? 250;
  /** Providers whose rows (up to a limit) this process has inserted. */
  const seeded = new Map<string, number>();

  async function seed(provider: string, limit: number): Promise<void> {
    if ((seeded.get(provider) ?? 0) >= limit) return;
    await db.$executeRaw`INSERT INTO provider_slots (provider, slot) SELECT ${provider}, g FROM generate_series(0, ${limit}::int - 1) AS g ON CONFLICT DO NOTHING`;
    seeded.set(provider, limit);
  }

  async function tryTake(provider: string, limit: number, holder: string): Promise<number | null> {
    const rows = await db.$queryRaw<{ slot: number }[]>`
      UPDATE provider_slots s SET holder = ${holder}, expires_at = now() + ${ttlMs}::int * interval '1 millisecond'
      FROM (
        SELECT slot FROM provider_slots
        WHERE provider = ${provider} AND slot < ${limit}::int AND (holder IS NULL OR expires_at < now())
        ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED
      ) free
      WHERE s.provider = ${provider} AND s.slot = free.slot
      RETURNING s.slot`;
    return rows[0]?.slot ?? null;
  }

  return {
    async take(provider, limit, signal) {
      await seed(provider, limit);
      const holder = randomUUID();
      let wait = firstWaitMs;
      let slot = await tryTake(provider, limit, holder);
      while (slot === null) {
        await pause(wait * (0.5 + Math.random()), signal);
        wait = Math.min(maxWaitMs, wait * 1.5);
        slot = await tryTake(provider, limit, holder);
      }
      const renewal = setInterval(() => {
        db.$executeRaw`UPDATE provider_slots SET expires_at = now() + ${ttlMs}::int * interval '1 millisecond' WHERE provider = ${provider} AND slot = ${slot} AND holder = ${holder}`.catch(() => {});
      }, renewMs);
      renewal.unref?.();
      let given = false;
      return async () => {
        if (given) return;
        given = true;
        clearInterval(renewal);
        await db.$executeRaw`UPDATE provider_slots SET holder = NULL, expires_at = NULL WHERE provider = ${provider} AND slot = ${slot} AND holder = ${holder}`;
      };
    },
  };
}
