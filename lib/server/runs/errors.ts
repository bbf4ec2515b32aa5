/** Why a run (or one of its steps) stopped. Typed so callers can tell a budget stop from a crash. */
export class BudgetExceededError extends Error {
  override name = 'BudgetExceededError';
  constructor(readonly runId: string, readonly reason: string) {
    super(`run ${runId} stopped: ${reason}`);
  }
}

export class RunNotFoundError extends Error {
  override name = 'RunNotFoundError';
  constructor(readonly runId: string) {
    super(`no run with id ${runId}`);
  }
}

export class RunConfigError extends Error {
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
