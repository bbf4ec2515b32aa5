/**
 * Embeds texts for a retrieval run, through the vector store as cache: each distinct text is
 * looked up by (model, text hash) first, and only the missing ones are sent, in batches of the
 * client's maxBatch (or smaller), concurrently up to a limit shared by every call with the same
 * provider key, each retried with back-off on retryable errors and 429s (honouring retry-after).
 * New vectors are stored as each batch returns, so an interrupted run keeps what it paid for.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import { withRetry, type RetryOptions } from '../../providers';
import type { EmbeddingClient, EmbeddingKind } from '../../providers/embeddings';
import type { Db } from '../../db/client';
import { loadVectors, storeVectors, textHash } from '../../db/vectors';
import { malformedError } from '../../providers/classify';

/** Concurrency limits per provider key, to share between the embedTexts calls of one process. */
export class EmbeddingLimiters {
  readonly #limits = new Map<string, LimitFunction>();
  constructor(readonly concurrency = 4) {}
  for(key: string): LimitFunction {
    let l = this.#limits.get(key);
    if (!l) this.#limits.set(key, (l = pLimit(this.concurrency)));
    return l;
  }
}

export interface EmbedTextsDeps {
  db: Db;
  client: EmbeddingClient;
  signal?: AbortSignal;
  /** Shared limits (one per provider key); a call without them gets its own. */
  limiters?: EmbeddingLimiters;
  retry?: RetryOptions;
  /** Told after each batch is stored (progress). */
  onBatch?: (info: { embedded: number; remaining: number }) => void;
}

export interface EmbedTextsInput {
  /** The Assay model id (`openai:text-embedding-3-small`): the store's key, whatever the client sends. */
  modelId: string;
  texts: readonly string[];
  kind: EmbeddingKind;
  /** At most client.maxBatch. */
  batchSize?: number;
}

export interface EmbedTextsResult {
  /** One per input text, in input order. */
  vectors: Float32Array[];
  /** textHash(text, kind) of each input text, in input order (the keys `nearest` takes). */
  textHashes: string[];
  /** Provider requests that returned vectors (retries not counted). */
  calls: number;
  /** Distinct texts found in the store. */
  cached: number;
  /** Summed over calls whose cost is known. */
  costUsd: number;
  /** Calls whose cost the price table does not know (their cost is not in costUsd). */
  unpricedCalls: number;
}

export async function embedTexts(deps: EmbedTextsDeps, input: EmbedTextsInput): Promise<EmbedTextsResult> {
  const { db, client } = deps;
  const batchSize = Math.max(1, Math.min(input.batchSize ?? client.maxBatch, client.maxBatch));
  const textHashes = input.texts.map((t) => textHash(t, input.kind));
  const distinct = new Map<string, string>();
  input.texts.forEach((t, i) => distinct.set(textHashes[i]!, t));

  const known = await loadVectors(db, input.modelId, [...distinct.keys()]);
  const cached = known.size;
  const missing = [...distinct.entries()].filter(([h]) => !known.has(h));
  const batches: [string, string][][] = [];
  for (let i = 0; i < missing.length; i += batchSize) batches.push(missing.slice(i, i + batchSize));

  const limit = (deps.limiters ?? new EmbeddingLimiters()).for(client.concurrencyKey);
  let calls = 0;
  let costUsd = 0;
  let unpricedCalls = 0;
  let remaining = missing.length;
  let dims: number | null = known.size ? known.values().next().value!.length : null;

  // After a batch fails for good, queued batches are not sent; those in flight finish and are
  // stored (paid for, so kept), and only then does the first error surface.
  let failed = false;
  const settled = await Promise.allSettled(
    batches.map((batch) =>
      limit(async () => {
        if (failed) return;
        deps.signal?.throwIfAborted();
        const res = await withRetry(
          () => client.embed({ model: client.model, inputs: batch.map(([, t]) => t), kind: input.kind, ...(deps.signal ? { signal: deps.signal } : {}) }),
          { ...deps.retry, ...(deps.signal ? { signal: deps.signal } : {}) },
        ).catch((e: unknown) => {
          failed = true;
          throw e;
        });
        calls++;
        if (res.costUsd === null) unpricedCalls++;
        else costUsd += res.costUsd;
        const width = res.vectors[0]!.length;
        // one model, one dimension: a mixed store would make every cosine throw later
        if (dims !== null && width !== dims) {
          failed = true;
          throw malformedError(client.provider, `${input.modelId} returned ${width} dimensions, earlier ${dims}`);
        }
        dims = width;
        const rows = batch.map(([h], i) => ({ textHash: h, vector: Float32Array.from(res.vectors[i]!) }));
        const inserted = await storeVectors(db, input.modelId, rows);
        // another worker stored some first: its vectors are the ones every later read sees, so use them
        const stored = inserted < rows.length ? await loadVectors(db, input.modelId, rows.map((r) => r.textHash)) : null;
        for (const r of rows) known.set(r.textHash, stored?.get(r.textHash) ?? r.vector);
        remaining -= batch.length;
        deps.onBatch?.({ embedded: batch.length, remaining });
      }),
    ),
  );
  const failure = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw failure.reason;
  return { vectors: textHashes.map((h) => known.get(h)!), textHashes, calls, cached, costUsd, unpricedCalls };
}
