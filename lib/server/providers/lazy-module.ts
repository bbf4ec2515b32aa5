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
