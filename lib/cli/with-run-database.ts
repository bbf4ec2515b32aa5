/**
 * The frame of the CLI commands that run something (`run`, `rescore`): the configured
 * database (the embedded one when DATABASE_URL is unset) opened for the command and always
 * closed, and a run's configuration mistakes printed as the command's own one-line error
 * (exit 1) rather than a stack trace.
 */
import { env, type Env } from '@/lib/server/env';
import { openDatabase } from '@/lib/server/db/database';
import { createDb, type Db } from '@/lib/server/db/client';
import { RunConfigError } from '@/lib/server/runs/errors';

export async function withRunDatabase(command: string, work: (db: Db, config: Env) => Promise<number>): Promise<number> {
  const config = env();
  const database = await openDatabase(config);
  const db = createDb(database.url);
  try {
    return await work(db, config);
  } catch (e) {
    if (e instanceof RunConfigError || (e instanceof Error && e.name === 'ModelResolutionError')) {
      console.error(`assay ${command}: ${e.message}`);
      return 1;
    }
    throw e;
  } finally {
    await db.$disconnect();
    await database.close();
  }
}
