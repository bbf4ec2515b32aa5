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
import { withOpened } from './command-failure';

export function withRunDatabase(command: string, work: (db: Db, config: Env) => Promise<number>): Promise<number> {
  return withOpened(command, openCommandDatabase, (database) => work(database.db, database.config));
}
