/**
 * Part of the composition root: the configured database made ready (a new embedded data
 * directory created, migrations applied) and closed again, for `assay migrate`. Apart from
 * database.ts so that the command loads no Prisma client: it makes none.
 */
import { openDatabase } from '../db/database';
import { env } from '../env';

/** What the database was, in words, once ready. */
export async function readyConfiguredDatabase(): Promise<string> {
  const config = env();
  const database = await openDatabase(config);
  await database.close();
  return database.mode === 'server' ? 'PostgreSQL server' : `embedded PGlite (${config.ASSAY_DATA_DIR})`;
}
