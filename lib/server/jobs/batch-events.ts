/**
 * The Inngest events of a run's batch mode (runs/chat/batch-steps.ts), each with its zod schema.
 * Batch rounds run as function runs of their own (one round per run, chained by these events),
 * so a run polled for a day never comes near Inngest's limit of steps per function run; the
 * run's planner hands over to them with `assay/run.batch.requested` and takes the run back
 * (the live fan-out of what the batches left) on `assay/run.batch.finished`.
 */
import { eventType } from 'inngest';
import { z } from 'zod';

const execution = z.string().min(1).optional();

/** A batch-mode run was started: submit its batches and poll them until imported. */
export const runBatchRequested = eventType('assay/run.batch.requested', {
  schema: z.object({
    runId: z.string().min(1),
    execution,
    round: z.number().int().nonnegative(),
    /** Set by the round whose submission the budget stopped: later rounds carry it to runBatchFinished. */
    budgetStop: z.string().optional(),
  }),
});

/**
 * Nothing waits for a provider batch any more: what is left (calls of providers without a batch
 * API, lines a batch returned failed) goes to the live fan-out. `budgetStop` says why the
 * rounds stopped early when the budget stopped a submission; the run is then finished instead.
 */
export const runBatchFinished = eventType('assay/run.batch.finished', {
  schema: z.object({ runId: z.string().min(1), execution, budgetStop: z.string().optional() }),
});
