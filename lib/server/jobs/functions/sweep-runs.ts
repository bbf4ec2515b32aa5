/**
 * Inngest cron: resumes runs nothing is working on. A run whose events were lost, whose
 * functions failed after their retries while the database was unreachable, or whose worker died
 * mid-finish stays `queued`, `running` or `summarising` with nobody to move it. Past a quiet time
 * (nothing about it changed: its row, its units) with no live lease (the in-process runner's on
 * the run, a slice's on a unit), the sweeper dispatches a new execution of it, as a resume does
 * (runExecutionEvent): the plan is made again from what is stored, so nothing done is repeated.
 * A run with a provider batch still submitted is waiting, not stuck (its batch rounds poll it),
 * within the providers' 24-hour batch window.
 *
 * Idempotent: the new execution's id is derived from the moment the run went quiet, so two
 * sweeps of the same quiet run send the same event id, which Inngest drops as a repeat
 * (https://www.inngest.com/docs/guides/handling-idempotency); a resumed run that goes quiet
 * again gets a new one. At most SWEEP_BATCH runs per tick, one send (Inngest takes 5,000
 * events per send: https://www.inngest.com/docs/usage-limits/inngest).
 */
import { cron } from 'inngest';
import { inngest } from '../client';
import type { Db } from '../../db/client';
import type { RunDeps } from '../../runs/engine/deps';
import { runExecutionEvent } from './run-functions';

export const SWEEP_BATCH = 200;
export const DEFAULT_SWEEP_QUIET_MS = 15 * 60_000;
export const DEFAULT_SWEEP_CRON = '*/5 * * * *';

export interface SweepOptions {
  /** How long a run must have been quiet (default 15 minutes). */
  quietMs?: number;
  cron?: string;
}

/** The runs to resume, each with the moment it went quiet (ms since the epoch, the database's clock). */
export async function quietRuns(db: Db, quietMs: number): Promise<{ runId: string; quietSince: number }[]> {
  const rows = await db.$queryRaw<{ id: string; quiet_since: number }[]>`
    SELECT q.id, floor(extract(epoch FROM q.last_change) * 1000)::float8 AS quiet_since
    FROM (
      -- a run's last change: its row's, its units' or its plans' (GREATEST passes over NULLs)
      SELECT r.id, GREATEST(r.updated_at, u.last_change, p.last_change) AS last_change, COALESCE(u.held, false) AS held
      FROM runs r
      LEFT JOIN LATERAL (
        SELECT max(updated_at) AS last_change, bool_or(holder IS NOT NULL AND lease_expires_at > now()) AS held FROM run_units WHERE run_id = r.id
      ) u ON true
      LEFT JOIN LATERAL (SELECT max(created_at) AS last_change FROM run_plans WHERE run_id = r.id) p ON true
      WHERE r.status IN ('queued', 'running', 'summarising')
        AND (r.lease_holder IS NULL OR r.lease_expires_at IS NULL OR r.lease_expires_at < now())
    ) q
    WHERE q.last_change <= now() - make_interval(secs => ${quietMs / 1000})
      AND NOT q.held
      -- a provider works on one of its batches (run-batch.ts polls it without touching the run):
      -- waited for within the providers' 24-hour batch window, with an hour's margin
      AND NOT EXISTS (SELECT 1 FROM provider_batches b WHERE b.run_id = q.id AND b.state = 'submitted' AND b.submitted_at > now() - interval '25 hours')
    ORDER BY q.last_change
    LIMIT ${SWEEP_BATCH}`;
  return rows.map((r) => ({ runId: r.id, quietSince: Number(r.quiet_since) }));
}

export function sweepRunsFunction(deps: () => Promise<RunDeps>, opts: SweepOptions = {}) {
  const quietMs = opts.quietMs ?? DEFAULT_SWEEP_QUIET_MS;
  return inngest.createFunction({ id: 'sweep-runs', triggers: [cron(opts.cron ?? DEFAULT_SWEEP_CRON)], concurrency: { limit: 1 }, retries: 3 }, async ({ step }) => {
    const quiet = await step.run('find-quiet-runs', async () => quietRuns((await deps()).db, quietMs));
    if (quiet.length > 0) await step.sendEvent('resume', quiet.map((r) => runExecutionEvent(r.runId, `sweep-${r.quietSince}`)));
    return { resumed: quiet.map((r) => r.runId) };
  });
}
