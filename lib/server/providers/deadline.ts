/**
 * One deadline and cancellation policy for every adapter. The SDKs each time out in their own
 * way (and some retry timeouts silently); racing the call against our own timer guarantees a
 * `timeout` ProviderError within `timeoutMs` even when a server hangs and an SDK ignores the
 * signal, and a caller's abort always surfaces as the caller's own abort reason.
 */
import { ProviderError } from './types';

export const DEFAULT_TIMEOUT_MS = 120_000;

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/** True for a cancellation (ours or the platform's), which must not be retried. */
export function isAbortError(e: unknown): boolean {
  return e instanceof Error && e.name === 'AbortError';
}

export async function withDeadline<T>(
  opts: { provider: string; timeoutMs: number; signal?: AbortSignal },
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const outer = opts.signal;
  if (outer?.aborted) throw abortReason(outer);
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = (): void => {};
  const timeoutError = (): ProviderError =>
    new ProviderError({ kind: 'timeout', provider: opts.provider, message: `${opts.provider}: no reply within ${opts.timeoutMs} ms` });

  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      const err = timeoutError();
      controller.abort(err);
      reject(err);
    }, opts.timeoutMs);
    onAbort = () => {
      const reason = abortReason(outer!);
      controller.abort(reason);
      reject(reason);
    };
    outer?.addEventListener('abort', onAbort, { once: true });
  });
  stopped.catch(() => {});

  try {
    return await Promise.race([run(controller.signal), stopped]);
  } catch (e) {
    // Whatever the SDK made of the abort (APIUserAbortError, a DOMException…), say why it stopped.
    if (timedOut) throw timeoutError();
    if (outer?.aborted) throw abortReason(outer);
    throw e;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
  }
}
