/**
 * Why a run waits and until when, stored in `run_waits` (one row per run and model) so the
 * progress page and the run header can say it: a run whose provider answered 429 with a
 * `retry-after` of an hour otherwise sits at the same count with a growing estimate, and the
 * reason is only in the worker's terminal.
 *
 * The gateway notes a wait before each retry's sleep (providers/retry.ts `onRetry`) and clears
 * it once a call of the same model that was sent after the note went through: calls flow again.
 * A call that gives up (its attempts spent) clears it too when no other call of this process
 * still waits on that model. Batch mode notes each model whose provider batch is still open,
 * with the next poll, and clears them when nothing waits for a batch any more. A finished run's
 * rows are not read (the queries skip them) and go with the run.
 *
 * The writes are off the provider's path: queued per run and model (so a note and the clear that
 * follows it land in that order), and a failed write is logged, never a failed call.
 */
import { runWaitKindOf, type RunWaitKind } from '@/lib/core';
import type { Db } from '../../db/client';
import { storableText } from '../../db/storable-text';
import type { ProviderError } from '../../providers';

export interface WaitNote {
  runId: string;
  modelId: string;
  provider: string;
  kind: RunWaitKind;
  message: string | null;
  httpStatus: number | null;
  retryAfterAt: Date | null;
  nextAttemptAt: Date | null;
  attempt: number;
}

/** Longest provider message kept with a wait: the page shows it as a detail. */
const MAX_MESSAGE = 500;

/** Writes (or renews) one model's wait; `since` stays that of the first note of an unbroken wait. */
export async function noteRunWait(db: Db, note: WaitNote, at: Date): Promise<void> {
  const fields = {
    provider: note.provider,
    kind: note.kind,
    message: note.message === null ? null : storableText(note.message.slice(0, MAX_MESSAGE)),
    httpStatus: note.httpStatus,
    retryAfterAt: note.retryAfterAt,
    nextAttemptAt: note.nextAttemptAt,
    attempt: note.attempt,
    updatedAt: at,
  };
  await db.runWait.upsert({
    where: { runId_modelId: { runId: note.runId, modelId: note.modelId } },
    create: { runId: note.runId, modelId: note.modelId, since: at, ...fields },
    update: fields,
  });
}

/** Clears a model's wait noted at or before `notAfter` (a later note is news a call sent earlier cannot contradict). */
export async function clearRunWait(db: Db, runId: string, modelId: string, notAfter: Date): Promise<void> {
  await db.runWait.deleteMany({ where: { runId, modelId, updatedAt: { lte: notAfter } } });
}

/** The note for a provider failure about to be retried after `delayMs`. */
export function retryWaitNote(runId: string, modelId: string, info: { attempt: number; delayMs: number; error: ProviderError }, at: Date): WaitNote {
  const { error } = info;
  return {
    runId,
    modelId,
    provider: error.provider,
    kind: runWaitKindOf(error),
    message: error.message,
    httpStatus: error.status ?? null,
    retryAfterAt: error.retryAfterMs === undefined ? null : new Date(at.getTime() + error.retryAfterMs),
    nextAttemptAt: new Date(at.getTime() + info.delayMs),
    attempt: info.attempt,
  };
}

interface KeyState {
  /** The writes of this run and model, in order. */
  chain: Promise<void>;
  /** When this process last noted a wait that is not cleared yet; null: none. */
  notedAt: Date | null;
  /** Calls of this process that waited at least once and have not ended. */
  waiting: number;
}

/**
 * The gateway's side: one per gateway (a process's calls), keyed by run and model. Only a call
 * that waited, or a success while a note stands, touches the database: the ordinary call path
 * costs a map lookup.
 */
export class RunWaits {
  private readonly keys = new Map<string, KeyState>();

  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
    private readonly onError: (e: unknown) => void = (e) => console.error(`assay: could not record why a run waits: ${(e as Error).message}`),
  ) {}

  private state(runId: string, modelId: string): KeyState {
    const key = `${runId}\u0000${modelId}`;
    let s = this.keys.get(key);
    if (!s) this.keys.set(key, (s = { chain: Promise.resolve(), notedAt: null, waiting: 0 }));
    return s;
  }

  private enqueue(s: KeyState, write: () => Promise<void>): void {
    s.chain = s.chain.then(write).catch(this.onError);
  }

  private forget(runId: string, modelId: string, s: KeyState): void {
    if (s.waiting === 0 && s.notedAt === null) {
      const key = `${runId}\u0000${modelId}`;
      // the last write still runs; nothing else needs the state
      void s.chain.then(() => {
        if (this.keys.get(key) === s && s.waiting === 0 && s.notedAt === null) this.keys.delete(key);
      });
    }
  }

  /** A call is about to sleep before its next attempt. `first`: its first wait (it counts as waiting from now). */
  retrying(runId: string, modelId: string, info: { attempt: number; delayMs: number; error: ProviderError }, first: boolean): void {
    const s = this.state(runId, modelId);
    if (first) s.waiting++;
    const at = this.now();
    s.notedAt = at;
    const note = retryWaitNote(runId, modelId, info, at);
    this.enqueue(s, () => noteRunWait(this.db, note, at));
  }

  /**
   * A call of the model ended. `sentAt`: when its successful attempt was sent (absent: it failed
   * for good). `waited`: it had waited, so it stops counting as waiting.
   */
  ended(runId: string, modelId: string, outcome: { sentAt?: Date; waited: boolean }): void {
    const key = `${runId}\u0000${modelId}`;
    const s = this.keys.get(key);
    if (!s) return;
    if (outcome.waited) s.waiting = Math.max(0, s.waiting - 1);
    const { notedAt } = s;
    if (notedAt === null) return this.forget(runId, modelId, s);
    // Calls flow again: one sent after the last note went through. Or the last call that waited
    // gave up (its reply is stored as the provider's error): nothing of this process waits now.
    const flowing = outcome.sentAt !== undefined && outcome.sentAt.getTime() >= notedAt.getTime();
    if (!flowing && (outcome.sentAt !== undefined || s.waiting > 0)) return;
    const notAfter = flowing ? outcome.sentAt! : this.now();
    s.notedAt = null;
    this.enqueue(s, () => clearRunWait(this.db, runId, modelId, notAfter));
    this.forget(runId, modelId, s);
  }

  /** Every write queued so far has landed (tests, and a runner before it reads its own notes). */
  async settled(): Promise<void> {
    await Promise.all([...this.keys.values()].map((s) => s.chain));
  }
}

/**
 * Batch mode: the models whose calls wait in an open provider batch, each with the next poll
 * (replacing the run's earlier batch notes); none open clears them.
 */
export async function noteBatchWaits(db: Db, runId: string, open: readonly { provider: string; modelId: string }[], nextPollAt: Date | null, at: Date): Promise<void> {
  const models = [...new Map(open.map((o) => [o.modelId, o])).values()];
  await db.$transaction([
    db.runWait.deleteMany({ where: { runId, kind: 'batch', modelId: { notIn: models.map((m) => m.modelId) } } }),
    ...models.map((m) =>
      db.runWait.upsert({
        where: { runId_modelId: { runId, modelId: m.modelId } },
        create: { runId, modelId: m.modelId, provider: m.provider, kind: 'batch', nextAttemptAt: nextPollAt, since: at, updatedAt: at },
        update: { provider: m.provider, kind: 'batch', message: null, httpStatus: null, retryAfterAt: null, nextAttemptAt: nextPollAt, updatedAt: at },
      }),
    ),
  ]);
}
