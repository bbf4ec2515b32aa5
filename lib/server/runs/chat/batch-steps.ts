/**
 * Batch mode's steps, under both schedulers (the in-process runner polls in a loop; the
 * Inngest driver sleeps with `step.sleep` between polls): the same two steps, repeated until
 * nothing waits for a batch.
 *
 *   collect: run every pending group's cells (generation and grading: steps.ts's processGroup)
 *            through a round gateway (batch-gateway.ts). Cells answered by imported lines, the
 *            cache or a live call are stored and graded as in live mode; the other calls are
 *            written as one batch per provider and model and submitted (budget reserved first).
 *   poll:    retrieve every open batch; an ended one is imported, exactly once (batch-store.ts).
 *
 * A killed run resumes with its batches in the database: it polls them, never submits their
 * lines again, and imports each line once (by run and call key).
 */
import pLimit from 'p-limit';
import { BATCH_PRICE_FACTOR, isProviderError, resolveModel, sleep, withRetry, type BatchApi, type BatchLineResult, type ProviderError } from '../../providers';
import { storable } from '../../db/storable-text';
import { DeferredToBatch, batchRoundGateway, type PendingLine, type RoundGatewayOptions, type RoundState } from '../calls/batch-gateway';
import { importLines, importedLines, openBatches, recordBatch, recordPoll, releaseBatchCalls, reserveBatchCalls, type BatchLines, type LineToImport } from '../calls/batch-store';
import type { RunDeps } from '../engine/deps';
import { BudgetExceededError } from '../engine/errors';
import type { RunContext } from '../engine/run-context';
import { pendingGroups, processGroup, type GroupOptions } from './steps';
import { noteBatchWaits } from '../calls/run-waits';

/** Lines per submitted batch (OpenAI allows 50,000, Anthropic 100,000: well under both). */
export const MAX_BATCH_LINES = 10_000;
const GROUPS_IN_FLIGHT = 16;
export const DEFAULT_BATCH_POLL_MS = 60_000;

export interface CollectOutcome {
  /** Batches submitted by this step. */
  submitted: number;
  /** Batches of the run still waiting (submitted now or before). */
  open: number;
  /** Set when the budget let only part of the deferred calls be submitted (the rest stay pending). */
  budgetStop: string | null;
}

export interface PollOutcome {
  open: number;
  /** Batches imported by this step. */
  imported: number;
}

function batchApiOf(deps: RunDeps, line: Pick<PendingLine, 'modelId'>): BatchApi {
  const api = resolveModel(line.modelId, deps.gateway.providers).client.batch;
  if (!api) throw new Error(`${line.modelId} has no batch API (the round gateway calls it live)`);
  return api;
}

/** The one retry policy for the batch API's own calls (create, retrieve, results). */
function retried<T>(deps: RunDeps, ctx: RunContext, fn: () => Promise<T>): Promise<T> {
  // These calls create, read and fetch batches, which bill nothing themselves: a timeout may be tried as often as any other fault.
  return withRetry(fn, { maxAttempts: 5, maxTimeoutRetries: 4, baseDelayMs: 200, maxDelayMs: 10_000, ...(ctx.signal ? { signal: ctx.signal } : {}) });
}

/**
 * Runs the run's pending cells once through the round gateway and submits what they deferred.
 * Throws LeaseLostError / BudgetExceededError as the live steps do (a budget that lets some
 * lines through submits those and reports the stop in `budgetStop`).
 */
