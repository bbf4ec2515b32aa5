/**
 * Every provider call of a run goes through here: the response cache (keyed by model,
 * messages, parameters and attempt), the run's budget and lease (checked atomically in the
 * database, so they hold across workers), a concurrency limit per provider (only the call and
 * its reservation hold a slot: the cache lookup happens outside it) that halves on
 * a 429 and grows back on success (adaptive-limit.ts; maxima from providers/concurrency.ts),
 * per-provider timeouts, the run's deadline, and retries with backoff honouring `retry-after`.
 * The statements of a call are group-committed with those of concurrent calls (call-ledger.ts),
 * and a call's record travels with its slot's next reservation: a fraction of a round trip
 * each, and one statement on the provider's path per call.
 *
 * The budget counts calls actually made: each attempt reserves one call (`reserved_calls`)
 * just before it is sent, in the statement that checks the lease and the budget, and
 * reconciles it into `provider_calls` when it returns or fails. A crash leaves only the few
 * calls that were on the wire reserved, and the next lease holder counts them as made
 * (lease.ts); it used to leave every call queued behind a slot counted as made (248 counted,
 * 184 made).
 *
 * A draft (try-it) run also reserves each attempt against its author's day (author-budget.ts),
 * before the run's own reservation: a refused day stops the run as its own budget would, with
 * the sentence that says what was used and when it resets.
 */
import { callCacheKey } from '@/lib/core';
import {
  CapabilityMemory,
  costUsd,
  deadlineAfter,
  fitRequest,
  isProviderError,
  isUnsupportedParameter,
  providerConcurrency,
  modelTimeoutMs,
  resolveModel,
  withRetry,
  type Adjustment,
  type ChatMessage,
  type ChatResponse,
  type ProviderConfig,
  type RetryOptions,
} from '../../providers';
import type { Db } from '../../db/client';
import { storable } from '../../db/storable-text';
import { executionOf, QuotaStops } from './quota-stop';
import { AdaptiveLimit, type Slot, type SlotStats } from './adaptive-limit';
import { addAuthorCost, releaseAuthorCall, reserveAuthorCall } from './author-budget';
import { lookupCached, recordCall, reserveCall, type CallRecord, type Reservation, type ReservationOutcome } from './call-ledger';
import { BudgetExceededError, LeaseLostError } from '../engine/errors';
import type { RunContext } from '../engine/run-context';
import type { SharedSlots } from './provider-slots';
import { RunWaits } from './run-waits';

export interface GatewayOptions {
  db: Db;
  providers: ProviderConfig;
  /**
   * Maximum concurrent calls per provider (one limiter per provider prefix) for every provider;
   * absent: each provider's default (providers/concurrency.ts). Either way a 429 lowers it for a while.
   */
  concurrency?: number;
  retry?: RetryOptions;
  /** One timeout for every provider (tests); otherwise the per-provider table (providers/timeouts.ts). */
  timeoutMs?: number;
  /** Overrides of the per-provider table (`ASSAY_PROVIDER_TIMEOUTS`). */
  timeouts?: Readonly<Record<string, number>>;
  /**
   * Slots shared with the other app instances (provider-slots.ts): each call also holds one of
   * the provider's maximum there, so the maximum holds for all instances together (Inngest).
   */
  sharedSlots?: SharedSlots;
}

export interface CallRequest {
  modelId: string;
  messages: ChatMessage[];
  temperature: number | null;
  tools?: unknown[] | null;
  topLogprobs?: number | null;
  attempt: number;
  /** The prompt's (or its blueprint's) `noCache: true`: this call is sampled afresh, as under `--no-cache`. */
  noCache?: boolean;
}

export interface CallResult {
  response: ChatResponse;
  fromCache: boolean;
  costUsd: number | null;
  /** Present when the request was sent changed to fit the model (capabilities.ts): what was dropped or changed. */
  adjustment?: Adjustment;
}

/** How many refusals one call may learn from (logprobs, then a temperature, …) before its error stands. */
const MAX_CAPABILITY_RESENDS = 3;
/** Runs whose capability memories a gateway keeps (a long-lived worker executes many runs in turn). */
const MAX_REMEMBERED_RUNS = 256;

