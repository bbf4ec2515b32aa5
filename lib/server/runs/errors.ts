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
