/**
 * An account out of credit or quota (a ProviderError of kind `quota`: OpenAI's 429
 * `insufficient_quota`, OpenRouter's 402, Anthropic's billing error or spend limit) fails every
 * further call on the same key until someone pays, so retrying, or calling again for the next
 * cell, only adds failed calls and waits. The gateway records the first such error per execution
 * of a run and account, and every later call of that execution to that account fails at once with
 * a sentence that says why, without being sent (and without reserving budget). Cached answers are
 * still served. A resumed run is a new execution (a new lease holder, execute-run.ts), so once the
 * account is paid, `assay run --resume` calls it again (the `quota` replies are resumable: steps.ts).
 *
 * The account is the provider (its key is per provider: ProviderConfig.keys), except for custom
 * HTTP systems, which each have their own endpoint and are stopped one model at a time.
 */
import { ProviderError } from '../../providers';

/** Executions a gateway remembers stops for (a long-lived worker executes many runs in turn). */
const MAX_EXECUTIONS = 256;

/** One execution of a run: its id and the lease holder executing it (absent outside a lease, e.g. in tests). */
export function executionOf(run: { runId: string; leaseHolder?: string | null }): string {
  return run.leaseHolder ? `${run.runId} ${run.leaseHolder}` : run.runId;
}

export class QuotaStops {
  readonly #byExecution = new Map<string, Map<string, ProviderError>>();

  /** The error to fail a call with, when this execution already learned that `account` is out of quota. */
  stopped(execution: string, account: string): ProviderError | null {
    const first = this.#byExecution.get(execution)?.get(account);
    if (!first) return null;
    return new ProviderError({
      kind: 'quota',
      provider: first.provider,
      message: `${first.provider}: not called: earlier in this run the provider said the account is out of credit or quota (${first.message})`,
      ...(first.status !== undefined ? { status: first.status } : {}),
    });
  }

  /** Records `e` when it is a quota error; later calls of the execution to `account` are then stopped. */
  observe(execution: string, account: string, e: unknown): void {
    if (!(e instanceof ProviderError) || e.kind !== 'quota') return;
    let run = this.#byExecution.get(execution);
    if (!run) {
      if (this.#byExecution.size >= MAX_EXECUTIONS) this.#byExecution.delete(this.#byExecution.keys().next().value!);
      this.#byExecution.set(execution, (run = new Map()));
    }
    if (!run.has(account)) run.set(account, e);
  }
}
