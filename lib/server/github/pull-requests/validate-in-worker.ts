/**
 * Validates untrusted files off the server's thread: in a worker with a memory limit, one file
 * at a time, each with a wall-clock limit. A file whose check times out or crashes the worker
 * becomes an invalid file saying so ("validation stopped after 10 s: …"), and the next file
 * gets a fresh worker; the server's event loop only ever waits on a message.
 *
 * The worker script is named as `new URL('./validate-worker.ts', import.meta.url)` inline,
 * the form Next's bundler (Turbopack) recognises and bundles as a worker (checked against
 * `next start` in e2e/pull-request-validation.spec.ts); run from source (tsx, vitest, the CLI)
 * the worker loads the TypeScript through tsx.
 */
import { Worker } from 'node:worker_threads';
import { tsxWorker } from '../../tsx-worker';
import { BLUEPRINT_LIMITS } from '@/lib/core';
import { stoppedFile, validateFile, type FileToValidate } from './validate-file';
import type { ValidatedFile } from './validation';

export interface WorkerLimits {
  /** Per file, from the moment it is sent (a fresh worker's start-up included). */
  timeoutMs: number;
  /** The worker's V8 heap (old generation). */
  memoryMb: number;
}

export const VALIDATION_WORKER_LIMITS: WorkerLimits = { timeoutMs: 10_000, memoryMb: 256 };

/**
 * One worker serves the process, kept warm between pull requests (its start-up is most of a
 * small file's check) and replaced after a timeout or crash; files are checked one at a time.
 */
let shared: ValidationWorker | null = null;
let queue: Promise<unknown> = Promise.resolve();

export function validateInWorker(files: FileToValidate[], limits: WorkerLimits = VALIDATION_WORKER_LIMITS): Promise<ValidatedFile[]> {
  const run = queue.then(() => validateAll(files, limits));
  queue = run.catch(() => undefined);
  return run;
}

async function validateAll(files: FileToValidate[], limits: WorkerLimits): Promise<ValidatedFile[]> {
  const out: ValidatedFile[] = [];
  for (const file of files) {
    // Over the size limit: rejected here by length alone, rather than copied to a worker to be measured.
    if (file.text.length > BLUEPRINT_LIMITS.maxFileBytes) {
      out.push(validateFile(file));
      continue;
    }
    if (shared && (!shared.alive || shared.limits !== limits)) {
      void shared.close();
      shared = null;
    }
    shared ??= new ValidationWorker(limits);
    const result = await shared.validate(file);
    out.push('stopped' in result ? stoppedFile(file, result.stopped, result.hint) : result);
  }
  return out;
}

type Answer = ValidatedFile | { stopped: string; hint: string };

class ValidationWorker {
  alive = true;
  private readonly worker: Worker;
  private pending: ((a: Answer) => void) | null = null;

  constructor(readonly limits: WorkerLimits) {
    const options = {
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: Math.min(32, limits.memoryMb), stackSizeMb: 4 },
      stdout: false,
      stderr: false,
    };
    // In the Next server the bundler turns this exact `new Worker(new URL(…))` into a bundled
    // worker; anywhere else (tsx, vitest, the CLI) the worker runs the TypeScript through tsx,
    // registered inside it (a worker's `--import tsx` is not applied on Node 20).
    this.worker = process.env.NEXT_RUNTIME
      ? new Worker(new URL('./validate-worker.ts', import.meta.url), options)
      : tsxWorker(import.meta.url.replace(/validate-in-worker\.ts$/, 'validate-worker.ts'), options);
    // an idle worker does not keep the process (a CLI, a test run) alive
    this.worker.unref();
    this.worker.on('message', (m: ValidatedFile) => this.settle(m));
    this.worker.on('error', (e: Error & { code?: string }) => {
      const outOfMemory = e.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.settle({
        stopped: outOfMemory ? `validation stopped: checking this file needed more than ${limits.memoryMb} MB of memory` : `validation stopped: the checker failed (${e.name}: ${e.message.slice(0, 200)})`,
        hint: outOfMemory ? 'Make the file smaller (docs/limits.md lists the limits).' : 'Push again to retry; if it persists, please report it with the file attached.',
      });
    });
    this.worker.on('exit', (code) => this.settle({ stopped: `validation stopped: the checker exited (code ${code})`, hint: 'Push again to retry; if it persists, please report it with the file attached.' }));
  }

  validate(file: FileToValidate): Promise<Answer> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.settle({ stopped: `validation stopped after ${formatSeconds(this.limits.timeoutMs)}: the file took too long to check`, hint: 'Make the file smaller or simpler (docs/limits.md lists the limits).' });
      }, this.limits.timeoutMs);
      this.pending = (answer) => {
        clearTimeout(timer);
        resolve(answer);
      };
      this.worker.postMessage(file);
    });
  }

  close(): Promise<number> {
    this.alive = false;
    return this.worker.terminate();
  }

  private settle(answer: Answer): void {
    if ('stopped' in answer && this.alive) void this.close();
    const pending = this.pending;
    this.pending = null;
    pending?.(answer);
  }
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
