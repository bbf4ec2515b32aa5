/**
 * Why a run is waiting, and until when: the vocabulary the runner stores (lib/server/runs/calls/run-waits.ts,
 * table `run_waits`) and the progress API and pages read back (lib/views/run-wait-view.ts). A run
 * that waits an hour on a provider's `retry-after` otherwise looks stuck: its counters stop while
 * the reason is only in the worker's terminal.
 */
import { z } from 'zod';

/**
 * `rate_limited`: the provider answered 429 (with or without a moment to retry at).
 * `retry_after`: another retryable answer (a 503, an overload) that named a moment to retry at.
 * `backoff`: a retryable failure with no moment named (5xx, a dropped connection, a timeout): we
 * wait our own growing, jittered delay (providers/retry.ts).
 * `batch`: the model's calls went to a provider batch, which has not ended yet (batch-steps.ts).
 */
export const RunWaitKindSchema = z.enum(['rate_limited', 'retry_after', 'backoff', 'batch']);
export type RunWaitKind = z.infer<typeof RunWaitKindSchema>;

/** One model's wait as the progress API sends it (dates as ISO strings). */
export const RunWaitSchema = z.object({
  modelId: z.string(),
  provider: z.string(),
  kind: RunWaitKindSchema,
  /** The provider's own words for the refusal, redacted of keys. */
  message: z.string().nullable(),
  httpStatus: z.number().int().nullable(),
  /** The moment the provider asked to be tried again at, when it named one. */
  retryAfterAt: z.iso.datetime().nullable(),
  /** When the runner tries (or polls) again. */
  nextAttemptAt: z.iso.datetime().nullable(),
  /** The attempt that was refused (1 = the first try). */
  attempt: z.number().int().positive(),
  /** When this model's calls started waiting. */
  since: z.iso.datetime(),
});
export type RunWait = z.infer<typeof RunWaitSchema>;

/**
 * The kind of wait a retried provider failure starts: a 429 is rate limiting whatever it says;
 * any other failure that names a moment is a retry-after; the rest is our own backoff.
 */
export function runWaitKindOf(failure: { kind: string; retryAfterMs?: number | undefined }): RunWaitKind {
  if (failure.kind === 'rate_limited') return 'rate_limited';
  return failure.retryAfterMs === undefined ? 'backoff' : 'retry_after';
}
