/**
 * Scheduled re-runs: which blueprints to run again, and asking for each run. A blueprint is
 * due when it has never run, when its latest run is older than the configured age (then the
 * identical run is repeated on purpose, with the cache bypassed, to measure drift), or when
 * its run identity changed (a new version, a changed model collection…). That last case is
 * decided by `requestRun` itself with `skipIfIdentical`: an unchanged blueprint is never run
 * twice. Pull-request runs do not count: they ran a PR's content, not the branch's.
 *
 * Drift: the stale case is the drift measurement. `skipIfIdentical` is off for it, so
 * an unchanged blueprint's identical run (same version, same models and judges) is run again
 * every `maxAgeDays` (ASSAY_RERUN_MAX_AGE_DAYS), with the response cache bypassed so every reply
 * is a fresh provider call; when it completes, steps.finish compares it with the previous
 * scheduled run of the same version (runs/drift-check.ts). Between two such ticks an unchanged
 * blueprint is skipped as identical, which is what keeps a frequent cron from spending money
 * on repeats.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client';
import type { RunMode } from '@/lib/core';
import type { RunPorts } from '../../runs/contracts';

export interface RerunPolicy {
  maxAgeDays: number;
  /** New runs per tick at most, so a first tick over a large repository does not spend everything at once. */
  maxPerTick: number;
  /** `batch`: scheduled runs go through the providers' batch APIs (ASSAY_RERUN_MODE; default live). */
  mode?: RunMode;
}

export interface DueBlueprint {
  blueprintId: string;
  reason: 'never_run' | 'stale' | 'identity';
  /** ISO time of the latest scheduled/manual run, if any. */
  lastRunAt: string | null;
}

export interface RerunResult {
  blueprintId: string;
  reason: DueBlueprint['reason'];
  runId: string;
  deduplicated: boolean;
}

/** Every live, valid blueprint with the reason it may need a run; oldest runs first. */
export async function planReruns(db: Db, policy: Pick<RerunPolicy, 'maxAgeDays'>, now: Date): Promise<DueBlueprint[]> {
  const blueprints = await db.blueprint.findMany({
    where: { removedAt: null, latestVersion: { is: { valid: true } } },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  const latest = await db.$queryRaw<{ blueprint_id: string; created_at: Date }[]>`
    SELECT DISTINCT ON (blueprint_id) blueprint_id, created_at FROM runs
    WHERE trigger IN ('schedule', 'manual', 'cli')
    ORDER BY blueprint_id, created_at DESC`;
  const lastRun = new Map(latest.map((r) => [r.blueprint_id, new Date(r.created_at)]));
  const cutoff = now.getTime() - policy.maxAgeDays * 86_400_000;
  return blueprints
    .map(({ id }): DueBlueprint => {
      const at = lastRun.get(id);
      if (!at) return { blueprintId: id, reason: 'never_run', lastRunAt: null };
      return { blueprintId: id, reason: at.getTime() < cutoff ? 'stale' : 'identity', lastRunAt: at.toISOString() };
    })
    .sort((a, b) => (a.lastRunAt ?? '').localeCompare(b.lastRunAt ?? '') || a.blueprintId.localeCompare(b.blueprintId));
}

export async function requestRerun(db: Db, ports: RunPorts, due: DueBlueprint, mode: RunMode = 'live'): Promise<RerunResult> {
  const run = await ports.requestRun(
    db,
    // a stale blueprint repeats its identical run on purpose; otherwise only a changed identity runs
    { blueprintId: due.blueprintId, trigger: 'schedule', bypassCache: true, skipIfIdentical: due.reason !== 'stale', ...(mode === 'batch' ? { mode } : {}) },
    ports.dispatcher,
  );
  return { blueprintId: due.blueprintId, reason: due.reason, runId: run.runId, deduplicated: run.deduplicated };
}

/** How long a claim on a tick's request may stay unfinished before another execution takes it over. */
const CLAIM_STALE_MS = 5 * 60_000;

/** Another execution of the same tick is requesting this blueprint's run right now: the step is retried. */
export class RerunInFlight extends Error {
  override name = 'RerunInFlight';
}

/**
 * `requestRerun` at most once per tick and blueprint, whatever repeats the step: a retried step
 * (Inngest runs a step again when its result was not recorded, e.g. a request cut by a proxy),
 * or a second execution of it running beside the first
 * (https://www.inngest.com/docs/guides/handling-idempotency). The claim is a row of the job
 * journal (job_steps, unique `key`) inserted before the request; the request's result is
 * stored on it, and a repeat returns that result instead of starting a second paid run. A
 * claim whose request failed is deleted (the retry asks again); one left unfinished by a
 * crashed worker is taken over after five minutes.
 */
export async function requestRerunOnce(db: Db, ports: RunPorts, due: DueBlueprint, tick: string, mode: RunMode = 'live'): Promise<RerunResult> {
  const key = `schedule-reruns:${tick}:${due.blueprintId}`;
  const stale = new Date(Date.now() - CLAIM_STALE_MS);
  const claimed = await db.$executeRaw`
    INSERT INTO job_steps (id, key, function, status, attempts, started_at)
    VALUES (${randomUUID()}, ${key}, 'schedule-reruns', 'started', 1, now())
    ON CONFLICT (key) DO UPDATE SET started_at = now(), attempts = job_steps.attempts + 1
      WHERE job_steps.status = 'started' AND job_steps.started_at < ${stale}`;
  if (claimed === 0) {
    const prior = await db.jobStep.findUniqueOrThrow({ where: { key }, select: { status: true, output: true } });
    if (prior.status === 'completed' && prior.output) return prior.output as unknown as RerunResult;
    throw new RerunInFlight(`the ${tick} run of ${due.blueprintId} is being requested by another execution; the step is retried`);
  }
  let result: RerunResult;
  try {
    result = await requestRerun(db, ports, due, mode);
  } catch (e) {
    await db.jobStep.delete({ where: { key } }).catch(() => {});
    throw e;
  }
  await db.jobStep.update({ where: { key }, data: { status: 'completed', runId: result.runId, output: { ...result }, finishedAt: new Date() } });
  return result;
}

/** One tick, in this process (the local runner and tests); the Inngest cron does the same step by step. */
export async function scheduleReruns(db: Db, ports: RunPorts, policy: RerunPolicy, now = new Date()): Promise<RerunResult[]> {
  const results: RerunResult[] = [];
  let created = 0;
  for (const due of await planReruns(db, policy, now)) {
    if (created >= policy.maxPerTick) break;
    const r = await requestRerun(db, ports, due, policy.mode);
    if (!r.deduplicated) created++;
    results.push(r);
  }
  return results;
}
