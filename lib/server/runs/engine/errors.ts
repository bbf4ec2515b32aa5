/**
 * The run pipeline's errors. Those a caller can cause (an unknown run, a run that cannot be
 * configured) are AppErrors with their HTTP status, mapped once by `route()` (http/route.ts)
 * and by the CLI (lib/cli/with-run-database.ts). The others stop a run from the inside and
 * never reach a client: they stay plain errors.
 */
import { ConflictError, NotFoundError } from '../../http/errors';

/** Why a run (or one of its steps) stopped. Typed so callers can tell a budget stop from a crash. */
export class BudgetExceededError extends Error {
  override name = 'BudgetExceededError';
  constructor(readonly runId: string, readonly reason: string) {
    super(`run ${runId} stopped: ${reason}`);
  }
}

/** 404: no run has this id. */
export class RunNotFoundError extends NotFoundError {
  override name = 'RunNotFoundError';
  constructor(readonly runId: string) {
    super(`no run with id ${runId}`);
  }
}

/** 409: the run cannot be configured as asked (no such version, no models, an unknown judge…); the message says why. */
export class RunConfigError extends ConflictError {
  override name = 'RunConfigError';
}

/**
 * This worker no longer holds the run's lease (it lapsed, and another worker took the run
 * over): it must stop calling providers at once, or both would pay for the same calls.
 */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
  constructor(readonly runId: string) {
    super(`run ${runId}: this worker's lease lapsed and another worker holds the run now`);
  }
}
