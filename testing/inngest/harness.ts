/**
 * A strict stand-in for Inngest's server around @inngest/test's engine, for tests of our Inngest
 * functions that must hold under what Inngest really does, not only under the kind order of a
 * queue drained one event at a time.
 *
 *   const h = new InngestHarness({ functions: () => myFunctions(deps), seed: 7 });
 *   h.send(someEvent);                 // as the event API: limits checked, ids deduplicated
 *   const report = await h.settle();   // runs every function run it leads to, to the end
 *   report.runs                        // each run: function id, event, status, output or error
 *
 * API (all of it):
 *   new InngestHarness({ functions, seed?, parallel?, overlap?, maxEventBytes? })
 *     functions  a factory of the app's functions. It is called again before EVERY step
 *                execution, as if a deploy happened between any two steps: a function that keeps
 *                state in its closure between steps fails here as it would in production.
 *     seed       orders delivery (default 1): queued function runs start in a seeded random order
 *                and up to `parallel` (default 8) run at once, so events arrive out of order and
 *                concurrently, yet a failing order can be replayed.
 *     overlap    asked before each step execution; true starts a SECOND concurrent execution of
 *                the same function run at that point (a step retried while its first invocation
 *                still runs: Inngest retries a step whose request was cut, e.g. a proxy timeout,
 *                while the worker still runs it; https://www.inngest.com/docs/guides/handling-idempotency).
 *                The second execution's result is the one recorded.
 *   send(events)      accepts events as Inngest's event API does; returns their ids.
 *   settle({ until? }) delivers until nothing is queued or running (or `until()` says stop, then
 *                      like `abandon()`); rejects with an InngestLimitError on any limit broken.
 *   cron(fnId)        fires a cron-triggered function once.
 *   abandon()         drops every queued run and stops every running one at its next step: the
 *                     queue lost (the case a sweeper exists for).
 *   runs              every function run so far (also failure handlers, as `<fn id>-failure`).
 *
 * What it enforces, each rule with where Inngest publishes it (violations throw InngestLimitError):
 *  - 1,000 steps per function run; 4 MiB per step output; 32 MiB function run state (event data,
 *    step outputs, function output): https://www.inngest.com/docs/usage-limits/inngest
 *  - 5,000 events per send, 256 KiB per event (the free plan's size; paid plans allow 3 MiB:
 *    `maxEventBytes`), event names of at most 256 characters: the same page, "Events".
 *  - at most two concurrency constraints per function (`concurrency?: number | object |
 *    [object, object]`, https://www.inngest.com/docs/functions/concurrency), each limit counting
 *    steps executing at once per key value, shared across functions when scoped to the env or
 *    account (https://www.inngest.com/docs/guides/concurrency).
 *  - an event id seen in the last 24 hours triggers nothing
 *    (https://www.inngest.com/docs/guides/handling-idempotency).
 *  - retries are per step (a failing step is retried up to `retries`, default 3, the run's other
 *    steps memoised), then the error is thrown into the function; a run that fails calls its
 *    `onFailure` as a function triggered by `inngest/function.failed`
 *    (https://www.inngest.com/docs/features/inngest-functions/error-retries/retries,
 *    .../failure-handlers); a NonRetriableError is not retried. @inngest/test 1.0.0 cannot throw a
 *    memoised step error back into the function, so a step out of retries fails the run here (what
 *    Inngest does when the function does not catch it): do not rely on catching it.
 *  - `cancelOn` with `match`: a matching event stops the run before its next step
 *    (https://www.inngest.com/docs/features/inngest-functions/cancellation/cancel-on-events).
 *  - step outputs come back as JSON (a Date becomes a string), as Inngest stores them.
 * What it does not model throws a clear error (waitForEvent, invoke, batching, debounce,
 * idempotency keys, rate limits, trigger expressions) rather than pretend.
 *
 * Sending events from a function (`step.sendEvent`) is a memoised step that hands the events to
 * this harness's event API; `step.sleep` is a memoised step that returns at once.
 */
import { InngestTestEngine } from '@inngest/test';
import type { Context, InngestFunction } from 'inngest';
import { xoroshiro128plus, unsafeUniformIntDistribution, type RandomGenerator } from 'pure-rand';
import { ulid } from 'ulid';

