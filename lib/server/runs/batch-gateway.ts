/**
 * The gateway of one batch round: the same `call` the generation and judge steps use, so
 * batch mode runs exactly their code (generate.ts, judge.ts) and differs only in how a call is
 * answered:
 *  1. from a line this run imported (a batch reply, at the batch price; not a cache hit);
 *  2. a line that failed in its batch (errored, expired, cancelled, never submitted) is retried
 *     individually as a live call, through the real gateway (its retries, budget and lease);
 *  3. a model whose provider has no batch API (custom HTTP models, Google…) is called live;
 *  4. from the response cache (counted as a hit, as live);
 *  5. otherwise the request is recorded for the round's batch and the call is deferred: the
 *     step stops there (DeferredToBatch) and stores nothing, so the next round, after the
 *     import, runs it again and finds its answer. A multi-turn cell or a judge that samples
 *     asks its next request in a later round.
 */
import { createHash } from 'node:crypto';
import { resolveModel, type BatchLine } from '../providers';
import type { Db } from '../db/client';
import type { ImportedLine } from './batch-store';
import { cachedResponse, callKeyOf, type CallGateway, type CallRequest, type CallResult } from './gateway';
import type { RunContext } from './run-context';

/** A call waiting for its batch: thrown out of a step, which then stores nothing. */
export class DeferredToBatch extends Error {
  override name = 'DeferredToBatch';
  constructor(readonly key: string) {
    super(`call ${key.slice(0, 12)}… waits for its provider batch`);
  }
}

export interface PendingLine {
  key: string;
  customId: string;
  modelId: string;
  provider: string;
  /** The provider-native model id. */
  model: string;
  request: BatchLine['request'];
}

export interface RoundState {
  /** Lines this run imported, by call key. */
  imported: Map<string, ImportedLine>;
  /** Call keys in batches submitted and not imported yet. */
  inFlight: Set<string>;
  /** Calls deferred in this round, by key: the next batches. */
  pending: Map<string, PendingLine>;
}

/** Anthropic's custom_id rule (`^[a-zA-Z0-9_-]{1,64}$`) holds; the `-a<n>` suffix names the attempt. */
export function customIdOf(key: string, attempt: number): string {
  return `c${createHash('sha256').update(key).digest('hex').slice(0, 40)}-a${attempt}`;
}

export interface RoundGateway extends CallGateway {
  /**
   * Resolves once every call started through this gateway has ended. A step stops at its first
   * deferred call while its siblings (the other points and judges of a reply) are still asking:
   * their requests belong in this round's batches, not the next round's.
   */
  drain(): Promise<void>;
}

export function batchRoundGateway(db: Db, live: CallGateway, state: RoundState): RoundGateway {
  const started = new Set<Promise<unknown>>();
  const call = async (run: RunContext, asked: CallRequest): Promise<CallResult> => {
    // Fitted to the model first (no log-probabilities where it refuses them…), as a live call is: the same key, the same line.
    const { req, adjustment } = live.fit(run, asked);
    const key = callKeyOf(req);
    const line = state.imported.get(key);
    if (line?.response) return { response: line.response, fromCache: false, costUsd: line.costUsd, ...(adjustment ? { adjustment } : {}) };
    if (line) return live.call(run, asked);
    if (state.inFlight.has(key)) throw new DeferredToBatch(key);
    if (run.settings.customModels[req.modelId]) return live.call(run, asked);
    let resolved;
    try {
      resolved = resolveModel(req.modelId, live.providers);
    } catch {
      return live.call(run, asked); // fails there as in live mode, with the same error
    }
    if (!resolved.client.batch) return live.call(run, asked);
    const cached = await cachedResponse(db, run, key, req);
    if (cached) return { response: cached, fromCache: true, costUsd: 0, ...(adjustment ? { adjustment } : {}) };
    const stopped = run.signal?.aborted ? run.signal.reason : null;
    if (stopped) throw stopped;
    state.pending.set(key, {
      key,
      customId: customIdOf(key, req.attempt),
      modelId: req.modelId,
      provider: resolved.client.provider,
      model: resolved.model,
      request: {
        model: resolved.model,
        messages: req.messages,
        ...(req.temperature === null ? {} : { temperature: req.temperature }),
        ...(req.tools?.length ? { tools: req.tools } : {}),
        ...(req.topLogprobs ? { topLogprobs: req.topLogprobs } : {}),
      },
    });
    throw new DeferredToBatch(key);
  };
  return {
    providers: live.providers,
    maxSlots: (provider) => live.maxSlots(provider),
    fit: (run, req) => live.fit(run, req),
    call(run, req) {
      const p = call(run, req);
      started.add(p);
      void p.then(
        () => started.delete(p),
        () => started.delete(p),
      );
      return p;
    },
    async drain() {
      while (started.size > 0) await Promise.allSettled([...started]);
    },
  };
}
