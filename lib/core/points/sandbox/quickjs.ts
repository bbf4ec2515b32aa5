/**
 * The `SandboxPort` over QuickJS compiled to WebAssembly (quickjs-emscripten).
 *
 * Why this file is allowed in pure core, and kept alone: it is the one adapter-like module of
 * lib/core/points. It loads a wasm module (async, once, in `createQuickJsSandbox`) and reads a
 * clock, but only to bound run time: the clock (`now`, injected, Date.now by default) can turn
 * a run into a timeout error and never feeds a result. Nothing else in core imports it; the
 * server and the CLI create one sandbox and pass it in `PointContext.sandbox`.
 *
 * Isolation (docs/compatibility.md, "Sandboxed code"):
 * - every run gets a fresh QuickJS runtime + context, disposed afterwards: no state survives
 *   between evaluations, and one blueprint cannot see another's globals;
 * - the guest has only ECMAScript built-ins: no `process`, `require`, `fetch`, module loader,
 *   timers or host functions. Inputs cross as JSON text (parsed inside the guest) and the
 *   result leaves as JSON text (serialised inside the guest, parsed by the host), so no host
 *   object or function is ever reachable from guest code;
 * - limits: wall-clock deadline (interrupt handler), heap (`setMemoryLimit`), native stack
 *   (`setMaxStackSize`). Each limit surfaces as a `SandboxError` of its own kind.
 *   `setMemoryLimit` alone is not enough: this QuickJS build cannot measure reallocated
 *   blocks, so arrays grown element by element escape the count (measured: 2 GB). The wasm
 *   module therefore gets its own `WebAssembly.Memory` with a hard maximum (`heapCapBytes`):
 *   past it allocation fails inside the guest and QuickJS reports "out of memory". A module
 *   whose memory grew past half the cap is recycled after the run so the pages are released;
 * - deep recursion: QuickJS's stack limit is checked against its own (shadow) stack, while the
 *   wasm frames live on the host's native stack. The default limit is small enough that
 *   QuickJS stops first; if the host stack still overflows (deeply nested source code), the
 *   module is in an unknown state and is recycled, and the run reports a `stack` error;
 * - determinism: `Date.now()`/`new Date()` read a fixed instant and `Math.random` is a seeded
 *   generator, so the same code on the same response always gives the same score.
 * - if the wasm engine itself fails (a trap, not a guest exception) the module is replaced by a
 *   spare loaded in advance, so one hostile script cannot disable scoring for the process.
 */
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { SandboxError, type SandboxPort } from '../types';

export interface QuickJsSandboxOptions {
  /** Default wall-clock budget per run (Weval allowed 100 ms in V8; QuickJS interprets, so more). */
  timeoutMs?: number;
  /** Default guest heap limit per run. */
  memoryBytes?: number;
  /** Guest native stack limit (deep recursion becomes a `stack` error, not a wasm trap). */
  stackBytes?: number;
  /** Hard maximum of the wasm module's memory (the guest heap cannot grow past it). */
  heapCapBytes?: number;
  /** Clock for the deadline only. */
  now?: () => number;
  /** What `Date.now()` returns inside the guest. */
  guestEpochMs?: number;
  /** Seed of the guest's `Math.random`. */
  randomSeed?: number;
}

export interface QuickJsSandbox extends SandboxPort {
  /**
   * Resolves once a spare engine is loaded again after a recycle (a trap, a host stack
   * overflow, a memory bomb). Until then a second recycle in a row leaves no engine and
   * `run` reports `unavailable`; async callers may await this between runs.
   */
  ready(): Promise<void>;
  /** Releases the wasm modules; `run` throws `unavailable` afterwards. */
  dispose(): void;
}

const DEFAULTS = {
  timeoutMs: 1_000,
  memoryBytes: 32 * 1024 * 1024,
  // Measured: 32 KiB lets plain recursion reach ~170 frames and stops 5,000 nested parentheses
  // in QuickJS's parser before the host stack (~1 MiB in node) runs out; 64 KiB did not.
  stackBytes: 32 * 1024,
  heapCapBytes: 128 * 1024 * 1024,
  guestEpochMs: Date.UTC(2025, 0, 1),
  randomSeed: 0x5eed,
} as const;

/** Marker for a non-finite number inside a JSON result (a NaN score must stay visible: defect 10 in docs/compatibility.md). */
const NON_FINITE = '$assayNonFinite';

function reviveNonFinite(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && NON_FINITE in value && Object.keys(value).length === 1) {
    return Number((value as Record<string, string>)[NON_FINITE]);
  }
  return value;
}

/**
 * Runs before the blueprint's code: freezes the clock, seeds Math.random, and returns the
 * serialiser the host uses for the result (captured before user code can replace JSON).
 * `RealDate` stays reachable only through this closure.
 */
