/**
 * The Inngest events of a run's units (runs/units/), each with its zod schema. A run's first
 * event is `assay/run.requested` (events.ts) whatever its kind; these carry the rest. Every
 * event is small: a unit's work is read from its row (run_units), never sent.
 */
import { eventType } from 'inngest';
import { z } from 'zod';

const execution = z.string().min(1);

/** More of the plan's open units to send (the fan-out goes on in a function run of its own past its chunk budget). */
export const runFanOutRequested = eventType('assay/run.fan-out.requested', {
  schema: z.object({ runId: z.string().min(1), execution, cursor: z.string().nullable() }),
});

/** One unit of a run: process it. `key1`/`key2` are its concurrency keys (providers, or a key of its own). */
export const runUnitRequested = eventType('assay/run.unit.requested', {
  schema: z.object({ runId: z.string().min(1), execution, unitId: z.string().min(1), key1: z.string(), key2: z.string() }),
});

/** The plan is settled (or a budget, the deadline or a cancel stopped it): decide the run's end, once. */
export const runFinishRequested = eventType('assay/run.finish.requested', {
  schema: z.object({ runId: z.string().min(1), execution, budgetStop: z.string().optional() }),
});

/** Stop a run: its functions are cancelled (cancelOn, matched on data.runId) and it is finished as stopped. */
export const runCancelled = eventType('assay/run.cancelled', {
  schema: z.object({ runId: z.string().min(1), by: z.string().optional() }),
});