const MiB = 1024 * 1024;
const USAGE_LIMITS = 'https://www.inngest.com/docs/usage-limits/inngest';
export const INNGEST_LIMITS = {
  stepsPerRun: 1000,
  stepOutputBytes: 4 * MiB,
  runStateBytes: 32 * MiB,
  eventsPerSend: 5000,
  eventBytes: 256 * 1024,
  eventNameLength: 256,
  concurrencyKeys: 2,
  dedupeMs: 24 * 60 * 60_000,
  defaultRetries: 3,
} as const;

/** A published Inngest limit a function broke: `limit` names it, `source` says where it is published. */
export class InngestLimitError extends Error {
  constructor(
    readonly limit: string,
    detail: string,
    readonly source: string = USAGE_LIMITS,
  ) {
    super(`Inngest limit "${limit}" exceeded: ${detail} (${source})`);
    this.name = 'InngestLimitError';
  }
}

export interface HarnessEvent {
  id?: string;
  name: string;
  data: Record<string, unknown>;
  ts?: number;
}

type AnyFn = InngestFunction.Any;

export interface HarnessRun {
  id: string;
  fnId: string;
  event: HarnessEvent;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled' | 'abandoned';
  output?: unknown;
  error?: { name: string; message: string };
  /** Steps memoised (each step.run, sendEvent, sleep). */
  steps: number;
  stateBytes: number;
  /** Step executions started beside a first invocation still running (the `overlap` option). */
  overlaps: number;
}

export interface HarnessOptions {
  functions: () => readonly AnyFn[];
  seed?: number;
  parallel?: number;
  overlap?: (at: { fnId: string; event: HarnessEvent; step: number }) => boolean;
  maxEventBytes?: number;
}

interface FnOpts {
  id: string;
  triggers?: ({ event?: string | { name: string }; cron?: string; if?: string; expression?: string } | { name: string })[];
  concurrency?: number | ConcurrencyOpt | ConcurrencyOpt[];
  retries?: number;
  onFailure?: (ctx: unknown) => unknown;
  cancelOn?: { event: string | { name: string }; match?: string; if?: string; timeout?: unknown }[];
  [k: string]: unknown;
}
interface ConcurrencyOpt {
  limit: number;
  key?: string;
  scope?: 'fn' | 'env' | 'account';
}
interface Memo {
  id: string;
  idIsHashed: true;
  handler: () => unknown;
}
interface Queued {
  run: HarnessRun;
  failureOf?: AnyFn;
}

const sizeOf = (v: unknown) => (v === undefined ? 0 : Buffer.byteLength(JSON.stringify(v) ?? ''));
const optsOf = (fn: AnyFn) => fn.opts as unknown as FnOpts;
const nameOf = (e: string | { name: string }) => (typeof e === 'string' ? e : e.name);
const UNMODELLED = ['batchEvents', 'debounce', 'idempotency', 'rateLimit', 'throttle', 'singleton'];

/** `event.data.a.b` → the value at that path; the only key form the harness evaluates. */
function evaluate(expr: string, event: HarnessEvent): string {
  const literal = /^"(.*)"$/.exec(expr);
  if (literal) return literal[1]!;
  const m = /^event\.(data(?:\.[\w$]+)+)$/.exec(expr.trim());
  if (!m) throw new Error(`the Inngest harness evaluates only "event.data.<path>" or a quoted string as a key, not ${JSON.stringify(expr)}`);
  let v: unknown = event;
  for (const p of m[1]!.split('.')) v = (v as Record<string, unknown> | undefined)?.[p];
  return String(v);
}

function pathOf(obj: unknown, path: string): unknown {
  let v = obj;
  for (const p of path.split('.')) v = (v as Record<string, unknown> | undefined)?.[p];
  return v;
}

/** What one execution reports (inngest's ExecutionResult, the parts read here). */
interface OutgoingStep {
  id: string;
  name?: string;
  displayName?: string;
  data?: unknown;
  error?: unknown;
}
type Checkpoint =
  | { type: 'step-ran'; step: OutgoingStep }
  | { type: 'steps-found'; steps: OutgoingStep[] }
  | { type: 'function-resolved'; data: unknown }
  | { type: 'function-rejected'; error: unknown; retriable: boolean | string }
  | { type: 'step-not-found' | 'change-mode' };