function prelude(epochMs: number, seed: number): string {
  return `(() => {
  const RealDate = Date;
  const EPOCH = ${epochMs};
  function FrozenDate(...args) {
    if (!new.target) return new RealDate(EPOCH).toString();
    return Reflect.construct(RealDate, args.length ? args : [EPOCH], new.target);
  }
  FrozenDate.prototype = RealDate.prototype;
  FrozenDate.now = () => EPOCH;
  FrozenDate.UTC = RealDate.UTC;
  FrozenDate.parse = RealDate.parse;
  Object.defineProperty(RealDate.prototype, 'constructor', { value: FrozenDate, writable: true, configurable: true });
  Object.defineProperty(globalThis, 'Date', { value: FrozenDate, writable: true, configurable: true });
  let state = ${seed >>> 0};
  Math.random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const isPromise = (v) => v instanceof Promise;
  return {
    input: (text) => parse(text),
    output: (v) => {
      if (isPromise(v)) return 'promise';
      // NaN and ±Infinity survive the crossing (JSON would make them null): see NON_FINITE.
      const text = stringify(v, (key, x) => (typeof x === 'number' && !Number.isFinite(x) ? { ${NON_FINITE}: String(x) } : x));
      return text === undefined ? 'unserialisable' : text;
    },
  };
})()`;
}

/** QuickJS's own messages for the conditions the host caused. */
function classify(name: string, message: string): SandboxError {
  if (/string too long/i.test(message)) return new SandboxError('memory', `the code built a value too large for the sandbox (${message})`);
  if (name === 'InternalError' && /interrupted/i.test(message)) return new SandboxError('timeout', 'the code ran past its time limit (is there an endless loop?)');
  if (/out of memory/i.test(message)) return new SandboxError('memory', 'the code used more memory than allowed');
  if (/stack overflow|call stack size/i.test(message)) return new SandboxError('stack', 'the code recursed too deeply (stack overflow)');
  if (name === 'SyntaxError') return new SandboxError('syntax', `SyntaxError: ${message}`);
  return new SandboxError('runtime', `${name || 'Error'}: ${message}`);
}

/** Reads a guest exception without trusting it (it may be any value, or unreadable after OOM). */
function guestError(context: QuickJSContext, handle: QuickJSHandle): SandboxError {
  try {
    const dumped: unknown = context.dump(handle);
    if (dumped && typeof dumped === 'object') {
      const { name, message } = dumped as { name?: unknown; message?: unknown };
      return classify(typeof name === 'string' ? name : '', typeof message === 'string' ? message : String(message ?? ''));
    }
    // QuickJS leaves `null` as the exception when it cannot even allocate the error object.
    if (dumped === null) return new SandboxError('runtime', 'the code threw null (or ran out of memory)');
    return new SandboxError('runtime', `the code threw ${String(dumped).slice(0, 200)}`);
  } catch {
    return new SandboxError('memory', 'the code failed and its error could not be read (memory exhausted)');
  } finally {
    handle.dispose();
  }
}

/** Calls a guest function with a string argument; unwraps or throws a classified SandboxError. */
function callWithString(context: QuickJSContext, fn: QuickJSHandle, text: string): QuickJSHandle {
  const arg = context.newString(text);
  try {
    const result = context.callFunction(fn, context.undefined, arg);
    if (result.error) throw guestError(context, result.error);
    return result.value;
  } finally {
    arg.dispose();
  }
}

/** Converts the guest's completion value to a host value: primitives directly, objects as JSON. */
function exportResult(context: QuickJSContext, value: QuickJSHandle, output: QuickJSHandle): unknown {
  const type = context.typeof(value);
  switch (type) {
    case 'undefined':
      return undefined;
    case 'number':
      return context.getNumber(value); // keeps NaN/Infinity visible to the caller (JSON would not)
    case 'boolean':
      return context.dump(value) as boolean;
    case 'string':
      return context.getString(value);
    case 'object': {
      const result = context.callFunction(output, context.undefined, value);
      if (result.error) throw guestError(context, result.error);
      const text = context.getString(result.value);
      result.value.dispose();
      if (text === 'promise') throw new SandboxError('result', 'the code returned a Promise; asynchronous code (async, await, import()) is not supported');
      if (text === 'unserialisable') throw new SandboxError('result', 'the code returned a value that is not JSON');
      return JSON.parse(text, reviveNonFinite) as unknown;
    }
    default:
      throw new SandboxError('result', `the code returned a ${type}; return a boolean, a number or a JSON value`);
  }
}

interface Limits {
  timeoutMs: number;
  memoryBytes: number;
  stackBytes: number;
}

