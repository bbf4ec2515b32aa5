/**
 * The frame of the CLI commands that run something (`run`, `rescore`): the configured
 * database (the embedded one when DATABASE_URL is unset) opened for the command through the
 * composition root (lib/server/compose/database.ts) and always closed, and every domain error
 * (an AppError: a run that cannot be configured, an unknown run, a model that does not
 * resolve…) printed as the command's own one-line error rather than a stack trace.
 */
import type { Env } from '@/lib/server/env';
import type { Db } from '@/lib/server/db/client';
import { openCommandDatabase } from '@/lib/server/compose/database';
import { AppError } from '@/lib/server/http/errors';

/**
 * The CLI's one mapping of domain errors to exit codes and messages: an AppError is the user's
 * to fix, so it is one line and exit 1 (2 is for usage errors, 3 for a run another worker
 * holds); anything else is a bug and is rethrown, for main's stack trace. Null: not ours to map.
 */
export function commandFailure(command: string, e: unknown): { exitCode: number; message: string } | null {
  if (e instanceof AppError) return { exitCode: 1, message: `assay ${command}: ${e.message}` };
  return null;
}

export async function withRunDatabase(command: string, work: (db: Db, config: Env) => Promise<number>): Promise<number> {
  const database = await openCommandDatabase();
  try {
    return await work(database.db, database.config);
  } catch (e) {
    const failure = commandFailure(command, e);
    if (!failure) throw e;
    console.error(failure.message);
    return failure.exitCode;
  } finally {
    await database.close();
  }
}
