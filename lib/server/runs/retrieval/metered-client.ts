/**
 * An embedding client that counts against its run, as every chat call does in the gateway:
 * each attempt reserves one call in the statement that checks the run's lease and budget (so
 * they hold across workers; the holder is the run's, or under Inngest a unit's: runs/units/), and is reconciled into `provider_calls` with its cost when it
 * returns or fails. embedTexts' retries go through it too, so a retry is a call.
 */
import type { EmbeddingClient, EmbeddingRequest, EmbeddingResponse } from '../../providers/embeddings';
import type { Db } from '../../db/client';
import { BudgetExceededError, LeaseLostError } from '../engine/errors';

export function meteredClient(db: Db, run: { runId: string; leaseHolder?: string; signal?: AbortSignal }, client: EmbeddingClient): EmbeddingClient {
  const holder = run.leaseHolder ?? null;
  return {
    provider: client.provider,
    model: client.model,
    maxBatch: client.maxBatch,
    concurrencyKey: client.concurrencyKey,
    async embed(req: EmbeddingRequest): Promise<EmbeddingResponse> {
      const stopped = run.signal?.aborted ? (run.signal.reason as unknown) : null;
      if (stopped) throw stopped;
      const [gate] = await db.$queryRaw<{ ok: boolean; leased: boolean }[]>`
        WITH u AS (
          UPDATE runs SET reserved_calls = reserved_calls + 1
          WHERE id = ${run.runId} AND (${holder}::text IS NULL OR lease_holder = ${holder}::text
                 OR EXISTS (SELECT 1 FROM run_units WHERE run_id = ${run.runId} AND holder = ${holder}::text AND lease_expires_at > now()))
            AND (max_calls IS NULL OR provider_calls + reserved_calls < max_calls) AND (max_cost_usd IS NULL OR cost_usd < max_cost_usd)
          RETURNING 1
        )
        SELECT EXISTS (SELECT 1 FROM u) AS ok,
               (${holder}::text IS NULL OR EXISTS (SELECT 1 FROM runs WHERE id = ${run.runId} AND lease_holder = ${holder}::text)
                 OR EXISTS (SELECT 1 FROM run_units WHERE run_id = ${run.runId} AND holder = ${holder}::text AND lease_expires_at > now())) AS leased`;
      if (!gate?.leased) throw new LeaseLostError(run.runId);
      if (!gate.ok) throw new BudgetExceededError(run.runId, 'the run’s budget (max calls or max cost) is spent');
      let cost = 0;
      try {
        const res = await client.embed({ ...req, ...(run.signal && !req.signal ? { signal: run.signal } : {}) });
        cost = res.costUsd ?? 0;
        return res;
      } finally {
        // made, answered or failed: it counts; its cost when the provider said one
        await db.$executeRaw`UPDATE runs SET reserved_calls = GREATEST(reserved_calls - 1, 0), provider_calls = provider_calls + 1, cost_usd = cost_usd + ${cost} WHERE id = ${run.runId}`;
      }
    },
  };
}
