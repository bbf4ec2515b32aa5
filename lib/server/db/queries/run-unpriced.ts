/**
 * Which models of a stored run were called at a price nobody knows (cost.ts): their calls are
 * not in the run's `cost_usd`, so the pages and the CLI show the cost as unknown for them rather
 * than a sum that silently counts them as $0. Read from the run's own columns: its graded models
 * (not called by a rescore, which re-grades stored replies), its judges and its HTTP systems.
 */
import { z } from 'zod';
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
