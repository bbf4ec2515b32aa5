/**
 * Inngest function: sync the configured blueprint source (the one sync use case,
 * blueprints/sync-source.ts, over the configured reader), on request (push webhook, admin,
 * CLI) and on a cron as the safety net for missed webhooks. One sync at a time: a burst of
 * pushes queues up instead of racing over the same rows (and a sync of an unchanged head is
 * two cheap requests).
 */
import { cron } from 'inngest';
import { inngest } from '../client';
import { GITHUB_JOB_RETRIES } from './github-retries';
import { syncRequested } from '../events';
import { syncConfiguredSource, type GitHubServices } from '../../github/services';

export function syncSourceFunction(services: () => GitHubServices, schedule: string) {
  return inngest.createFunction(
    { id: 'sync-blueprint-source', triggers: [syncRequested, cron(schedule)], concurrency: { limit: 1 }, retries: GITHUB_JOB_RETRIES },
    async ({ event, step }) => {
      const trigger = event.name === syncRequested.name ? event.data.trigger : 'cron';
      return step.run('sync-source', () => syncConfiguredSource(services(), trigger));
    },
  );
}
