import type { HeaderSource, SdkErrorKinds } from './classify';

/**
 * A value made on first use and then kept: the provider SDKs (openai, @anthropic-ai/sdk,
 * @google/genai) imported with `import()` the first time a call needs them, and each adapter's
 * SDK client made once from it. Imported at the top of the adapters, they were ~500 files that
 * every `assay` command loaded at start-up (the CLI bundles our code, packages stay imports),
 * even `assay run --fixtures`, which calls no provider. lazy-sdks.test.ts keeps it so.
 */
export interface Lazy<T> {
  /** The value, made by the first call (a failed attempt is forgotten, so the next call tries again). */
  (): Promise<T>;
  /**
   * The value once made, else undefined. For synchronous checks after a call, e.g. `instanceof`
   * on an SDK's error classes: an error of the SDK can only come from a call made through it.
   */
  peek(): T | undefined;
}

export function lazy<T>(make: () => Promise<T>): Lazy<T> {
  let pending: Promise<T> | undefined;
  let value: T | undefined;
  const get = (): Promise<T> =>
    (pending ??= make().then(
      (made) => (value = made),
      (e: unknown) => {
        pending = undefined;
        throw e;
      },
    ));
  return Object.assign(get, { peek: () => value });
}

/** `e instanceof type`, false without the type: an SDK's error class read with `peek()` before the SDK was loaded. */
export function isInstance(e: unknown, type: (abstract new (...args: never[]) => unknown) | undefined): boolean {
  return type !== undefined && e instanceof type;
}

type Class<T> = abstract new (...args: never[]) => T;

/**
 * The error classes the openai and @anthropic-ai/sdk packages both export (both SDKs are generated
 * by Stainless from the providers' OpenAPI documents, with the same error hierarchy).
 */
export interface StainlessErrorClasses<E> {
  APIUserAbortError: Class<unknown>;
  APIConnectionTimeoutError: Class<unknown>;
  APIConnectionError: Class<unknown>;
  APIError: Class<E>;
}

/**
 * What a Stainless SDK's errors are, for the shared SDK classifier (classify.ts), read from the
 * SDK once loaded; only the error codes an HTTP error carries differ between the two SDKs. A
 * connection timeout is a connection error too, so the classifier tests the timeout first.
 */
export function stainlessErrorKinds<E extends { status: number | undefined; headers: unknown; message: string }>(
  sdk: Lazy<StainlessErrorClasses<E>>,
  codesOf: (e: E) => readonly (string | null | undefined)[],
): SdkErrorKinds {
  return {
    isAbort: (e) => isInstance(e, sdk.peek()?.APIUserAbortError),
    isTimeout: (e) => isInstance(e, sdk.peek()?.APIConnectionTimeoutError),
    isConnection: (e) => isInstance(e, sdk.peek()?.APIConnectionError),
    http: (e) => {
      const APIError = sdk.peek()?.APIError;
      if (!APIError || !(e instanceof APIError) || typeof e.status !== 'number') return null;
      return { status: e.status, headers: e.headers as HeaderSource, message: e.message, codes: codesOf(e) };
    },
  };
}
