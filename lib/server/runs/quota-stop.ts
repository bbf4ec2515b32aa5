/**
 * An account out of credit or quota (a ProviderError of kind `quota`: OpenAI's 429
 * `insufficient_quota`, OpenRouter's 402, Anthropic's billing error or spend limit) fails every
 * further call on the same key until someone pays, so retrying, or calling again for the next
 * cell, only adds failed calls and waits. The gateway records the first such error per run and
 * account, and every later call of that run to that account fails at once with a sentence that
 * says why, without being sent (and without reserving budget). Cached answers are still served.
 *
 * The account is the provider (its key is per provider: ProviderConfig.keys), except for custom
 * HTTP systems, which each have their own endpoint and are stopped one model at a time.
 */
import { ProviderError } from '../providers';

/** Runs a gateway remembers stops for (a long-lived worker executes many runs in turn). */
const MAX_RUNS = 256;

export class QuotaStops {
  readonly #byRun = new Map<string, Map<string, ProviderError>>();

  /** The error to fail a call with, when this run already learned that `account` is out of quota. */
  stopped(runId: string, account: string): ProviderError | null {
    const first = this.#byRun.get(runId)?.get(account);
    if (!first) return null;
    return new ProviderError({
      kind: 'quota',
      provider: first.provider,
      message: `${first.provider}: not called: earlier in this run the provider said the account is out of credit or quota (${first.message})`,
      ...(first.status !== undefined ? { status: first.status } : {}),
    });
  }

  /** Records `e` when it is a quota error; later calls of the run to `account` are then stopped. */
  observe(runId: string, account: string, e: unknown): void {
    if (!(e instanceof ProviderError) || e.kind !== 'quota') return;
    let run = this.#byRun.get(runId);
    if (!run) {
      if (this.#byRun.size >= MAX_RUNS) this.#byRun.delete(this.#byRun.keys().next().value!);
      this.#byRun.set(runId, (run = new Map()));
    }
    if (!run.has(account)) run.set(account, e);
  }
}