/** The response-cache key of a call: one answer per request, whatever the run's mode (batch-gateway.ts). */
export function callKeyOf(req: CallRequest): string {
  return callCacheKey({ model: req.modelId, messages: req.messages, temperature: req.temperature, tools: req.tools ?? null, topLogprobs: req.topLogprobs ?? null, attempt: req.attempt });
}

/**
 * A cache hit (not older than the run allows) counted on the run, or null on a miss. Under
 * `--no-cache` (the run's bypassCache) or the prompt's `noCache` the cache is not read at all:
 * every call is a fresh sample, so not even an identical call from earlier in this run is reused.
 */
export async function cachedResponse(db: Db, run: RunContext, key: string, req: Pick<CallRequest, 'noCache'>): Promise<ChatResponse | null> {
  if (run.cacheNotBefore !== null || req.noCache === true) return null;
  return lookupCached(db, { runId: run.runId, cacheNotBefore: run.cacheNotBefore, key });
}

/** Thrown out of a slot before anything is reserved: the call is fitted again (LlmGateway.call). */
class LimitLearnedMeanwhile extends Error {}

/** A made call's record, left to the next call of its slot, and whether it is committed. */
interface PendingRecord {
  record: CallRecord;
  committed: () => void;
  failed: (e: unknown) => void;
}

/** A call made in a slot: its record (committed or not yet) and its outcome. */
type Made = { recorded: Promise<void>; reservedAt: Date } & ({ response: ChatResponse } | { error: unknown });

function leaveRecord(slot: Slot<PendingRecord>, record: CallRecord): Promise<void> {
  const recorded = new Promise<void>((committed, failed) => slot.leave({ record, committed, failed }));
  recorded.catch(() => undefined); // awaited by the caller once out of its slot
  return recorded;
}

/** Reserves a call, committing the record left by the slot's previous call (if any) in the same statement. */
async function reserveAfter(db: Db, r: Reservation, left: PendingRecord | null): Promise<ReservationOutcome> {
  try {
    const outcome = await reserveCall(db, r, left?.record);
    left?.committed();
    return outcome;
  } catch (e) {
    left?.failed(e);
    throw e;
  }
}

/** A left record no call claimed: committed on its own. */
function commitAlone(db: Db, left: PendingRecord): void {
  recordCall(db, left.record).then(
    () => left.committed(),
    (e: unknown) => left.failed(e),
  );
}

/** What the steps call: the live gateway, or a batch round's in front of it (batch-gateway.ts). */
export type CallGateway = Pick<LlmGateway, 'call' | 'providers' | 'maxSlots' | 'fit'>;

export class LlmGateway {
  private readonly limiters = new Map<string, AdaptiveLimit<PendingRecord>>();
  /** Why this gateway's calls of each run and model wait, stored for the progress page (run-waits.ts). */
  readonly waits: RunWaits;
  /** Calls made through this gateway, for progress and benchmarks. */
  calls = 0;
  cacheHits = 0;

  constructor(private readonly opts: GatewayOptions) {
    this.waits = new RunWaits(opts.db);
  }

  /** The provider configuration calls resolve against (batch mode resolves the same clients' batch APIs). */
  get providers(): ProviderConfig {
    return this.opts.providers;
  }

  private limiter(provider: string): AdaptiveLimit<PendingRecord> {
    let l = this.limiters.get(provider);
    if (!l) {
      l = new AdaptiveLimit<PendingRecord>(providerConcurrency(provider, this.opts.concurrency), (left) => commitAlone(this.opts.db, left));
      this.limiters.set(provider, l);
    }
    return l;
  }

  /** The most calls this gateway keeps in flight on `provider` (its limit grows back to this). */
  maxSlots(provider: string): number {
    return this.limiter(provider).maximum;
  }

  /** How each provider's slots were used since the last reset (benchmarks, tests). */
  slotStats(): Record<string, SlotStats> {
    return Object.fromEntries([...this.limiters].map(([p, l]) => [p, l.stats()]));
  }

  resetSlotStats(): void {
    for (const l of this.limiters.values()) l.resetStats();
  }

  /**
   * What each run has learned about its models' limits (capabilities.ts), by run id. Kept here,
   * not on the RunContext, because a run's context is copied for each execution (execute-run.ts)
   * while the gateway lives as long as the process: every execution of a run in this process
   * shares what the run learned, another process relearns it with one unbilled refusal, and a
   * new run starts again from the published table.
   */
  private readonly capabilityMemories = new Map<string, CapabilityMemory>();
  /** Accounts each execution of a run found out of credit or quota: not called again in that execution. */
  private readonly quotaStops = new QuotaStops();

