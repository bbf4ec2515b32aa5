/**
 * How a run calls its providers: `live` (one HTTP call per request, answered at once) or
 * `batch` (the requests of providers with a batch API are written as batch files, submitted,
 * polled and imported: half the price, answered within 24 h; lib/server/runs/batch-*.ts). Stored in the run's
 * config by lib/server/runs/request-run.ts and read (run-context.ts, the run page) through this one schema.
 */
import { z } from 'zod';

export const RunModeSchema = z.enum(['live', 'batch']);
export type RunMode = z.infer<typeof RunModeSchema>;

/** The mode of a stored run config (runs written before modes existed are live). */
export function runModeOf(config: unknown): RunMode {
  const mode = (config as { mode?: unknown } | null)?.mode;
  return RunModeSchema.catch('live').parse(mode ?? 'live');
}