export async function collectBatchRound(deps: RunDeps, ctx: RunContext, opts: GroupOptions = {}, round: RoundGatewayOptions = {}): Promise<CollectOutcome> {
  const [imported, open] = await Promise.all([importedLines(deps.db, ctx.runId), openBatches(deps.db, ctx.runId)]);
  const state: RoundState = { imported, inFlight: new Set(open.flatMap((b) => Object.values(b.lines).map((l) => l.key))), pending: new Map() };
  const gateway = batchRoundGateway(deps.db, deps.gateway, state, round);
  const roundDeps: RunDeps = { ...deps, gateway };
  const limit = pLimit(GROUPS_IN_FLIGHT);
  let stop: unknown = null;
  await Promise.all(
    (await pendingGroups(deps, ctx)).map((group) =>
      limit(async () => {
        if (stop) return;
        try {
          await processGroup(roundDeps, ctx, group, opts);
        } catch (e) {
          // A deferred call is this mode's normal stop; a defect behind it shows in a later round, when nothing defers.
          if (!(e instanceof DeferredToBatch)) stop ??= e;
        }
      }),
    ),
  );
  await gateway.drain();
  if (stop) throw stop;

  let submitted = 0;
  let budgetStop: string | null = null;
  const byBatch = new Map<string, PendingLine[]>();
  // OpenAI takes one model per batch file: one batch per provider and model.
  for (const line of state.pending.values()) {
    const k = `${line.provider}\u0000${line.model}`;
    (byBatch.get(k) ?? byBatch.set(k, []).get(k)!).push(line);
  }
  for (const lines of byBatch.values()) {
    for (let i = 0; i < lines.length && !budgetStop; i += MAX_BATCH_LINES) {
      const chunk = lines.slice(i, i + MAX_BATCH_LINES);
      let granted: number;
      try {
        granted = await reserveBatchCalls(deps.db, ctx, chunk.length);
      } catch (e) {
        if (e instanceof BudgetExceededError && submitted > 0) {
          budgetStop = e.reason;
          break;
        }
        throw e;
      }
      const sent = chunk.slice(0, granted);
      if (granted < chunk.length) budgetStop = 'the run’s budget (max calls) is spent: the batch was cut to the calls left';
      if (await submitBatch(deps, ctx, sent)) submitted++;
    }
  }
  return { submitted, open: open.length + submitted, budgetStop };
}

/** Submits one batch and records it; a submission the provider refused sends its lines live (recorded as failed lines). */
async function submitBatch(deps: RunDeps, ctx: RunContext, lines: PendingLine[]): Promise<boolean> {
  const api = batchApiOf(deps, lines[0]!);
  const table: BatchLines = Object.fromEntries(lines.map((l) => [l.customId, { key: l.key, modelId: l.modelId, model: l.model }]));
  let state;
  try {
    state = await retried(deps, ctx, () => api.submit(lines.map((l) => ({ customId: l.customId, request: l.request })), ctx.signal ? { signal: ctx.signal } : {}));
  } catch (e) {
    await releaseBatchCalls(deps.db, ctx.runId, lines.length);
    if (!isProviderError(e)) throw e;
    await importLines(deps.db, ctx.runId, null, lines.map((l) => failedLine(l.key, l.customId, l.modelId, e)));
    return false;
  }
  // Between the provider's acceptance and this insert (one round trip) a kill loses the record:
  // the lines are then submitted again on resume, and still imported once each.
  await recordBatch(deps.db, ctx.runId, { provider: api.provider, externalId: state.id, status: state.status, lines: table });
  return true;
}

function failedLine(key: string, customId: string, modelId: string, e: ProviderError): LineToImport {
  return { key, customId, modelId, response: null, error: e.message, errorKind: e.kind, costUsd: null, discountUsd: null };
}

/** One imported line: the reply at the batch price, and what it saved against the live price. */
function lineToImport(entry: BatchLines[string], customId: string, r: BatchLineResult | undefined, provider: string, batchError: ProviderError | undefined): LineToImport {
  // A line the results lack failed with the batch's own reason (failed, expired) when it gave one.
  if (!r && batchError) return failedLine(entry.key, customId, entry.modelId, batchError);
  if (!r) return { key: entry.key, customId, modelId: entry.modelId, response: null, error: `${provider}: the batch's results have no line ${customId}`, errorKind: 'retryable', costUsd: null, discountUsd: null };
  if (r.error) return failedLine(entry.key, customId, entry.modelId, r.error);
  const live = r.response.costUsd;
  const paid = live === null ? null : live * BATCH_PRICE_FACTOR;
  const response = storable({ ...r.response, costUsd: paid });
  return { key: entry.key, customId, modelId: entry.modelId, response, error: null, errorKind: null, costUsd: paid, discountUsd: live === null || paid === null ? null : live - paid };
}

