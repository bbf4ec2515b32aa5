/**
 * Every provider call of a run goes through here: the response cache (keyed by model,
 * messages, parameters and attempt), the run's budget (checked atomically in the database,
 * so it holds across workers), a concurrency limit per provider (only the HTTP call holds a
 * slot: cache and database work happen outside it), and retries with backoff honouring
 * `retry-after`.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import { callCacheKey } from '@/lib/core';
import { costUsd, resolveModel, withRetry, type ChatMessage, type ChatResponse, type ProviderConfig, type RetryOptions } from '../providers';
import type { Db } from '../db/client';
import { BudgetExceededError } from './errors';
import type { RunContext } from './run-context';

export interface GatewayOptions {
  db: Db;
  providers: ProviderConfig;
  /** Concurrent calls per provider (one limiter per provider prefix). */
  concurrency: number;
  retry?: RetryOptions;
  timeoutMs?: number;
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

export class LlmGateway {
  private readonly limiters = new Map<string, LimitFunction>();
  /** Calls made through this gateway, for progress and benchmarks. */
  calls = 0;
  cacheHits = 0;

  constructor(private readonly opts: GatewayOptions) {}

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
    const key = callCacheKey({
      model: req.modelId,
      messages: req.messages,
      temperature: req.temperature,
      tools: req.tools ?? null,
      topLogprobs: req.topLogprobs ?? null,
      attempt: req.attempt,
    });
    // One round trip: a cache hit is counted; a miss reserves one call against the budget
    // (a run never overspends, across every worker); neither, and the budget is spent.
    const [gate] = await db.$queryRaw<{ response: ChatResponse | null; ok: boolean }[]>`
      WITH hit AS (
        SELECT response FROM response_cache WHERE key = ${key} AND (${run.cacheNotBefore}::timestamptz IS NULL OR created_at >= ${run.cacheNotBefore}::timestamptz)
      ), u AS (
        UPDATE runs SET cache_hits = cache_hits + CASE WHEN EXISTS (SELECT 1 FROM hit) THEN 1 ELSE 0 END,
                        provider_calls = provider_calls + CASE WHEN EXISTS (SELECT 1 FROM hit) THEN 0 ELSE 1 END
        WHERE id = ${run.runId}
          AND (EXISTS (SELECT 1 FROM hit)
               OR ((max_calls IS NULL OR provider_calls < max_calls) AND (max_cost_usd IS NULL OR cost_usd < max_cost_usd)))
        RETURNING 1
      )
      SELECT (SELECT response FROM hit) AS response, EXISTS (SELECT 1 FROM u) AS ok`;
    if (gate?.response) {
      this.cacheHits++;
      return { response: gate.response, fromCache: true, costUsd: 0 };
    }
    if (!gate?.ok) throw new BudgetExceededError(run.runId, 'the run’s budget (max calls or max cost) is spent');

    const custom = run.settings.customModels[req.modelId];
    const { client, model } = resolveModel(custom ? { id: req.modelId, spec: custom } : req.modelId, this.opts.providers);
    const limit = this.limiter(client.provider);
    let cost: number | null = null;
    // The slot is held until the response is recorded, not just received: after a crash at
    // most `concurrency` calls per provider can have completed without a record, so a resumed
    // run repeats at most that many completed calls.
    const response = await withRetry(
      () =>
        limit(async () => {
          this.calls++;
          const r = await client.chat({
            model,
            messages: req.messages,
            ...(req.temperature === null ? {} : { temperature: req.temperature }),
            ...(req.tools?.length ? { tools: req.tools } : {}),
            ...(req.topLogprobs ? { topLogprobs: req.topLogprobs } : {}),
            attempt: req.attempt,
            ...(this.opts.timeoutMs ? { timeoutMs: this.opts.timeoutMs } : {}),
          });
          cost = costUsd(model, r.usage, r.costUsd);
          // One round trip: remember the response and add its cost to the run.
          await db.$executeRaw`
            WITH stored AS (
              INSERT INTO response_cache (key, model_id, response, created_at)
              VALUES (${key}, ${req.modelId}, ${JSON.stringify(r)}::jsonb, now())
              ON CONFLICT (key) DO UPDATE SET response = EXCLUDED.response, created_at = EXCLUDED.created_at
              RETURNING 1
            )
            UPDATE runs SET cost_usd = cost_usd + ${cost ?? 0} WHERE id = ${run.runId} AND EXISTS (SELECT 1 FROM stored)`;
          return r;
        }),
      this.opts.retry,
    );
    return { response, fromCache: false, costUsd: cost };
  }
}
