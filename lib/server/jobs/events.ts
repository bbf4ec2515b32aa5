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

/** One prompt × model slice of a run: generate its replies, then judge them. */
export const runCellRequested = eventType('assay/run.cell.requested', {
  schema: z.object({
    runId: z.string().min(1),
    promptKey: z.string(),
    modelId: z.string(),
    /** Provider prefix of modelId, the concurrency/throttle key. */
    provider: z.string(),
    execution: z.string().min(1).optional(),
  }),
});

/**
 * One prompt × model slice of a run whose replies are stored: grade them. A separate function
 * from generation so that its concurrency keys are the judge panel's providers (two at most).
 */
export const runJudgeRequested = eventType('assay/run.judge.requested', {
  schema: z.object({
    runId: z.string().min(1),
    promptKey: z.string(),
    modelId: z.string(),
    /** The first of the judge panel's providers: a concurrency key shared with generation on that provider. */
    judgeProvider: z.string(),
    /** The second provider of the panel, or a key of this slice alone (never contended) when there is none. */
    judgeProvider2: z.string(),
    execution: z.string().min(1).optional(),
  }),
});

/** Every cell of a run has finished (or the budget stopped it): summarise. */
export const runCellsFinished = eventType('assay/run.cells.finished', {
  schema: z.object({ runId: z.string().min(1), execution: z.string().min(1).optional() }),
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