/** Polls every open batch of the run once; imports those that ended. */
export async function pollBatches(deps: RunDeps, ctx: RunContext): Promise<PollOutcome> {
  const open = await openBatches(deps.db, ctx.runId);
  let imported = 0;
  for (const b of open) {
    const first = Object.values(b.lines)[0];
    if (!first) continue;
    const api = batchApiOf(deps, first);
    const state = await retried(deps, ctx, () => api.retrieve(b.externalId, ctx.signal ? { signal: ctx.signal } : {}));
    await recordPoll(deps.db, b.id, state.status);
    if (!state.ended) continue;
    const results = await retried(deps, ctx, () => api.results(b.externalId, ctx.signal ? { signal: ctx.signal } : {}));
    const byId = new Map(results.map((r) => [r.customId, r]));
    await importLines(
      deps.db,
      ctx.runId,
      b.id,
      Object.entries(b.lines).map(([customId, entry]) => lineToImport(entry, customId, byId.get(customId), api.provider, state.error)),
    );
    imported++;
  }
  return { open: open.length - imported, imported };
}

/**
 * How many times the run's newest open batch was polled (0 when none is open): where a driver
 * that starts afresh (an Inngest round, a function run of its own) picks up the poll backoff.
 */
export async function pollsOfNewestBatch(deps: RunDeps, runId: string): Promise<number> {
  const open = await openBatches(deps.db, runId);
  return open.length ? Math.min(...open.map((b) => b.polls)) : 0;
}

/** How long to wait before poll number `n` of a round: the configured interval, growing to 16× for a slow batch. */
export function pollDelayMs(base: number, n: number): number {
  return base * 2 ** Math.min(4, Math.floor(n / 10));
}

/**
 * Stores which models wait for an open batch of the run and when it is polled next, `delayMs`
 * from now (run-waits.ts), so the progress page says why the counts stand still; none open
 * clears them. A failed write is logged: it never stops the run.
 */
export async function noteBatchWait(deps: RunDeps, runId: string, delayMs: number): Promise<void> {
  try {
    const open = await openBatches(deps.db, runId);
    const models = open.flatMap((b) => [...new Set(Object.values(b.lines).map((l) => l.modelId))].map((modelId) => ({ provider: b.provider, modelId })));
    const at = new Date();
    await noteBatchWaits(deps.db, runId, models, new Date(at.getTime() + delayMs), at);
  } catch (e) {
    console.error(`assay: could not record that run ${runId} waits for its batches: ${(e as Error).message}`);
  }
}

export interface BatchModeOptions extends GroupOptions {
  signal?: AbortSignal;
  /** Told after each poll (progress). */
  onPoll?: (p: PollOutcome) => void | Promise<void>;
}

/**
 * One collect step as both schedulers take it: a budget that refused a submission is a stop
 * to report, not a failure, and the batches already submitted are still waited for and
 * imported (their lines are paid for).
 */
export async function collectStep(deps: RunDeps, ctx: RunContext, opts: GroupOptions = {}, round: RoundGatewayOptions = {}): Promise<{ open: number; budgetStop: string | null }> {
  try {
    const c = await collectBatchRound(deps, ctx, opts, round);
    return { open: c.open, budgetStop: c.budgetStop };
  } catch (e) {
    if (!(e instanceof BudgetExceededError)) throw e;
    return { open: (await openBatches(deps.db, ctx.runId)).length, budgetStop: e.reason };
  }
}

/**
 * The in-process scheduler of batch mode: collect, then poll until a batch ended, and again,
 * until a round defers nothing or none is open. Returns the budget stop, if the budget refused
 * a submission; the live steps then find nothing pending (or what the budget left) and the
 * run finishes as usual.
 */
export async function runBatchMode(deps: RunDeps, ctx: RunContext, opts: BatchModeOptions = {}): Promise<string | null> {
  const base = deps.batchPollMs ?? DEFAULT_BATCH_POLL_MS;
  let stopped: string | null = null;
  for (;;) {
    const c = await collectStep(deps, ctx, opts);
    stopped ??= c.budgetStop;
    if (c.open === 0) {
      await noteBatchWait(deps, ctx.runId, 0);
      return stopped;
    }
    for (let n = 0; ; n++) {
      await noteBatchWait(deps, ctx.runId, pollDelayMs(base, n));
      await sleep(pollDelayMs(base, n), opts.signal);
      const p = await pollBatches(deps, ctx);
      await opts.onPoll?.(p);
      if (p.imported > 0 || p.open === 0) break;
    }
  }
}
