/**
 * Grading off the server's thread (docs/compatibility.md, "Sandboxed code"): the points of a reply
 * that run code in the QuickJS sandbox go to a small pool of worker threads, so a looping `$js`
 * point holds a worker, never the event loop that answers pages.
 *
 * Each worker has its own sandbox and a V8 memory limit. A job (one reply's sandbox points)
 * has a hard wall-clock limit: the sandbox time its budgets have left plus a grace for the
 * work around the sandbox, and never less than a floor (a loaded machine's waits are not the
 * blueprint's). A worker that crashes, runs out of memory or passes that limit is
 * terminated and replaced; the points it had not answered become `error` verdicts saying why,
 * and the run goes on. Workers start lazily and are unref'd: an idle pool keeps no process alive.
 * The pool mechanics (lending, replacing a stopped worker, warming) are the untrusted-work pool's
 * (untrusted/worker-slots.ts); this file holds the grading worker and its job protocol.
 *
 * The worker script is named as `new URL('./grading-worker.ts', import.meta.url)` inline, the
 * form Next's bundler recognises as a worker; from source (tsx, vitest, the CLI) the worker runs
 * the same TypeScript bundled by esbuild (lib/server/bundled-worker.ts).
 */
import { Worker } from 'node:worker_threads';
import { bundledWorker } from '../../bundled-worker';
import { boundedResourceLimits, WorkerSlots } from '../../untrusted/worker-slots';
import { verdictFromOutcome, type Verdict } from '@/lib/core';
import type { GradingJob, WorkerMessage } from './grading-protocol';

export interface GradingPoolOptions {
  /** Worker threads (env ASSAY_GRADING_WORKERS). */
  size: number;
  /** Each worker's V8 old-generation heap, in MB (the QuickJS heap has its own cap inside). */
  memoryMb: number;
  /** Added to a job's budgeted sandbox time to make its hard wall-clock limit. */
  graceMs: number;
  /**
   * No job is stopped by the wall clock sooner than this. The limit is a backstop: the sandbox
   * stops code on its own budgets, and the other points are linear-time. On a loaded machine a
   * worker waits for a core, and a job of plain points (no sandbox budget, so a limit of the grace
   * alone) was stopped after 2 s with `error` verdicts that were the machine's doing, not the
   * blueprint's: a `$contains` graded `error` in one run and `pass` in the same run again.
   */
  floorMs: number;
  /** A worker that is not ready by then (start-up: tsx, the wasm module) is given up. */
  startupMs: number;
}

export const GRADING_POOL_DEFAULTS: GradingPoolOptions = { size: 1, memoryMb: 128, graceMs: 2_000, floorMs: 15_000, startupMs: 30_000 };

export type JobInput = Omit<GradingJob, 'id'>;

export interface JobResult {
  /** One per `job.points`, in order. */
  verdicts: Array<Verdict | 'needs-judge'>;
  /** Sandbox time the job spent (what a stopped worker had reported, plus its time since). */
  spentMs: number;
}

let nextJobId = 1;

export class GradingPool {
  private readonly slots: WorkerSlots<GradingWorker>;

  constructor(readonly options: GradingPoolOptions = GRADING_POOL_DEFAULTS) {
    this.slots = new WorkerSlots(options.size, () => new GradingWorker(options), 'grading pool');
  }

  grade(input: JobInput): Promise<JobResult> {
    return this.slots.use((worker) => worker.run({ ...input, id: nextJobId++ }, this.options));
  }

  /**
   * Starts the pool's workers and resolves once they are ready. A worker's start-up (a V8
   * isolate, tsx or the bundle, the wasm engine) costs the starting thread up to ~0.2 s of
   * event loop (measured), so the server warms its pool when it wires the run pipeline rather
   * than on its first reply.
   */
  warm(): Promise<void> {
    return this.slots.warm();
  }

  /** Terminates every worker (tests; a process exiting need not call it). */
  close(): Promise<void> {
    return this.slots.close();
  }
}

type Listener = (m: WorkerMessage) => void;

class GradingWorker {
  alive = true;
  private readonly worker: Worker;
  private readonly ready: Promise<void>;
  private readonly failed: Promise<void>;
  private failedResolve!: () => void;
  private listener: Listener | null = null;
  private stop: ((reason: string) => void) | null = null;
  private failure: string | null = null;

