/**
 * Use case: the drift checks of a scheduled run that just finished. For every model it shares
 * with the previous completed scheduled run of the same blueprint version, the paired drift test
 * (lib/core/scoring/drift.ts) over the prompts both scored, against the blueprint's MDE as the
 * planner reads it from the earlier run, with what the provider said it served in each run.
 * One row per (run, model) in `drift_checks`, upserted: a finish repeated by a retry or a
 * resume recomputes the same rows from the same data (the bootstrap is seeded by the run ids).
 *
 * Only `schedule` runs are compared: manual, CLI and pull-request runs are someone's one-off,
 * and a scheduled re-run of an unchanged blueprint repeats the identical run on purpose, cache
 * bypassed (jobs/functions/schedule-reruns.ts), which is what makes the comparison a measurement
 * of the provider rather than of the blueprint.
 */
import { xoroshiro128plus } from 'pure-rand';
import { driftTest, hashSeed, servedChanged, typicalServed, DriftMovedListSchema, type DriftTest, type ServedIdentity } from '@/lib/core';
import type { Db } from '../db/client';
import { cachedPromptResults, runMde, type PromptResultsCache } from '../db/queries/blueprint-plan';

export interface DriftCheckResult {
  modelId: string;
  fromRunId: string;
  toRunId: string;
  test: DriftTest;
  before: ServedIdentity;
  after: ServedIdentity;
  servedChanged: boolean;
}

/** The completed scheduled run of the same version just before this one, if any. */
export async function previousScheduledRun(db: Db, run: { id: string; blueprintId: string; versionId: string; createdAt: Date }): Promise<string | null> {
  const prev = await db.run.findFirst({
    where: { blueprintId: run.blueprintId, versionId: run.versionId, trigger: 'schedule', status: 'completed', id: { not: run.id }, createdAt: { lt: run.createdAt } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true },
  });
  return prev?.id ?? null;
}

async function servedByModel(db: Db, runId: string): Promise<Map<string, ServedIdentity>> {
  const rows = await db.reply.findMany({ where: { runId, error: null }, select: { modelId: true, servedModel: true, systemFingerprint: true } });
  const by = new Map<string, ServedIdentity[]>();
  for (const r of rows) (by.get(r.modelId) ?? by.set(r.modelId, []).get(r.modelId)!).push({ model: r.servedModel, fingerprint: r.systemFingerprint });
  return new Map([...by].map(([m, list]) => [m, typicalServed(list)]));
}

/**
 * Computes and stores the drift checks of `runId` when it is a completed scheduled run with a
 * predecessor; returns them (empty otherwise).
 */
export async function checkDrift(db: Db, runId: string, cache?: PromptResultsCache): Promise<DriftCheckResult[]> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { id: true, blueprintId: true, versionId: true, trigger: true, status: true, createdAt: true } });
  if (!run || run.trigger !== 'schedule' || run.status !== 'completed') return [];
  const fromRunId = await previousScheduledRun(db, run);
  if (!fromRunId) return [];

  const [before, after, servedBefore, servedAfter, sealed] = await Promise.all([
    cachedPromptResults(db, fromRunId, cache),
    cachedPromptResults(db, runId, cache),
    servedByModel(db, fromRunId),
    servedByModel(db, runId),
    db.versionPrompt.findMany({ where: { versionId: run.versionId, split: 'test' }, select: { promptKey: true } }),
  ]);
  const hidden = new Set(sealed.map((p) => p.promptKey));
  // The blueprint's MDE, from the earlier run (stored when it was summarised): what this blueprint was sized to see.
  const mde = await runMde(db, fromRunId, before);
  const earlier = new Map(before.map((m) => [m.modelId, m.prompts]));
  const nothing: ServedIdentity = { model: null, fingerprint: null };
  const results: DriftCheckResult[] = [];
  for (const m of after) {
    const was = earlier.get(m.modelId);
    if (!was) continue;
    const test = driftTest(was, m.prompts, mde, xoroshiro128plus(hashSeed(`${fromRunId}\u0000${runId}\u0000${m.modelId}`)));
    // sealed prompts count in the test, but are never named on a page
    test.moved = test.moved.filter((x) => !hidden.has(x.promptKey));
    const b = servedBefore.get(m.modelId) ?? nothing;
    const a = servedAfter.get(m.modelId) ?? nothing;
    results.push({ modelId: m.modelId, fromRunId, toRunId: runId, test, before: b, after: a, servedChanged: servedChanged(b, a) });
  }

  for (const r of results) {
    const data = {
      blueprintId: run.blueprintId,
      versionId: run.versionId,
      fromRunId,
      paired: r.test.paired,
      difference: r.test.difference,
      ciLow: r.test.interval?.low ?? null,
      ciHigh: r.test.interval?.high ?? null,
      mde: r.test.mde,
      flagged: r.test.flagged,
      reason: r.test.reason,
      servedModelBefore: r.before.model,
      servedModelAfter: r.after.model,
      fingerprintBefore: r.before.fingerprint,
      fingerprintAfter: r.after.fingerprint,
      servedChanged: r.servedChanged,
      moved: DriftMovedListSchema.parse(r.test.moved),
    };
    await db.driftCheck.upsert({ where: { toRunId_modelId: { toRunId: runId, modelId: r.modelId } }, create: { toRunId: runId, modelId: r.modelId, ...data }, update: data });
  }
  return results;
}