function runOnce(module: QuickJSWASMModule, code: string, globals: Record<string, unknown>, limits: Limits, options: Required<QuickJsSandboxOptions>): unknown {
  const deadline = options.now() + limits.timeoutMs;
  let runtime: QuickJSRuntime | undefined;
  let context: QuickJSContext | undefined;
  const handles: QuickJSHandle[] = [];
  let engineFailed = false;
  try {
    runtime = module.newRuntime();
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(limits.stackBytes);
    runtime.setInterruptHandler(() => options.now() > deadline);
    context = runtime.newContext();

    const setup = context.evalCode(prelude(options.guestEpochMs, options.randomSeed), 'assay-prelude.js', { type: 'global' });
    if (setup.error) throw guestError(context, setup.error);
    const bridge = setup.value;
    handles.push(bridge);
    const input = context.getProp(bridge, 'input');
    const output = context.getProp(bridge, 'output');
    handles.push(input, output);

    for (const [name, value] of Object.entries(globals)) {
      const handle = value === undefined ? context.undefined : callWithString(context, input, JSON.stringify(value));
      context.setProp(context.global, name, handle);
      if (handle !== context.undefined) handle.dispose();
    }

    // Always global code: the module heuristic would treat `import`/`export` text as a module.
    const result = context.evalCode(code, 'blueprint.js', { type: 'global' });
    if (result.error) throw guestError(context, result.error);
    handles.push(result.value);
    return exportResult(context, result.value, output);
  } catch (error) {
    engineFailed = !(error instanceof SandboxError);
    throw error;
  } finally {
    // After a host-level failure QuickJS's heap is inconsistent and freeing it would abort the
    // module: leave it to be dropped with the module (the caller recycles it).
    if (!engineFailed) {
      for (const handle of handles) if (handle.alive) handle.dispose();
      context?.dispose();
      runtime?.dispose();
    }
  }
}

const WASM_PAGE = 64 * 1024;

/**
 * A QuickJS module in its own memory, capped at `heapCapBytes`. The package is imported here, by
 * the first sandbox made, not where this file is imported: lib/core's index exports this file,
 * and every importer of core (`assay validate` among them) would load QuickJS's four builds.
 */
async function loadModule(heapCapBytes: number): Promise<QuickJSWASMModule> {
  const { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } = await import('quickjs-emscripten');
  const maximum = Math.max(256, Math.ceil(heapCapBytes / WASM_PAGE)); // ≥ the build's 16 MiB initial size
  const wasmMemory = new WebAssembly.Memory({ initial: 256, maximum });
  return newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory }));
}

/** The host's own stack overflowed while QuickJS ran (the wasm frames are host frames). */
function isHostStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

export async function createQuickJsSandbox(options: QuickJsSandboxOptions = {}): Promise<QuickJsSandbox> {
  const settings: Required<QuickJsSandboxOptions> = {
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    memoryBytes: options.memoryBytes ?? DEFAULTS.memoryBytes,
    stackBytes: options.stackBytes ?? DEFAULTS.stackBytes,
    now: options.now ?? Date.now,
    guestEpochMs: options.guestEpochMs ?? DEFAULTS.guestEpochMs,
    randomSeed: options.randomSeed ?? DEFAULTS.randomSeed,
    heapCapBytes: options.heapCapBytes ?? DEFAULTS.heapCapBytes,
  };
  const load = () => loadModule(settings.heapCapBytes);
  const [first, second] = await Promise.all([load(), load()]);
  let current: QuickJSWASMModule | undefined = first;
  let spare: QuickJSWASMModule | undefined = second;
  let disposed = false;

  /**
   * Replaces a module whose engine trapped or whose memory grew large; the old one is dropped
   * (its memory goes with it) and the next spare loads in the background.
   */
  let reloading: Promise<void> = Promise.resolve();
  function retire(): void {
    current = spare;
    spare = undefined;
    const previous = reloading;
    reloading = load().then(
      async (module) => {
        await previous;
        if (disposed) return;
        if (current) spare = module;
        else current = module;
      },
      () => undefined, // stays without a spare; `run` reports `unavailable` if it comes to that
    );
  }

  return {
    run(code, globals, limits) {
      if (disposed) throw new SandboxError('unavailable', 'the sandbox was disposed');
      if (!current) throw new SandboxError('unavailable', 'the sandbox engine is reloading after a failure; retry later');
      const effective: Limits = {
        timeoutMs: limits?.timeoutMs ?? settings.timeoutMs,
        memoryBytes: limits?.memoryBytes ?? settings.memoryBytes,
        stackBytes: settings.stackBytes,
      };
      const module = current;
      try {
        return runOnce(module, code, globals, effective, settings);
      } catch (error) {
        // At the memory cap QuickJS cannot even build its error object (it throws "" or null),
        // so the memory high-water mark, not the message, says what happened.
        const exhausted = module.getWasmMemory().buffer.byteLength >= settings.heapCapBytes * 0.9;
        const outOfMemory = new SandboxError('memory', 'the code used more memory than allowed');
        if (error instanceof SandboxError) throw exhausted && error.kind !== 'timeout' ? outOfMemory : error;
        // Not a guest exception: the engine itself failed (host stack overflow, wasm trap).
        retire();
        if (exhausted) throw outOfMemory;
        if (isHostStackOverflow(error)) throw new SandboxError('stack', 'the code is nested or recurses too deeply (stack overflow)');
        throw new SandboxError('unavailable', `the sandbox engine failed (${error instanceof Error ? error.message : String(error)}); it has been restarted`);
      } finally {
        if (module === current && module.getWasmMemory().buffer.byteLength > settings.heapCapBytes / 2) retire();
      }
    },
    ready() {
      return reloading;
    },
    dispose() {
      disposed = true;
      current = undefined;
      spare = undefined;
    },
  };
}