  private capabilities(runId: string): CapabilityMemory {
    let memory = this.capabilityMemories.get(runId);
    if (!memory) {
      if (this.capabilityMemories.size >= MAX_REMEMBERED_RUNS) this.capabilityMemories.delete(this.capabilityMemories.keys().next().value!);
      this.capabilityMemories.set(runId, (memory = new CapabilityMemory()));
    }
    return memory;
  }

  /**
   * The request as the model accepts it (no log-probabilities, its only temperature), by the
   * published table and what this run learned: the cache key is the sent request's, so a cached
   * answer is found whether the limit was known in advance or learned.
   */
  fit(run: RunContext, req: CallRequest): { req: CallRequest; adjustment: Adjustment | undefined } {
    const fitted = fitRequest(req, this.capabilities(run.runId).limits(req.modelId));
    const changed = fitted.adjustment.logprobsRefused || 'temperature' in fitted.adjustment;
    return { req: fitted.req, adjustment: changed ? fitted.adjustment : undefined };
  }

  /**
   * One call, fitted to the model; a refusal of a parameter (a 400 that names it) is learned
   * for the rest of the run and the call sent again without it. That is not a blind retry of
   * a billed call: the provider refused the request before generating anything.
   */
  async call(run: RunContext, req: CallRequest): Promise<CallResult> {
    for (let resend = 0; ; ) {
      const { req: fitted, adjustment } = this.fit(run, req);
      try {
        const result = await this.send(run, fitted);
        return adjustment ? { ...result, adjustment } : result;
      } catch (e) {
        if (e instanceof LimitLearnedMeanwhile) continue;
        // The refusal was learned in send() (or by a call sent before this one): fitted again, the
        // request differs and goes. When nothing would change, the refusal is the answer.
        if (!isUnsupportedParameter(e) || ++resend > MAX_CAPABILITY_RESENDS) throw e;
        if (callKeyOf(this.fit(run, req).req) === callKeyOf(fitted)) throw e;
      }
    }
  }

