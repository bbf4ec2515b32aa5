/**
 * Which models of a stored run were called at a price nobody knows (cost.ts): their calls are
 * not in the run's `cost_usd`, so the pages and the CLI show the cost as unknown for them rather
 * than a sum that silently counts them as $0. Read from the run's own columns: its graded models
 * (not called by a rescore, which re-grades stored replies), its judges and its HTTP systems.
 */
import { z } from 'zod';
import { parseStoredOrNull, StoredUnpricedModelsSchema } from '@/lib/core';
import type { Db } from '../client';
import { unpricedModelIds } from '../../providers';

const Stored = z.object({
  models: z.array(z.string()).catch([]),
  judges: z.array(z.object({ model: z.string() }).loose()).catch([]),
  config: z.object({ settings: z.object({ customModels: z.record(z.string(), z.unknown()).catch({}) }).loose().catch({ customModels: {} }) }).loose().catch({ settings: { customModels: {} } }),
});

export function unpricedOfRun(run: { models: unknown; judges: unknown; config: unknown; trigger: string }): string[] {
  const r = Stored.parse({ models: run.models, judges: run.judges, config: run.config });
  const called = [...(run.trigger === 'rescore' ? [] : r.models), ...r.judges.map((j) => j.model)];
  return unpricedModelIds(called, Object.keys(r.config.settings.customModels));
}

/**
 * `unpricedOfRun`, and also the graded models with a reply that came back without a cost: a price
 * the provider should have reported and did not (an OpenRouter reply without `usage.cost`, a reply
 * without usage). Those calls are not in `cost_usd` either, so a page that trusted the price table
 * alone would show the model's cost as $0. A reply that failed, or came from the cache, cost nothing.
 */
export async function unpricedOfStoredRun(db: Db, run: { id: string; models: unknown; judges: unknown; config: unknown; trigger: string }): Promise<string[]> {
  // a finished run's, found when it was summarised: a look through every reply, once
  const row = await db.run.findUnique({ where: { id: run.id }, select: { unpricedModels: true } });
  const stored = parseStoredOrNull(StoredUnpricedModelsSchema, row?.unpricedModels, `runs.unpriced_models of run ${run.id}`);
  return stored ?? findUnpricedOfStoredRun(db, run);
}

/** The same, from the run's replies (a run still going; summarising stores it). */
export async function findUnpricedOfStoredRun(db: Db, run: { id: string; models: unknown; judges: unknown; config: unknown; trigger: string }): Promise<string[]> {
  const byTable = unpricedOfRun(run);
  // a rescore calls no model: the replies it grades are its parent's (lib/core/runs/reply-source.ts)
  if (run.trigger === 'rescore') return byTable;
  const rows = await db.$queryRaw<{ model_id: string }[]>`
    SELECT DISTINCT model_id FROM replies WHERE run_id = ${run.id} AND cost_usd IS NULL AND error IS NULL AND NOT from_cache`;
  return [...new Set([...byTable, ...rows.map((r) => r.model_id)])];
}