/** Exposes the engine's single execution (one request from Inngest to the SDK: runs at most one step). */
class OneExecution extends InngestTestEngine {
  once(opts: InngestTestEngine.InlineOptions) {
    return this.individualExecution(opts);
  }
}

export class InngestHarness {
  readonly runs: HarnessRun[] = [];
  readonly #opts: HarnessOptions;
  readonly #rng: RandomGenerator;
  readonly #seen = new Map<string, number>();
  readonly #queue: Queued[] = [];
  readonly #slots = new Map<string, number>();
  #waiters: (() => void)[] = [];
  readonly #cancelled = new Set<string>();
  #violation: InngestLimitError | null = null;
  #epoch = 0;

  constructor(opts: HarnessOptions) {
    this.#opts = opts;
    this.#rng = xoroshiro128plus(opts.seed ?? 1);
    this.#functions(); // checks the configuration once up front
  }

  /** The app's functions as deployed now, each checked against what the harness models. */
  #functions(): AnyFn[] {
    const fns = [...this.#opts.functions()];
    for (const fn of fns) {
      const o = optsOf(fn);
      const keys = o.concurrency === undefined || typeof o.concurrency === 'number' ? [] : Array.isArray(o.concurrency) ? o.concurrency : [o.concurrency];
      if (keys.length > INNGEST_LIMITS.concurrencyKeys) {
        throw new InngestLimitError('concurrency constraints per function', `${o.id} declares ${keys.length}; at most ${INNGEST_LIMITS.concurrencyKeys}`, 'https://www.inngest.com/docs/functions/concurrency');
      }
      for (const k of UNMODELLED) if (o[k] !== undefined) throw new Error(`the Inngest harness does not model "${k}" (function ${o.id})`);
      for (const t of o.triggers ?? []) if ('if' in t && t.if) throw new Error(`the Inngest harness does not evaluate trigger expressions (function ${o.id})`);
      for (const c of o.cancelOn ?? []) if (c.if || !c.match) throw new Error(`the Inngest harness models cancelOn by "match" only (function ${o.id})`);
    }
    return fns;
  }

