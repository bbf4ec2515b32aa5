/**
 * Every provider call of a run goes through here: the response cache (keyed by model,
 * messages, parameters and attempt), the run's budget and lease (checked atomically in the
 * database, so they hold across workers), a concurrency limit per provider (only the HTTP call
 * holds a slot: cache and database work happen outside it), per-provider timeouts, the run's
 * deadline, and retries with backoff honouring `retry-after`.
 *
 * The budget counts calls actually made: each attempt reserves one call (`reserved_calls`)
 * just before it is sent, in the statement that checks the lease and the budget, and
 * reconciles it into `provider_calls` when it returns or fails. A crash leaves only the few
 * calls that were on the wire reserved, and the next lease holder counts them as made
 * (lease.ts); it used to leave every call queued behind a slot counted as made (248 counted,
 * 184 made).
 */
import pLimit, { type LimitFunction } from 'p-limit';
import { callCacheKey } from '@/lib/core';
import { costUsd, providerTimeoutMs, resolveModel, withRetry, type ChatMessage, type ChatResponse, type ProviderConfig, type RetryOptions } from '../providers';
import type { Db } from '../db/client';
import { storable } from '../db/storable-text';
import { BudgetExceededError, LeaseLostError } from './errors';
import type { RunContext } from './run-context';

export interface GatewayOptions {
  db: Db;
  providers: ProviderConfig;
  /** Concurrent calls per provider (one limiter per provider prefix). */
  concurrency: number;
  retry?: RetryOptions;
  /** One timeout for every provider (tests); otherwise the per-provider table (providers/timeouts.ts). */
  timeoutMs?: number;
  /** Overrides of the per-provider table (`ASSAY_PROVIDER_TIMEOUTS`). */
  timeouts?: Readonly<Record<string, number>>;
}

export interface CallRequest {
  modelId: string;
  messages: ChatMessage[];
  temperature: number | null;
  tools?: unknown[] | null;
  topLogprobs?: number | null;
  attempt: number;
}

export interface CallResult {
  response: ChatResponse;
  fromCache: boolean;
  costUsd: number | null;
}

/** The response-cache key of a call: one answer per request, whatever the run's mode (batch-gateway.ts). */
export function callKeyOf(req: CallRequest): string {
  return callCacheKey({ model: req.modelId, messages: req.messages, temperature: req.temperature, tools: req.tools ?? null, topLogprobs: req.topLogprobs ?? null, attempt: req.attempt });
}

/** One round trip: a cache hit (not older than the run allows) is counted on the run and returned; null on a miss. */
export async function cachedResponse(db: Db, run: RunContext, key: string): Promise<ChatResponse | null> {
  const [hit] = await db.$queryRaw<{ response: ChatResponse }[]>`
    WITH hit AS (
      SELECT response FROM response_cache WHERE key = ${key} AND (${run.cacheNotBefore}::timestamptz IS NULL OR created_at >= ${run.cacheNotBefore}::timestamptz)
    ), u AS (
      UPDATE runs SET cache_hits = cache_hits + 1 WHERE id = ${run.runId} AND EXISTS (SELECT 1 FROM hit) RETURNING 1
    )
    SELECT response FROM hit WHERE EXISTS (SELECT 1 FROM u)`;
  return hit?.response ?? null;
}

/** What the steps call: the live gateway, or a batch round's in front of it (batch-gateway.ts). */
export type CallGateway = Pick<LlmGateway, 'call' | 'providers'>;

export class LlmGateway {
  private readonly limiters = new Map<string, LimitFunction>();
  /** Calls made through this gateway, for progress and benchmarks. */
  calls = 0;
  cacheHits = 0;

  constructor(private readonly opts: GatewayOptions) {}

  /** The provider configuration calls resolve against (batch mode resolves the same clients' batch APIs). */
  get providers(): ProviderConfig {
    return this.opts.providers;
  }

  private limiter(provider: string): LimitFunction {
    let l = this.limiters.get(provider);
    if (!l) {
      l = pLimit(this.opts.concurrency);
      this.limiters.set(provider, l);
    }
    return l;
  }

