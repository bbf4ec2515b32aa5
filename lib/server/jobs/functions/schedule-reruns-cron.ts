/**
 * Inngest cron: scheduled re-runs. The plan is one step; each run request is its own step, so
 * a retried tick skips the requests already made, and one failing blueprint does not stop
 * the others.
 */
import { cron } from 'inngest';
import { inngest } from '../client';
import type { GitHubServices } from '../../github/services';
import { planReruns, requestRerun, type RerunPolicy, type RerunResult } from './schedule-reruns';

export function scheduleRerunsFunction(services: () => GitHubServices, schedule: string, policy: RerunPolicy) {
  return inngest.createFunction({ id: 'schedule-reruns', triggers: [cron(schedule)], concurrency: { limit: 1 } }, async ({ step }) => {
    const plan = await step.run('plan-reruns', () => planReruns(services().db, policy, new Date()));
    const results: RerunResult[] = [];
    let created = 0;
    for (const due of plan) {
      if (created >= policy.maxPerTick) break;
      const r = await step.run(`request-run-${due.blueprintId}`, () => requestRerun(services().db, services().runs, due, policy.mode));
      if (!r.deduplicated) created++;
      results.push(r);
    }
    return { planned: plan.length, created, results };
  });
}