  private async send(run: RunContext, req: CallRequest): Promise<CallResult> {
    const { db } = this.opts;
    const key = callKeyOf(req);
    // A limit learned by another call while this one waited for its slot: fit it again before
    // anything is reserved or sent, rather than send a request the model is known to refuse.
    // Fitting changes only the temperature and the log-probabilities: comparing those two is enough,
    // where hashing the whole request again on every call cost the provider's path measurable CPU.
    const stale = () => {
      const again = this.fit(run, req).req;
      return again.temperature !== req.temperature || (again.topLogprobs ?? null) !== (req.topLogprobs ?? null);
    };
    const hit = await cachedResponse(db, run, key, req);
    if (hit) {
      this.cacheHits++;
      return { response: hit, fromCache: true, costUsd: 0 };
    }
    const stopped = run.signal?.aborted ? run.signal.reason : null;
    if (stopped) throw stopped;

    const custom = run.settings.customModels[req.modelId];
    const { client, model } = resolveModel(custom ? { id: req.modelId, spec: custom } : req.modelId, this.opts.providers);
    // An account this run found out of credit is not called again (quota-stop.ts).
    const account = custom ? req.modelId : client.provider;
    const execution = executionOf(run);
    const outOfQuota = this.quotaStops.stopped(execution, account);
    if (outOfQuota) throw outOfQuota;
    const limit = this.limiter(client.provider);
    const ownTimeout = typeof custom?.timeoutMs === 'number' ? custom.timeoutMs : undefined;
    // Per model: a reasoning family gets minutes (timeouts.ts); a retry after a timeout gets twice as long (retry.ts).
    const timeoutMs = this.opts.timeoutMs ?? ownTimeout ?? modelTimeoutMs(client.provider, model, this.opts.timeouts);
    const holder = run.leaseHolder ?? null;
    const author = run.draftAuthorId ?? null;
    let cost: number | null = null;
    // The slot is released as soon as the call is made; the call's record is left to the slot's
    // next call, which commits it in the statement of its own reservation (call-ledger.ts), or
    // is committed at once when no call is waiting. The caller resumes once it is committed,
    // and a slot's next call is sent only after it: after a crash at most `concurrency` calls
    // per provider can have completed without a record, so a resumed run repeats at most that
    // many. A slot used to wait for its record's commit and then for its next reservation's:
    // two statements per slot turn, the provider idle through both (docs/runs.md, "Database
    // writes of the hot path are group-committed").
    // Each wait before a retry is stored with its reason and end (run-waits.ts); a success sent
    // after it clears it. Only a call that waited, or a success while a wait stands, writes.
    let waited = false;
    let sentAt: Date | undefined;
    const told = this.opts.retry?.onRetry;
    const onRetry: RetryOptions['onRetry'] = (info) => {
      told?.(info);
      this.waits.retrying(run.runId, req.modelId, info, !waited);
      waited = true;
    };
    const response = await withRetry(
      async (_attempt, previous) => {
        const made = await limit.run(async (epoch, slot): Promise<Made> => {
          if (stale()) throw new LimitLearnedMeanwhile();
          // Again once a slot is free: a call queued behind the one that found the account out of credit is not sent.
          const stoppedMeanwhile = this.quotaStops.stopped(execution, account);
          if (stoppedMeanwhile) throw stoppedMeanwhile;
          const reservedAt = new Date();
          if (author) {
            const day = await reserveAuthorCall(db, author, reservedAt);
            if (!day.ok) throw new BudgetExceededError(run.runId, day.reason);
          }
          // Reserve this attempt: the lease and the budget are checked in the same statement.
          const gate = await reserveAfter(db, { runId: run.runId, holder }, slot.claim());
          if (gate !== 'ok' && author) await releaseAuthorCall(db, author, reservedAt);
          if (gate === 'lease') throw new LeaseLostError(run.runId);
          if (gate === 'budget') throw new BudgetExceededError(run.runId, 'the run’s budget (max calls or max cost) is spent');
          this.calls++;
          let r: ChatResponse;
          // Held only while the provider works on the call (it is taken after the reservation, so a
          // refused reservation holds none); a wait here is another instance's calls on this provider.
          const giveBack = await this.opts.sharedSlots?.take(client.provider, limit.maximum, run.signal);
          try {
            r = await client.chat({
              model,
              messages: req.messages,
              ...(req.temperature === null ? {} : { temperature: req.temperature }),
              ...(req.tools?.length ? { tools: req.tools } : {}),
              ...(req.topLogprobs ? { topLogprobs: req.topLogprobs } : {}),
              attempt: req.attempt,
              timeoutMs: deadlineAfter(timeoutMs, previous),
              ...(run.signal ? { signal: run.signal } : {}),
            });
          } catch (e) {
            if (isProviderError(e) && e.kind === 'rate_limited') limit.rateLimited(epoch);
            // Learned before the slot is released: the next call of this model waiting for it is fitted again, not refused again.
            if (isUnsupportedParameter(e)) this.capabilities(run.runId).learn(req.modelId, e.refusal);
            this.quotaStops.observe(execution, account, e);
            // Made, and failed (or cut short by the deadline): it counts, and costs nothing we know of.
            return { recorded: leaveRecord(slot, { runId: run.runId, cache: null, cost: 0 }), reservedAt, error: e };
          } finally {
            await giveBack?.();
          }
          limit.succeeded();
          // What the cache, the reply and the judges see is what PostgreSQL can store (NUL, lone surrogates).
          r = storable(r);
          cost = costUsd(model, r.usage, r.costUsd);
          // Remember the response, reconcile the reservation and add the cost (one statement).
          return { recorded: leaveRecord(slot, { runId: run.runId, cache: { key, modelId: req.modelId, response: r }, cost: cost ?? 0 }), reservedAt, response: r };
        });
        await made.recorded;
        if ('error' in made) throw made.error;
        if (author) await addAuthorCost(db, author, cost ?? 0, made.reservedAt);
        sentAt = made.reservedAt;
        return made.response;
      },
      { ...this.opts.retry, onRetry, ...(run.signal ? { signal: run.signal } : {}) },
    ).catch((e: unknown) => {
      this.waits.ended(run.runId, req.modelId, { waited });
      throw e;
    });
    this.waits.ended(run.runId, req.modelId, { waited, ...(sentAt ? { sentAt } : {}) });
    return { response, fromCache: false, costUsd: cost };
  }
}
