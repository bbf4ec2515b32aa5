/**
 * The pool mechanics shared by the process's bounded workers (the untrusted-work pool here, the
 * grading pool in runs/): at most `size` workers, started lazily, each lent to one task at a
 * time; a worker that comes back stopped (terminated past its bound, out of memory, crashed) is
 * replaced by a fresh one, started at once so its start-up overlaps the wait of the next task.
 */
import type { ResourceLimits } from 'node:worker_threads';

export interface SlotWorker {
  /** False once the worker was terminated or failed: it is never lent again. */
  readonly alive: boolean;
  /** Resolves when the worker is ready, or has failed. */
  whenReady(): Promise<void>;
  close(): Promise<number>;
}

/** The V8 limits of a worker: its heap is the memory bound of every task it runs. */
export function boundedResourceLimits(memoryMb: number): ResourceLimits {
  return { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: Math.min(32, memoryMb), stackSizeMb: 4 };
}

export class WorkerSlots<W extends SlotWorker> {
  private readonly idle: W[] = [];
  private readonly waiting: Array<(w: W) => void> = [];
  private started = 0;
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly start: () => W,
    private readonly name: string,
  ) {}

  /** Lends a worker to `work` and takes it back (replacing it if it stopped). */
  async use<T>(work: (w: W) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error(`the ${this.name} is closed`);
    const worker = await this.acquire();
    try {
      return await work(worker);
    } finally {
      this.release(worker);
    }
  }

  /**
   * Starts every worker and resolves once they are ready. A worker's start-up (a V8 isolate, tsx
   * or the bundle) is better paid when the server wires its services than on a first request.
   */
  async warm(): Promise<void> {
    while (!this.closed && this.started < this.size) {
      this.started++;
      this.release(this.start());
    }
    await Promise.all(this.idle.map((w) => w.whenReady()));
  }

  /** Terminates every idle worker (tests; a process exiting need not call it). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((w) => w.close()));
  }

  private acquire(): Promise<W> {
    const idle = this.idle.pop();
    // a worker that died while idle (killed from outside, a crash at start-up) is replaced, not lent
    if (idle) return Promise.resolve(idle.alive ? idle : this.start());
    if (this.started < this.size) {
      this.started++;
      return Promise.resolve(this.start());
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(worker: W): void {
    const next = worker.alive && !this.closed ? worker : this.closed ? null : this.start();
    if (!next) {
      this.started--;
      return;
    }
    const waiter = this.waiting.shift();
    if (waiter) waiter(next);
    else this.idle.push(next);
  }
}