  #fn(id: string, failureOf?: string): AnyFn {
    const fns = this.#functions();
    if (failureOf) {
      const base = fns.find((f) => f.id() === failureOf);
      const handler = base && optsOf(base).onFailure;
      if (!base || !handler) throw new Error(`function ${failureOf} has no onFailure handler any more`);
      return failureFunction(base, handler);
    }
    const fn = fns.find((f) => f.id() === id);
    if (!fn) throw new Error(`no function "${id}" is deployed any more`);
    return fn;
  }

  #violate(e: InngestLimitError): never {
    this.#violation ??= e;
    throw e;
  }

  /** Inngest's event API: checks each limit, drops ids seen in the last 24 h, starts the runs the events trigger. */
  send(input: HarnessEvent | HarnessEvent[]): { ids: string[] } {
    const events = Array.isArray(input) ? input : [input];
    if (events.length > INNGEST_LIMITS.eventsPerSend) this.#violate(new InngestLimitError('events per request', `${events.length} events in one send; at most ${INNGEST_LIMITS.eventsPerSend}`));
    const max = this.#opts.maxEventBytes ?? INNGEST_LIMITS.eventBytes;
    const ids: string[] = [];
    const now = Date.now();
    const fns = this.#functions(); // the deploy this request meets
    for (const raw of events) {
      if (raw.name.length > INNGEST_LIMITS.eventNameLength) this.#violate(new InngestLimitError('event name length', `"${raw.name.slice(0, 40)}…" has ${raw.name.length} characters`));
      const event: HarnessEvent = { ...raw, data: JSON.parse(JSON.stringify(raw.data ?? {})) as Record<string, unknown>, ts: raw.ts ?? now, id: raw.id ?? ulid() };
      const bytes = sizeOf(event);
      if (bytes > max) this.#violate(new InngestLimitError('event payload size', `${event.name} is ${bytes} bytes; at most ${max}`));
      ids.push(event.id!);
      if (raw.id) {
        const at = this.#seen.get(raw.id);
        if (at !== undefined && now - at < INNGEST_LIMITS.dedupeMs) continue;
        this.#seen.set(raw.id, now);
      }
      this.#cancelMatching(event, fns);
      for (const fn of fns) {
        const triggers = optsOf(fn).triggers ?? [];
        if (triggers.some((t) => 'event' in t && t.event !== undefined && nameOf(t.event) === event.name) || triggers.some((t) => 'name' in t && t.name === event.name)) {
          this.#enqueue(fn.id(), event);
        }
      }
    }
    return { ids };
  }

  /** Fires a cron-triggered function once (Inngest's scheduler). */
  cron(fnId: string): void {
    this.#enqueue(fnId, { name: 'inngest/scheduled.timer', data: { cron: 'harness' }, id: ulid(), ts: Date.now() });
  }

  #enqueue(fnId: string, event: HarnessEvent, failureOf?: AnyFn): void {
    const run: HarnessRun = { id: ulid(), fnId, event, status: 'queued', steps: 0, stateBytes: sizeOf(event), overlaps: 0 };
    this.runs.push(run);
    this.#queue.push({ run, ...(failureOf ? { failureOf } : {}) });
  }

  #cancelMatching(event: HarnessEvent, fns: AnyFn[]): void {
    if (!fns.some((f) => (optsOf(f).cancelOn ?? []).some((c) => nameOf(c.event) === event.name))) return;
    for (const q of this.runs) {
      if (q.status !== 'queued' && q.status !== 'running') continue;
      const fn = fns.find((f) => f.id() === q.fnId);
      for (const c of (fn && optsOf(fn).cancelOn) ?? []) {
        if (nameOf(c.event) !== event.name) continue;
        if (pathOf(event, c.match!) === pathOf(q.event, c.match!)) this.#cancelled.add(q.id);
      }
    }
  }

  /** Drops every queued run; running ones stop at their next step (their current step still ends). */
  abandon(): void {
    this.#epoch++;
    for (const q of this.#queue.splice(0)) q.run.status = 'abandoned';
  }

  async settle(opts: { until?: () => boolean } = {}): Promise<{ runs: HarnessRun[] }> {
    const parallel = this.#opts.parallel ?? 8;
    const active = new Set<Promise<void>>();
    const epoch = this.#epoch;
    while (this.#queue.length > 0 || active.size > 0) {
      if (this.#violation) break;
      if (opts.until?.()) {
        this.abandon();
        break;
      }
      while (active.size < parallel && this.#queue.length > 0) {
        const at = unsafeUniformIntDistribution(0, this.#queue.length - 1, this.#rng);
        const [q] = this.#queue.splice(at, 1);
        const p: Promise<void> = this.#execute(q!, epoch).finally(() => active.delete(p));
        active.add(p);
      }
      // with `until`, look again every few ms, not only when a function run ends
      if (active.size > 0) await Promise.race(opts.until ? [...active, new Promise((r) => setTimeout(r, 2))] : active);
    }
    if (active.size > 0) await Promise.allSettled(active);
    const violation = this.#violation;
    this.#violation = null;
    if (violation) throw violation;
    return { runs: this.runs };
  }

  async #acquire(keys: { slot: string; limit: number }[]): Promise<void> {
    for (;;) {
      if (keys.every((k) => (this.#slots.get(k.slot) ?? 0) < k.limit)) {
        for (const k of keys) this.#slots.set(k.slot, (this.#slots.get(k.slot) ?? 0) + 1);
        return;
      }
      await new Promise<void>((r) => this.#waiters.push(r));
    }
  }

  #release(keys: { slot: string }[]): void {
    for (const k of keys) this.#slots.set(k.slot, (this.#slots.get(k.slot) ?? 1) - 1);
    const w = this.#waiters;
    this.#waiters = [];
    for (const r of w) r();
  }

  #keysOf(fn: AnyFn, event: HarnessEvent) {
    const c = optsOf(fn).concurrency;
    if (c === undefined) return [];
    const list = typeof c === 'number' ? [{ limit: c }] : Array.isArray(c) ? c : [c];
    return list
      .filter((k) => k.limit > 0)
      .map((k) => {
        const value = k.key ? evaluate(k.key, event) : '';
        const scope = k.scope ?? 'fn';
        return { slot: scope === 'fn' ? `fn:${fn.id()}:${value}` : `${scope}:${value}`, limit: k.limit };
      });
  }

  /** One function run, step by step, each step a fresh execution of a freshly deployed function. */
  async #execute(q: Queued, epoch: number): Promise<void> {
    const { run } = q;
    run.status = 'running';
    const memo: Memo[] = [];
    const attempts = new Map<string, number>();
    let fnAttempts = 0;
    const failureOf = q.failureOf?.id();
    try {
      for (;;) {
        if (this.#epoch !== epoch) return void (run.status = 'abandoned');
        if (this.#cancelled.has(run.id)) return void (run.status = 'cancelled');
        const fn = this.#fn(run.fnId, failureOf);
        const retries = optsOf(failureOf ? q.failureOf! : fn).retries ?? INNGEST_LIMITS.defaultRetries;
        const keys = this.#keysOf(fn, run.event);
        await this.#acquire(keys);
        let result: Checkpoint;
        try {
          const once = () =>
            new OneExecution({ function: fn, transformCtx: (ctx) => this.#ctx(ctx) }).once({ events: [{ ...run.event, data: run.event.data } as never], steps: [...memo] });
          if (this.#opts.overlap?.({ fnId: run.fnId, event: run.event, step: memo.length })) {
            run.overlaps++;
            const first = once();
            // the retry starts while the first invocation is still inside its step
            await new Promise((r) => setTimeout(r, 1));
            const second = once();
            const [, r] = await Promise.all([first.catch(() => null), second]);
            result = r.result as unknown as Checkpoint;
          } else {
            result = (await once()).result as unknown as Checkpoint;
          }
        } finally {
          this.#release(keys);
        }
        if (this.#epoch !== epoch) return void (run.status = 'abandoned');
        switch (result.type) {
          case 'step-ran': {
            const step = result.step;
            if (step.error !== undefined) {
              const n = (attempts.get(step.id) ?? 0) + 1;
              attempts.set(step.id, n);
              const error = step.error as { name?: string };
              if (n <= retries && error?.name !== 'NonRetriableError') continue;
              // Inngest then throws the error into the function; @inngest/test 1.0.0 cannot hand
              // a memoised error back (it resolves every memoised step as data), so the run fails
              // here as it does in Inngest when the function does not catch it.
              return this.#fail(run, fn, step.error, failureOf);
            }
            const data = step.data === undefined ? null : (JSON.parse(JSON.stringify(step.data)) as unknown);
            this.#memoise(run, memo, step.id, step.displayName ?? step.name ?? step.id, data);
            continue;
          }
          case 'steps-found': {
            // parallel steps (Promise.all of steps): Inngest runs each as its own request
            if (memo.length + result.steps.length > INNGEST_LIMITS.stepsPerRun) {
              this.#violate(new InngestLimitError('steps per function run', `${run.fnId} planned ${result.steps.length} steps after ${memo.length}; at most ${INNGEST_LIMITS.stepsPerRun}`));
            }
            for (const s of result.steps) {
              const out = (await new OneExecution({ function: this.#fn(run.fnId, failureOf), transformCtx: (ctx) => this.#ctx(ctx) }).once({ events: [run.event as never], steps: [...memo], targetStepId: s.id, disableImmediateExecution: true })).result as unknown as Checkpoint;
              if (out.type !== 'step-ran') throw new Error(`the Inngest harness expected step ${s.displayName ?? s.id} to run, got ${out.type}`);
              if (out.step.error !== undefined) return this.#fail(run, fn, out.step.error, failureOf);
              this.#memoise(run, memo, out.step.id, out.step.displayName ?? out.step.id, out.step.data === undefined ? null : JSON.parse(JSON.stringify(out.step.data)));
            }
            continue;
          }
          case 'function-resolved': {
            run.stateBytes += sizeOf(result.data);
            this.#checkState(run);
            run.output = result.data === undefined ? null : JSON.parse(JSON.stringify(result.data));
            run.status = 'completed';
            return;
          }
          case 'function-rejected': {
            const error = result.error as { name?: string; message?: string };
            fnAttempts++;
            if (fnAttempts <= retries && error?.name !== 'NonRetriableError' && result.retriable !== false) continue;
            return this.#fail(run, fn, error, failureOf);
          }
          case 'step-not-found':
          case 'change-mode':
            continue;
        }
      }
    } catch (e) {
      run.status = 'failed';
      run.error = { name: (e as Error).name, message: (e as Error).message };
      if (e instanceof InngestLimitError) this.#violation ??= e;
      else this.#violation ??= new InngestLimitError('harness', `${run.fnId}: ${(e as Error).message}`, 'testing/inngest/harness.ts');
    }
  }

  /** A run out of retries: failed, and its onFailure handler triggered by `inngest/function.failed`. */
  #fail(run: HarnessRun, fn: AnyFn, e: unknown, failureOf: string | undefined): void {
    const error = e as { name?: string; message?: string } | undefined;
    run.status = 'failed';
    run.error = { name: error?.name ?? 'Error', message: error?.message ?? String(e) };
    if (!failureOf && optsOf(fn).onFailure) {
      this.#enqueue(`${run.fnId}-failure`, { name: 'inngest/function.failed', id: ulid(), ts: Date.now(), data: { function_id: run.fnId, run_id: run.id, error: run.error, event: run.event } }, fn);
    }
  }

  #memoise(run: HarnessRun, memo: Memo[], id: string, name: string, data: unknown): void {
    const bytes = sizeOf(data);
    if (bytes > INNGEST_LIMITS.stepOutputBytes) this.#violate(new InngestLimitError('step output size', `step "${name}" of ${run.fnId} returned ${bytes} bytes; at most ${INNGEST_LIMITS.stepOutputBytes}`));
    if (memo.length + 1 > INNGEST_LIMITS.stepsPerRun) this.#violate(new InngestLimitError('steps per function run', `${run.fnId} reached step ${memo.length + 1} ("${name}"); at most ${INNGEST_LIMITS.stepsPerRun}`));
    run.stateBytes += bytes;
    this.#checkState(run);
    memo.push({ id, idIsHashed: true, handler: () => data });
    run.steps = memo.length;
  }

  #checkState(run: HarnessRun): void {
    if (run.stateBytes > INNGEST_LIMITS.runStateBytes) this.#violate(new InngestLimitError('function run state size', `${run.fnId} holds ${run.stateBytes} bytes of event and step data; at most ${INNGEST_LIMITS.runStateBytes}`));
  }

  /** The step tools as the functions see them: sending and sleeping are memoised steps; what is not modelled throws. */
  #ctx(ctx: Context.Any): Context.Any {
    const step = ctx.step;
    const unmodelled = (what: string) => () => {
      throw new Error(`the Inngest harness does not model step.${what}`);
    };
    return {
      ...ctx,
      step: {
        ...step,
        run: step.run.bind(step),
        sendEvent: ((id: string, payload: HarnessEvent | HarnessEvent[]) => step.run(id, () => this.send(payload))) as never,
        sleep: ((id: string) => step.run(id, () => null)) as never,
        sleepUntil: ((id: string) => step.run(id, () => null)) as never,
        waitForEvent: unmodelled('waitForEvent') as never,
        invoke: unmodelled('invoke') as never,
      },
    } as Context.Any;
  }
}

/** A function's onFailure as Inngest runs it: a function of its own, triggered by `inngest/function.failed`. */
function failureFunction(base: AnyFn, handler: (ctx: unknown) => unknown): AnyFn {
  const client = (base as unknown as { client: { createFunction: (o: unknown, h: (ctx: { event: HarnessEvent }) => unknown) => AnyFn } }).client;
  return client.createFunction({ id: `${base.id()}-failure`, triggers: [{ event: 'inngest/function.failed' }], retries: optsOf(base).retries ?? INNGEST_LIMITS.defaultRetries }, (ctx) => {
    const e = (ctx.event.data as { error: { name: string; message: string } }).error;
    const error = Object.assign(new Error(e.message), { name: e.name });
    return handler({ ...ctx, error });
  });
}
