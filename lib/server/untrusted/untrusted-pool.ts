/**
 * The one bounded pool for untrusted work: parsing a blueprint someone typed or pushed, checking a
 * pull request's files. The server's thread only posts a task and awaits its answer; the work runs
 * in a worker thread with a V8 memory limit (`resourceLimits`), one task at a time per worker, and
 * each task has a wall-clock limit counted from the moment the worker receives it. A task past its
 * limit, or a worker that runs out of memory or crashes, ends with `UntrustedWorkStopped` saying
 * what stopped and which bound it passed; that worker is terminated and a fresh one takes its place.
 *
 * Grading a reply's points uses the same pool mechanics (worker-slots.ts) with its own worker
 * (runs/grading/grading-pool.ts): its jobs stream verdicts point by point and carry sandbox budgets, and
 * its workers hold a QuickJS engine, which a parse does not need to load.
 *
 * The worker script is named as `new URL('./untrusted-worker.ts', import.meta.url)` inline, the form
 * Next's bundler recognises as a worker; from source (tsx, vitest, the CLI) it runs bundled by
 * esbuild (lib/server/bundled-worker.ts).
 */
import { Worker } from 'node:worker_threads';
import { bundledWorker } from '../bundled-worker';
import type { TaskMessage, UntrustedTaskKind, UntrustedTasks, WorkerAnswer } from './tasks';
import { boundedResourceLimits, WorkerSlots } from './worker-slots';

export interface UntrustedPoolOptions {
  /** Worker threads; each runs one task at a time. */
  size: number;
  /** Each worker's V8 old-generation heap, in MB: the memory bound of every task it runs. */
  memoryMb: number;
  /** A worker not ready by then (a V8 isolate, tsx or the bundle) is given up. */
  startupMs: number;
}

export const UNTRUSTED_POOL_DEFAULTS: UntrustedPoolOptions = { size: 2, memoryMb: 256, startupMs: 30_000 };

/**
 * Wall-clock limits per task. A file within the size limits (docs/limits.md) parses in well under
 * a second; a request waits at most `interactive`, background work (sync, pull-request checks) `background`.
 */
export const UNTRUSTED_TIME_LIMITS = { interactiveMs: 5_000, backgroundMs: 10_000 } as const;

export interface TaskOptions {
  /** What is being done, for the error: e.g. "checking drafts/x.yml". */
  what: string;
  timeoutMs: number;
}

export type StopReason = 'time' | 'memory' | 'crash';

/** A task that did not finish: the message says what, and the bound it passed. */
export class UntrustedWorkStopped extends Error {
  override name = 'UntrustedWorkStopped';
  constructor(
    readonly reason: StopReason,
    message: string,
  ) {
    super(message);
  }
}

const seconds = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`);

let nextTaskId = 1;

export class UntrustedPool {
  private readonly slots: WorkerSlots<PoolWorker>;

  constructor(readonly options: UntrustedPoolOptions = UNTRUSTED_POOL_DEFAULTS) {
    this.slots = new WorkerSlots(options.size, () => new PoolWorker(options), 'untrusted-work pool');
  }

  run<K extends UntrustedTaskKind>(kind: K, input: UntrustedTasks[K]['input'], task: TaskOptions): Promise<UntrustedTasks[K]['output']> {
    return this.slots.use((worker) => worker.run({ id: nextTaskId++, kind, input } as TaskMessage, task) as Promise<UntrustedTasks[K]['output']>);
  }

  /** Starts the workers and resolves once they are ready (so a first request does not pay for start-up). */
  warm(): Promise<void> {
    return this.slots.warm();
  }

  /** Terminates every idle worker (tests; a process exiting need not call it). */
  close(): Promise<void> {
    return this.slots.close();
  }
}

class PoolWorker {
  alive = true;
  private readonly worker: Worker;
  private readonly ready: Promise<void>;
  private failure: { reason: StopReason; detail: string } | null = null;
  private settle: ((a: WorkerAnswer | { type: 'stopped'; reason: StopReason; detail: string }) => void) | null = null;

  constructor(readonly options: UntrustedPoolOptions) {
    const workerOptions = { resourceLimits: boundedResourceLimits(options.memoryMb), stdout: false, stderr: false };
    // string edits, not `new URL(…)`: the bundler would take any `new URL(…, import.meta.url)` for an asset
    const entry = import.meta.url.replace(/untrusted-pool\.ts$/, 'untrusted-worker.ts');
    this.worker = process.env.NEXT_RUNTIME ? new Worker(new URL('./untrusted-worker.ts', import.meta.url), workerOptions) : bundledWorker(entry, workerOptions);
    let readyResolve!: () => void;
    this.ready = new Promise<void>((resolve) => (readyResolve = resolve));
    this.worker.on('message', (m: WorkerAnswer) => {
      if (m.type === 'ready') readyResolve();
      else this.settle?.(m);
    });
    this.worker.on('error', (e: Error & { code?: string }) => {
      if (e.code === 'ERR_WORKER_OUT_OF_MEMORY') this.fail('memory', `it needed more than ${options.memoryMb} MB of memory`);
      else this.fail('crash', `the worker failed (${e.name}: ${e.message.slice(0, 200)})`);
    });
    this.worker.on('exit', (code) => this.fail('crash', `the worker exited (code ${code})`));
    // an idle worker keeps no process (the CLI, a test run) alive; a busy one is referenced
    this.worker.unref();
  }

  run(task: TaskMessage, options: TaskOptions): Promise<unknown> {
    return new Promise<unknown>((resolve, reject) => {
      const timers: { startup?: NodeJS.Timeout; task?: NodeJS.Timeout } = {};
      const stop = (reason: StopReason, detail: string) => {
        void this.close();
        finish({ type: 'stopped', reason, detail });
      };
      const finish = (a: WorkerAnswer | { type: 'stopped'; reason: StopReason; detail: string }) => {
        if (a.type === 'ready' || (a.type !== 'stopped' && a.id !== task.id)) return;
        clearTimeout(timers.startup);
        clearTimeout(timers.task);
        this.settle = null;
        this.worker.unref();
        if (a.type === 'done') resolve(a.output);
        else if (a.type === 'failed') reject(new UntrustedWorkStopped('crash', `${options.what} failed: ${a.message}`));
        else reject(new UntrustedWorkStopped(a.reason, `${options.what} stopped: ${a.detail}`));
      };
      this.settle = finish;
      this.worker.ref();
      if (this.failure) return stop(this.failure.reason, this.failure.detail);
      timers.startup = setTimeout(() => stop('crash', `the worker did not start within ${seconds(this.options.startupMs)}`), this.options.startupMs);
      void this.ready.then(() => {
        if (this.settle !== finish) return;
        clearTimeout(timers.startup);
        timers.task = setTimeout(() => stop('time', `it exceeded the limit of ${seconds(options.timeoutMs)}`), options.timeoutMs);
        this.worker.postMessage(task);
      });
    });
  }

  whenReady(): Promise<void> {
    return new Promise((resolve) => {
      void this.ready.then(resolve);
      this.worker.once('exit', () => resolve());
    });
  }

  close(): Promise<number> {
    this.alive = false;
    return this.worker.terminate();
  }

  private fail(reason: StopReason, detail: string): void {
    this.alive = false;
    this.failure ??= { reason, detail };
    this.settle?.({ type: 'stopped', ...this.failure });
  }
}

let shared: UntrustedPool | null = null;

/** The process's pool (the server, tests), created on first use. */
export function sharedUntrustedPool(): UntrustedPool {
  shared ??= new UntrustedPool();
  return shared;
}
