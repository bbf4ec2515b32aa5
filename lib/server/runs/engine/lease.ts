/**
 * A run's lease (docs/runs.md, "One worker per run: the lease"): only its holder executes the run,
 * so two `assay run --resume` of one run, or two app instances resuming interrupted runs at
 * start, never pay for the same call twice (they made 92 duplicate provider calls before). The
 * lease is two columns on the run (holder, expiry), taken and renewed with the database's clock,
 * so machines with skewed clocks agree:
 *
 *   - take: succeeds when nobody holds the run, the holder is us, or the lease has lapsed;
 *   - renew: a heartbeat every third of the lease; a holder that misses its renewals (a
 *     crash, a frozen process) loses the run after `ttlMs`, and another worker may take it
 *     (at once when the holder was a process of the same machine that no longer exists);
 *   - every provider call re-checks the holder in the statement that reserves the call
 *     (gateway.ts), so a holder whose lease lapsed stops before its next call, even if its
 *     heartbeat has not noticed yet.
 *
 * Taking over a lapsed lease also settles the old holder's reserved calls: they were on the
 * wire when it died, so they count as made (the budget counts calls made, not calls stored).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../../db/client';

export const DEFAULT_LEASE_MS = 30_000;

export interface LeaseHeld {
  ok: true;
  lease: RunLease;
}
export interface LeaseBusy {
  ok: false;
  holder: string;
  expiresAt: Date;
}

/** A holder id that says where the worker runs (shown to whoever finds the run busy). */
export function newHolderId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

export async function takeLease(db: Db, runId: string, opts: { ttlMs?: number; holder?: string } = {}): Promise<LeaseHeld | LeaseBusy> {
  const ttlMs = Math.max(1, Math.round(opts.ttlMs ?? DEFAULT_LEASE_MS));
  const holder = opts.holder ?? newHolderId();
  const taken = await db.$queryRaw<{ id: string }[]>`
    UPDATE runs SET
      provider_calls = provider_calls + CASE WHEN lease_holder IS DISTINCT FROM ${holder} THEN reserved_calls ELSE 0 END,
      reserved_calls = CASE WHEN lease_holder IS DISTINCT FROM ${holder} THEN 0 ELSE reserved_calls END,
      lease_holder = ${holder},
      lease_expires_at = now() + make_interval(secs => ${ttlMs / 1000})
    WHERE id = ${runId} AND (lease_holder IS NULL OR lease_holder = ${holder} OR lease_expires_at IS NULL OR lease_expires_at < now())
    RETURNING id`;
  if (taken.length > 0) return { ok: true, lease: new RunLease(db, runId, holder, ttlMs) };
  const row = await db.run.findUnique({ where: { id: runId }, select: { leaseHolder: true, leaseExpiresAt: true } });
  // A holder on this machine whose process is gone (a killed CLI) cannot renew: no need to
  // wait for its lease to lapse. Holders elsewhere are only ever judged by the expiry.
  if (row?.leaseHolder && deadLocalHolder(row.leaseHolder)) {
    const freed = await db.$executeRaw`UPDATE runs SET lease_expires_at = now() - interval '1 second' WHERE id = ${runId} AND lease_holder = ${row.leaseHolder}`;
    if (freed > 0) return takeLease(db, runId, { ttlMs, holder });
  }
  return { ok: false, holder: row?.leaseHolder ?? 'another worker', expiresAt: row?.leaseExpiresAt ?? new Date() };
}

/** Whether `holder` (from `newHolderId`) names a process of this machine that no longer exists. */
export function deadLocalHolder(holder: string): boolean {
  const m = /^(.*):(\d+):[\w-]+$/.exec(holder);
  if (!m || m[1] !== hostname() || Number(m[2]) === process.pid) return false;
  try {
    process.kill(Number(m[2]), 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export class RunLease {
  #timer: ReturnType<typeof setInterval> | null = null;
  #lost = false;

  constructor(
    private readonly db: Db,
    readonly runId: string,
    readonly holder: string,
    readonly ttlMs: number,
  ) {}

  /** False once a renewal found the lease taken over. */
  get held(): boolean {
    return !this.#lost;
  }

  /** Starts the heartbeat; `onLost` is told once if the lease was taken over. */
  keepAlive(onLost: () => void): void {
    this.#timer = setInterval(() => {
      void this.renew().then(
        (ok) => {
          if (!ok && !this.#lost) {
            this.#lost = true;
            this.stop();
            onLost();
          }
        },
        () => {}, // a missed renewal is retried at the next beat; the expiry is the safety net
      );
    }, Math.max(50, Math.floor(this.ttlMs / 3)));
    this.#timer.unref?.();
  }

  async renew(): Promise<boolean> {
    const n = await this.db.$executeRaw`
      UPDATE runs SET lease_expires_at = now() + make_interval(secs => ${this.ttlMs / 1000})
      WHERE id = ${this.runId} AND lease_holder = ${this.holder}`;
    return n > 0;
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Gives the run up (finished, or stopped): another worker may take it at once. */
  async release(): Promise<void> {
    this.stop();
    await this.db.$executeRaw`UPDATE runs SET lease_holder = NULL, lease_expires_at = NULL WHERE id = ${this.runId} AND lease_holder = ${this.holder}`;
  }
}
