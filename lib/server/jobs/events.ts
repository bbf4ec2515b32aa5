/**
 * Assay's Inngest events, each with its zod schema (validated by the SDK at runtime).
 * At scale these drive the Inngest functions; locally the in-process runner calls the same
 * step code directly.
 */
import { eventType } from 'inngest';
import { z } from 'zod';

/** A run was created (status queued) and should be executed. */
export const runRequested = eventType('assay/run.requested', {
  schema: z.object({
    runId: z.string().min(1),
    /**
     * One dispatch of the run (a first start or a resume). Every event id of the execution names it,
     * so a resume is never mistaken for a repeat of the last execution (Inngest drops an event id it
     * has seen for 24 h), while a repeat within one execution still is.
     */
    execution: z.string().min(1).optional(),
  }),
});

/** Re-grade a run's stored replies with a new rubric/judge set (the new run already exists). */
export const rescoreRequested = eventType('assay/run.rescore.requested', {
  schema: z.object({ runId: z.string().min(1), execution: z.string().min(1).optional() }),
});

/** Sync the configured blueprint source (a push webhook, the cron safety net, or an admin). */
export const syncRequested = eventType('assay/source.sync.requested', {
  schema: z.object({ trigger: z.enum(['webhook', 'cron', 'admin', 'cli']), commitSha: z.string().optional() }),
});

/** A pull request to the blueprint repository was opened or updated: validate it. */
export const pullRequestChanged = eventType('assay/pull-request.changed', {
  schema: z.object({ number: z.number().int().positive(), headSha: z.string(), author: z.string(), title: z.string() }),
});

/**
 * Someone approved a pull request's run: a label or a `/assay run` comment (their write
 * permission is checked by the job, not assumed), or a maintainer on the admin page. `headSha`,
 * when known (label events carry it), binds the approval to that commit.
 */
export const pullRequestApproved = eventType('assay/pull-request.approved', {
  schema: z.object({
    number: z.number().int().positive(),
    headSha: z.string().optional(),
    approvedBy: z.string(),
    via: z.enum(['label', 'comment', 'admin']),
  }),
});
