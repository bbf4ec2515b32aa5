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
 * With `leaveLive` (the Inngest driver) cases 2 and 3 are not called here but left pending
 * (LeftForLive): a round is then one short step that only submits batches, and the live calls
 * go to the run's live fan-out afterwards, each slice a step of its own under the provider's
 * concurrency key, instead of minutes of live calls inside the round's step (Inngest stops a
 * step after 2 hours at most: https://www.inngest.com/docs/usage-limits/inngest, "Timeout").
 */
import { createHash } from 'node:crypto';
import { resolveModel, type BatchLine } from '../../providers';
import type { Db } from '../../db/client';
import { importedLines, type ImportedLine } from './batch-store';
import { cachedResponse, callKeyOf, type CallGateway, type CallRequest, type CallResult } from './gateway';
import type { RunContext } from '../engine/run-context';

/** A call waiting for its batch: thrown out of a step, which then stores nothing. */
export class DeferredToBatch extends Error {
  override name = 'DeferredToBatch';
  constructor(
    readonly key: string,
    message = `call ${key.slice(0, 12)}… waits for its provider batch`,
  ) {
    super(message);
  }
}

/**
 * A call a batch cannot answer (its provider has no batch API, or its line failed in its batch),
 * left for the live fan-out after the batch rounds: the step stops as for a deferred call and
 * stores nothing, and the call joins no batch.
 */
export class LeftForLive extends DeferredToBatch {
  override name = 'LeftForLive';
  constructor(key: string) {
    super(key, `call ${key.slice(0, 12)}… is left for the live calls after the batch rounds`);
  }
}

export interface RoundGatewayOptions {
  /** Leave the calls no batch answers to the live fan-out instead of calling them here. */
  leaveLive?: boolean;
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

export function batchRoundGateway(db: Db, live: CallGateway, state: RoundState, opts: RoundGatewayOptions = {}): RoundGateway {
  const started = new Set<Promise<unknown>>();
  const call = async (run: RunContext, asked: CallRequest): Promise<CallResult> => {
    // Fitted to the model first (no log-probabilities where it refuses them…), as a live call is: the same key, the same line.
    const { req, adjustment } = live.fit(run, asked);
    const key = callKeyOf(req);
    const callLive = () => (opts.leaveLive ? Promise.reject(new LeftForLive(key)) : live.call(run, asked));
    const line = state.imported.get(key);
    if (line?.response) return { response: line.response, fromCache: false, costUsd: line.costUsd, ...(adjustment ? { adjustment } : {}) };
    if (line) return callLive();
    if (state.inFlight.has(key)) throw new DeferredToBatch(key);
    if (run.settings.customModels[req.modelId]) return callLive();
    let resolved;
    try {
      resolved = resolveModel(req.modelId, live.providers);
    } catch {
      return callLive(); // fails there (live) as in live mode, with the same error
    }
    if (!resolved.client.batch) return callLive();
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

/**
 * The gateway of a batch-mode run's live calls after its rounds (the calls `leaveLive` left): a
 * call a batch already answered for this run is answered by its line, so a slice that mixes a
 * batched judge with a live one pays for the batched answer once, even with the cache bypassed
 * (an imported line is in the response cache too, but a run with `--no-cache` does not read it).
 * Every other call goes to the live gateway. Build one per step: it reads the run's lines once.
 */
export function afterBatchGateway(db: Db, live: CallGateway): CallGateway {
  const lines = new Map<string, Promise<Map<string, ImportedLine>>>();
  const linesOf = (runId: string) => {
    let l = lines.get(runId);
    if (!l) lines.set(runId, (l = importedLines(db, runId)));
    return l;
  };
  return {
    providers: live.providers,
    maxSlots: (provider) => live.maxSlots(provider),
    fit: (run, req) => live.fit(run, req),
    async call(run, asked) {
      const { req, adjustment } = live.fit(run, asked);
      const line = (await linesOf(run.runId)).get(callKeyOf(req));
      if (line?.response) return { response: line.response, fromCache: false, costUsd: line.costUsd, ...(adjustment ? { adjustment } : {}) };
      return live.call(run, asked);
    },
  };
}
