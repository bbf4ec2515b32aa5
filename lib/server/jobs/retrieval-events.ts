/**
 * The Inngest events of a retrieval run (runs/retrieval/steps.ts), each with its zod schema. A
 * run's first event is the chat pipeline's `assay/run.requested` (the dispatcher does not know
 * a run's kind); run-start hands a retrieval run over with `assay/retrieval.requested`.
 */
import { eventType } from 'inngest';
import { z } from 'zod';

const execution = z.string().min(1).optional();

export const retrievalRequested = eventType('assay/retrieval.requested', { schema: z.object({ runId: z.string().min(1), execution }) });

/** One batch of one model's documents or queries: embed and store it. Keyed by the model's provider. */
export const retrievalBatchRequested = eventType('assay/retrieval.batch.requested', {
  schema: z.object({ runId: z.string().min(1), modelId: z.string(), kind: z.enum(['document', 'query']), batchIndex: z.number().int().nonnegative(), provider: z.string(), execution }),
});

/** Every batch of one model is embedded: search and score its rankings. */
export const retrievalScoreRequested = eventType('assay/retrieval.score.requested', { schema: z.object({ runId: z.string().min(1), modelId: z.string(), execution }) });

/** Nothing is left (or the budget stopped the run): decide its end. */
export const retrievalFinishRequested = eventType('assay/retrieval.finish.requested', { schema: z.object({ runId: z.string().min(1), execution }) });