  constructor(readonly options: GradingPoolOptions) {
    const workerOptions = { resourceLimits: boundedResourceLimits(options.memoryMb), stdout: false, stderr: false };
    // string edits, not `new URL(…)`: the bundler would take any `new URL(…, import.meta.url)` for an asset
    const entry = import.meta.url.replace(/grading-pool\.ts$/, 'grading-worker.ts');
    this.worker = process.env.NEXT_RUNTIME
      ? new Worker(new URL('./grading-worker.ts', import.meta.url), workerOptions)
      : bundledWorker(entry, workerOptions);
    let readyResolve!: () => void;
    this.ready = new Promise<void>((resolve) => (readyResolve = resolve));
    this.failed = new Promise<void>((resolve) => (this.failedResolve = resolve));
    this.worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'ready') readyResolve();
      else this.listener?.(m);
    });
    this.worker.on('error', (e: Error & { code?: string }) => {
      this.fail(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `the grading worker ran out of its ${options.memoryMb} MB of memory` : `the grading worker failed (${e.name}: ${e.message.slice(0, 200)})`);
    });
    this.worker.on('exit', (code) => this.fail(`the grading worker exited (code ${code})`));
    // Referenced while it starts and while it grades, so a process awaiting it stays alive;
    // an idle worker keeps no process (the CLI, a test run) from exiting.
    void this.ready.then(() => {
      if (!this.stop) this.worker.unref();
    });
  }

  run(job: GradingJob, options: GradingPoolOptions): Promise<JobResult> {
    const verdicts: Array<Verdict | 'needs-judge' | null> = job.points.map(() => null);
    let spentMs = 0;
    let lastReport = 0;
    const budgetLeft = Math.max(0, Math.min(job.budgets.reply.limitMs - job.budgets.reply.usedMs, job.budgets.run.limitMs - job.budgets.run.usedMs));
    return new Promise<JobResult>((resolve) => {
      const timers: { startup?: NodeJS.Timeout; job?: NodeJS.Timeout } = {};
      const finish = (stopped: string | null) => {
        clearTimeout(timers.job);
        clearTimeout(timers.startup);
        this.listener = null;
        this.stop = null;
        this.worker.unref();
        if (stopped !== null) {
          // what it had not reported, at most what its budgets had left
          spentMs = Math.min(budgetLeft, spentMs + (lastReport ? performance.now() - lastReport : 0));
          void this.close();
        }
        resolve({
          verdicts: verdicts.map((v, i) => v ?? verdictFromOutcome(job.points[i]!.point, job.points[i]!.index, { error: unanswered(stopped ?? 'the grading worker gave no answer', i === firstUnanswered(verdicts)) })),
          spentMs,
        });
      };
      this.stop = finish;
      this.worker.ref();
      if (this.failure !== null) return finish(this.failure);
      timers.startup = setTimeout(() => finish(`the grading worker did not start within ${options.startupMs / 1000} s`), options.startupMs);
      void this.ready.then(() => {
        if (this.stop !== finish) return;
        clearTimeout(timers.startup);
        const limitMs = Math.max(budgetLeft + options.graceMs, options.floorMs);
        timers.job = setTimeout(() => finish(`grading stopped after ${(limitMs / 1000).toFixed(1)} s, the wall-clock limit for grading these points of the reply`), limitMs);
        lastReport = performance.now();
        this.listener = (m) => {
          if (m.type === 'ready' || m.id !== job.id) return;
          spentMs = m.spentMs;
          lastReport = performance.now();
          if (m.type === 'point') verdicts[m.position] = m.verdict;
          else finish(null);
        };
        this.worker.postMessage(job);
      });
    });
  }

  /** Resolves when the worker is ready or has failed. */
  whenReady(): Promise<void> {
    return Promise.race([this.ready, this.failed]);
  }

  close(): Promise<number> {
    this.alive = false;
    return this.worker.terminate();
  }

  private fail(reason: string): void {
    if (!this.alive && this.failure !== null) return;
    this.failure ??= reason;
    this.alive = false;
    this.failedResolve();
    this.stop?.(reason);
  }
}

function firstUnanswered(verdicts: ReadonlyArray<unknown>): number {
  return verdicts.findIndex((v) => v === null);
}

/** The point being graded when the worker stopped is the likely cause; the ones after it never ran. */
function unanswered(reason: string, current: boolean): string {
  return current ? `grading stopped at this point: ${reason}` : `not graded: ${reason} at an earlier point of this reply`;
}

let shared: GradingPool | null = null;

/** The process's pool (the server, the CLI, tests), created on first use. */
export function sharedGradingPool(options: Partial<GradingPoolOptions> = {}): GradingPool {
  shared ??= new GradingPool({ ...GRADING_POOL_DEFAULTS, ...options });
  return shared;
}
