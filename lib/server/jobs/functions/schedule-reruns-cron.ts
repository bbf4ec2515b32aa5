/**
 * Inngest cron: scheduled re-runs. The plan is one step; the run requests follow in chunks,
 * each chunk one step, so the function's steps stay bounded however many blueprints there are
 * (Inngest fails a function run past 1,000 steps: https://www.inngest.com/docs/usage-limits/inngest,
 * "Number of Steps per Function"): at most 1 + MAX_REQUEST_STEPS steps. A chunk requests its
 * blueprints one after the other until the tick's cap of new runs is reached.
 *
 * Each request is made at most once per tick (`requestRerunOnce`, keyed by the tick's time
 * and the blueprint in the job journal): a retried chunk, or one executed twice at once,
 * returns the runs it already asked for instead of starting second paid runs. The tick's time
 * is the plan step's, memoised with it, so every retry of this function run shares it.
 */
import { cron } from 'inngest';
import { inngest } from '../client';
import type { GitHubServices } from '../../github/services';
import { planReruns, requestRerunOnce, RerunInFlight, type DueBlueprint, type RerunPolicy, type RerunResult } from './schedule-reruns';

/** A blueprint whose run could not be requested (e.g. a model collection it names is unknown). */
interface RerunFailure {
  blueprintId: string;
  error: string;
}

/** Request steps at most per tick: chunks grow with the plan to keep within them. */
export const MAX_REQUEST_STEPS = 100;
/** Blueprints per request step at least (a step of a few seconds: each request is a few queries). */
export const MIN_CHUNK = 20;

/** The plan cut into the request steps' chunks: at most MAX_REQUEST_STEPS of them. */
export function rerunChunks<T>(plan: readonly T[]): T[][] {
  const size = Math.max(MIN_CHUNK, Math.ceil(plan.length / MAX_REQUEST_STEPS));
  const chunks: T[][] = [];
  for (let i = 0; i < plan.length; i += size) chunks.push(plan.slice(i, i + size));
  return chunks;
}

export function scheduleRerunsFunction(services: () => GitHubServices, schedule: string, policy: RerunPolicy) {
  return inngest.createFunction({ id: 'schedule-reruns', triggers: [cron(schedule)], concurrency: { limit: 1 } }, async ({ step }) => {
    const { tick, plan } = (await step.run('plan-reruns', async () => {
      const now = new Date();
      // only what the requests need: the step's output stays small (a step may return 4 MB)
      return { tick: now.toISOString(), plan: (await planReruns(services().db, policy, now)).map(({ blueprintId, reason, lastRunAt }) => ({ blueprintId, reason, lastRunAt })) };
    })) as { tick: string; plan: DueBlueprint[] };
    const results: RerunResult[] = [];
    const failed: RerunFailure[] = [];
    let created = 0;
    for (const [i, chunk] of rerunChunks(plan).entries()) {
      if (created >= policy.maxPerTick) break;
      const before = created;
      const done = (await step.run(`request-reruns-${i}`, async () => {
        const out: { requested: RerunResult[]; failed: RerunFailure[] } = { requested: [], failed: [] };
        let n = before;
        for (const due of chunk) {
          if (n >= policy.maxPerTick) break;
          try {
            const r = await requestRerunOnce(services().db, services().runs, due, tick, policy.mode);
            if (!r.deduplicated) n++;
            out.requested.push(r);
          } catch (e) {
            // the step is retried for a request in flight elsewhere; a blueprint that cannot run does not stop the others
            if (e instanceof RerunInFlight) throw e;
            out.failed.push({ blueprintId: due.blueprintId, error: (e as Error).message.slice(0, 500) });
          }
        }
        return out;
      })) as { requested: RerunResult[]; failed: RerunFailure[] };
      created += done.requested.filter((r) => !r.deduplicated).length;
      results.push(...done.requested);
      failed.push(...done.failed);
    }
    return { planned: plan.length, created, requested: results.length, failed };
  });
}
