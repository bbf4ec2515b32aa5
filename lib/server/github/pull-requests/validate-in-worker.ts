/**
 * Validates untrusted files off the server's thread, in the untrusted-work pool
 * (lib/server/untrusted/untrusted-pool.ts): one file per task, each with a wall-clock limit, in a
 * worker with a memory limit. A file whose check times out or crashes the worker becomes an
 * invalid file saying so ("validation stopped after 10 s: …"), and the pool replaces the worker;
 * the server's event loop only ever waits on a message.
 */
import { BLUEPRINT_LIMITS } from '@/lib/core';
import { UNTRUSTED_POOL_DEFAULTS, UNTRUSTED_TIME_LIMITS, UntrustedPool, UntrustedWorkStopped, sharedUntrustedPool } from '../../untrusted/untrusted-pool';
import { isCollectionPath } from '../paths';
import { blueprintRecord, collectionRecord, stoppedFile, validateFile, type FileToValidate } from './validate-file';
import { checkCollectionValue, type ValidatedFile } from './validation';

export interface WorkerLimits {
  /** Per file, from the moment the worker receives it. */
  timeoutMs: number;
  /** The worker's V8 heap (old generation). */
  memoryMb: number;
}

export const VALIDATION_WORKER_LIMITS: WorkerLimits = { timeoutMs: UNTRUSTED_TIME_LIMITS.backgroundMs, memoryMb: UNTRUSTED_POOL_DEFAULTS.memoryMb };

/** Pools for other memory limits than the shared pool's (tests of the memory bound). */
const byMemory = new Map<number, UntrustedPool>();

function poolFor(memoryMb: number): UntrustedPool {
  if (memoryMb === UNTRUSTED_POOL_DEFAULTS.memoryMb) return sharedUntrustedPool();
  let pool = byMemory.get(memoryMb);
  if (!pool) byMemory.set(memoryMb, (pool = new UntrustedPool({ ...UNTRUSTED_POOL_DEFAULTS, size: 1, memoryMb })));
  return pool;
}

export async function validateInWorker(files: FileToValidate[], limits: WorkerLimits = VALIDATION_WORKER_LIMITS): Promise<ValidatedFile[]> {
  const pool = poolFor(limits.memoryMb);
  const out: ValidatedFile[] = [];
  // one file at a time: a pull request does not take every worker from the requests waiting on the pool
  for (const file of files) {
    // Over the size limit: rejected here by length alone, rather than copied to a worker to be measured.
    if (file.text.length > BLUEPRINT_LIMITS.maxFileBytes) {
      out.push(validateFile(file));
      continue;
    }
    const task = { what: `validating ${file.path}`, timeoutMs: limits.timeoutMs };
    const { path, blobSha, text } = file;
    try {
      if (isCollectionPath(path)) out.push(collectionRecord(file, checkCollectionValue(await pool.run('parse-json', { text }, task))));
      else out.push(blueprintRecord(file, await pool.run('parse-blueprint', { text, file: path }, task)));
    } catch (e) {
      if (!(e instanceof UntrustedWorkStopped)) throw e;
      if (e.reason === 'time') out.push(stoppedFile({ path, blobSha }, `validation stopped after ${formatSeconds(limits.timeoutMs)}: the file took too long to check`, 'Make the file smaller or simpler (docs/limits.md lists the limits).'));
      else if (e.reason === 'memory') out.push(stoppedFile({ path, blobSha }, `validation stopped: checking this file needed more than ${limits.memoryMb} MB of memory`, 'Make the file smaller (docs/limits.md lists the limits).'));
      else out.push(stoppedFile({ path, blobSha }, `validation stopped: the checker failed (${e.message.slice(0, 200)})`, 'Push again to retry; if it persists, please report it with the file attached.'));
    }
  }
  return out;
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
