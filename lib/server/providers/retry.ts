/**
 * Our retry policy (the SDKs' own retries are off, so there is exactly one): exponential
 * backoff with full jitter, honouring the provider's `retry-after`. Only kinds that might
 * succeed next time are retried; auth, bad requests, malformed replies and cancellations are
 * returned at once.
 */
import { isProviderError, type ProviderError } from './types';

export interface RetryOptions {
  /** Total tries including the first. */
  maxAttempts?: number;
  baseDelayMs?: number;
  /**
   * Cap on one wait. A `retry-after` longer than this gives up at once rather than holding a
   * worker: the job queue can come back later.
   */
  maxDelayMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Uniform in [0, 1); injectable for deterministic tests. */
  random?: () => number;
  /** Stops waiting between attempts. */
  signal?: AbortSignal;
  /** Told before each wait (progress, logs). */
  onRetry?: (info: { attempt: number; delayMs: number; error: ProviderError }) => void;
  /** How many times a `timeout` may be tried again within the attempts (default 1; see TIMEOUT_RETRIES). */
  maxTimeoutRetries?: number;
}

export const DEFAULT_RETRY = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 30_000 } as const;

/**
 * A timeout is not a refusal: the request was sent, the provider may still be generating, and
 * it bills the answer it finishes whether or not anyone waits for it. Four blind attempts at a
 * slow reasoning answer could start (and pay for) it four times. So a timed-out call is tried
 * again once, with a deadline twice as long (`TIMEOUT_RETRY_FACTOR`, applied by the caller, which
 * owns the deadline: gateway.ts), and then left as a `timeout` error reply for a resume to
 * regenerate. Errors before generation (429, 5xx, a dropped connection) keep the full attempts.
 */
export const TIMEOUT_RETRIES = 1;
export const TIMEOUT_RETRY_FACTOR = 2;

/** The deadline for an attempt that follows `previous`: longer after a timeout, unchanged otherwise. */
export function deadlineAfter(timeoutMs: number, previous: ProviderError | undefined): number {
  return previous?.kind === 'timeout' ? timeoutMs * TIMEOUT_RETRY_FACTOR : timeoutMs;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = (): void => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Full jitter: uniform in [0, min(max, base·2^(attempt−1))] (AWS's recommendation). */
export function backoffDelay(attempt: number, opts: { baseDelayMs: number; maxDelayMs: number; random: () => number }): number {
  const ceiling = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(opts.random() * ceiling);
}

/**
 * Calls `fn(attempt, previous)` (1-based; `previous` is the error that made this attempt a retry)
 * until it succeeds, fails for good, or attempts run out.
 */
export async function withRetry<T>(fn: (attempt: number, previous: ProviderError | undefined) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const maxAttempts = options.maxAttempts ?? DEFAULT_RETRY.maxAttempts;
  const baseDelayMs = options.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs;
  const maxDelayMs = options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs;
  const maxTimeoutRetries = options.maxTimeoutRetries ?? TIMEOUT_RETRIES;
  const wait = options.sleep ?? sleep;
  const random = options.random ?? Math.random;
  let previous: ProviderError | undefined;
  let timeouts = 0;

  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt, previous);
    } catch (e) {
      if (!isProviderError(e) || !e.retryable || attempt >= maxAttempts) throw e;
      if (e.kind === 'timeout' && ++timeouts > maxTimeoutRetries) throw e;
      previous = e;
      const jitter = backoffDelay(attempt, { baseDelayMs, maxDelayMs, random });
      if (e.retryAfterMs !== undefined && e.retryAfterMs > maxDelayMs) throw e;
      // Never earlier than the provider asked; jitter on top would only add delay, so take the larger.
      const delayMs = e.retryAfterMs === undefined ? jitter : Math.max(e.retryAfterMs, jitter);
      options.onRetry?.({ attempt, delayMs, error: e });
      await wait(delayMs, options.signal);
    }
  }
}
