/**
 * What maintainers allow for "try it" (docs/authoring.md, "Try it"): the models a draft may run on,
 * each author's budget per UTC day (provider calls and cost) and how many runs an author may
 * request per hour. Stored in one row (try_it_settings, id 1) so every app instance and worker
 * reads the same; until a maintainer saves it, the environment's defaults (ASSAY_TRY_*) are written
 * there on first use, since the gateway's reservation reads the limits from that row
 * (author-budget.ts).
 */
import { z } from 'zod';
import type { Db } from '../db/client';
import { retryOnUniqueViolation } from '../db/unique-retry';
import type { Env } from '../env';

export const TryItSettingsSchema = z.object({
  models: z
    .array(z.string().trim().min(1).max(200).regex(/^[\w.-]+:[\w./:@-]+$/, 'a model id looks like provider:model, e.g. openai:gpt-4o-mini'))
    .min(1, 'allow at least one model')
    .max(20, 'allow at most 20 models'),
  dailyCalls: z.number().int('a whole number of calls').min(0).max(100_000),
  dailyCostUsd: z.number().min(0).max(1_000),
  runsPerHour: z.number().int().min(1).max(1_000),
});
export type TryItSettings = z.infer<typeof TryItSettingsSchema>;

export function trySettingsFromEnv(env: Pick<Env, 'ASSAY_TRY_MODELS' | 'ASSAY_TRY_DAILY_CALLS' | 'ASSAY_TRY_DAILY_COST_USD' | 'ASSAY_TRY_RUNS_PER_HOUR'>): TryItSettings {
  return TryItSettingsSchema.parse({
    models: env.ASSAY_TRY_MODELS.split(',').map((m) => m.trim()).filter(Boolean),
    dailyCalls: env.ASSAY_TRY_DAILY_CALLS,
    dailyCostUsd: env.ASSAY_TRY_DAILY_COST_USD,
    runsPerHour: env.ASSAY_TRY_RUNS_PER_HOUR,
  });
}

const SELECT = { models: true, dailyCalls: true, dailyCostUsd: true, runsPerHour: true } as const;

/**
 * The stored settings, writing `defaults` first if no maintainer has saved any. Prisma's upsert
 * reads, then inserts: the first requests on a fresh database race to create the one row, and
 * the loser's insert fails on its key; read again, it finds the winner's.
 */
export async function readTrySettings(db: Db, defaults: TryItSettings): Promise<TryItSettings> {
  const row = await retryOnUniqueViolation(() => db.tryItSettings.upsert({ where: { id: 1 }, create: { id: 1, ...defaults }, update: {}, select: SELECT }));
  return TryItSettingsSchema.parse(row);
}

/** A maintainer's change; applies to the next reservation of every author's next call. */
export async function saveTrySettings(db: Db, settings: TryItSettings, updatedBy: string): Promise<TryItSettings> {
  const data = { ...TryItSettingsSchema.parse(settings), updatedBy, updatedAt: new Date() };
  const row = await retryOnUniqueViolation(() => db.tryItSettings.upsert({ where: { id: 1 }, create: { id: 1, ...data }, update: data, select: SELECT }));
  return TryItSettingsSchema.parse(row);
}
