/**
 * `parseBlueprint` for text from outside (a draft, a pushed file): run in the untrusted-work pool,
 * so a pathological file costs a worker its time limit, never the server's thread. A parse that
 * is stopped reads as an invalid file whose one issue says why, so every caller reports it the way
 * it reports any other invalid file.
 */
import type { ParseResult } from '@/lib/core';
import { sharedUntrustedPool, UNTRUSTED_TIME_LIMITS, UntrustedWorkStopped, type UntrustedPool } from './untrusted-pool';

export interface BoundedParseOptions {
  file: string;
  /** Defaults to the interactive limit (a request is waiting). */
  timeoutMs?: number;
  pool?: UntrustedPool;
}

export async function parseBlueprintBounded(text: string, options: BoundedParseOptions): Promise<ParseResult> {
  const pool = options.pool ?? sharedUntrustedPool();
  try {
    return await pool.run('parse-blueprint', { text, file: options.file }, { what: `checking ${options.file}`, timeoutMs: options.timeoutMs ?? UNTRUSTED_TIME_LIMITS.interactiveMs });
  } catch (e) {
    if (!(e instanceof UntrustedWorkStopped)) throw e;
    const hint =
      e.reason === 'crash'
        ? 'Try again; if it persists, please report it with the file attached.'
        : 'Make the file smaller or simpler: a regular expression such as `id_pattern` or a `correct:` pattern that backtracks is the usual cause (docs/limits.md lists the limits).';
    return { ok: false, errors: [{ severity: 'error', code: 'limit', file: options.file, line: 1, col: 1, message: e.message, hint }], warnings: [] };
  }
}