  async call(run: RunContext, req: CallRequest): Promise<CallResult> {
    const { db } = this.opts;
    const key = callKeyOf(req);
    const hit = await cachedResponse(db, run, key);
    if (hit) {
      this.cacheHits++;
      return { response: hit, fromCache: true, costUsd: 0 };
    }
    const stopped = run.signal?.aborted ? run.signal.reason : null;
    if (stopped) throw stopped;

    const custom = run.settings.customModels[req.modelId];
    const { client, model } = resolveModel(custom ? { id: req.modelId, spec: custom } : req.modelId, this.opts.providers);
    const limit = this.limiter(client.provider);
    const ownTimeout = typeof custom?.timeoutMs === 'number' ? custom.timeoutMs : undefined;
    const timeoutMs = this.opts.timeoutMs ?? ownTimeout ?? providerTimeoutMs(client.provider, this.opts.timeouts);
    const holder = run.leaseHolder ?? null;
    let cost: number | null = null;
    // The slot is held until the response is recorded, not just received: after a crash at
    // most `concurrency` calls per provider can have completed without a record, so a resumed
    // run repeats at most that many completed calls.
    const response = await withRetry(
      () =>
        limit(async () => {
          // Reserve this attempt: the lease and the budget are checked in the same statement.
          const [gate] = await db.$queryRaw<{ ok: boolean; leased: boolean }[]>`
            WITH u AS (
              UPDATE runs SET reserved_calls = reserved_calls + 1
              WHERE id = ${run.runId} AND (${holder}::text IS NULL OR lease_holder = ${holder}::text)
                AND (max_calls IS NULL OR provider_calls + reserved_calls < max_calls) AND (max_cost_usd IS NULL OR cost_usd < max_cost_usd)
              RETURNING 1
            )
            SELECT EXISTS (SELECT 1 FROM u) AS ok,
                   (${holder}::text IS NULL OR EXISTS (SELECT 1 FROM runs WHERE id = ${run.runId} AND lease_holder = ${holder}::text)) AS leased`;
          if (!gate?.leased) throw new LeaseLostError(run.runId);
          if (!gate.ok) throw new BudgetExceededError(run.runId, 'the run’s budget (max calls or max cost) is spent');
          this.calls++;
          let r: ChatResponse;
          try {
            r = await client.chat({
              model,
              messages: req.messages,
              ...(req.temperature === null ? {} : { temperature: req.temperature }),
              ...(req.tools?.length ? { tools: req.tools } : {}),
              ...(req.topLogprobs ? { topLogprobs: req.topLogprobs } : {}),
              attempt: req.attempt,
              timeoutMs,
              ...(run.signal ? { signal: run.signal } : {}),
            });
          } catch (e) {
            // Made, and failed (or cut short by the deadline): it counts, and costs nothing we know of.
            await db.$executeRaw`UPDATE runs SET reserved_calls = GREATEST(reserved_calls - 1, 0), provider_calls = provider_calls + 1 WHERE id = ${run.runId}`;
            throw e;
          }
          // What the cache, the reply and the judges see is what PostgreSQL can store (NUL, lone surrogates).
          r = storable(r);
          cost = costUsd(model, r.usage, r.costUsd);
          // One round trip: remember the response, reconcile the reservation and add the cost.
          await db.$executeRaw`
            WITH stored AS (
              INSERT INTO response_cache (key, model_id, response, created_at)
              VALUES (${key}, ${req.modelId}, ${JSON.stringify(r)}::jsonb, now())
              ON CONFLICT (key) DO UPDATE SET response = EXCLUDED.response, created_at = EXCLUDED.created_at
              RETURNING 1
            )
            UPDATE runs SET reserved_calls = GREATEST(reserved_calls - 1, 0), provider_calls = provider_calls + 1,
                            cost_usd = cost_usd + ${cost ?? 0}
            WHERE id = ${run.runId} AND EXISTS (SELECT 1 FROM stored)`;
          return r;
        }),
      { ...this.opts.retry, ...(run.signal ? { signal: run.signal } : {}) },
    );
    return { response, fromCache: false, costUsd: cost };
  }
}
