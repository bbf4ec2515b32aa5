/**
 * `assay migrate`: makes the configured database ready, then stops. The embedded database
 * (ASSAY_DATA_DIR, when DATABASE_URL is unset) gets its data directory made from the migrated
 * snapshot if it is new; every migration not yet applied is applied. `npm run db:migrate` runs
 * it, and so does the launcher (scripts/launch.ts) for a new data directory before it opens it:
 * a compiled command with none of the app's modules, so a first start is a second or two.
 */
import { readyConfiguredDatabase } from '@/lib/server/compose/ready-database';
import { EnvError } from '@/lib/server/env';
import { parseCommandArgs } from './usage';

const USAGE = `usage: assay migrate

Makes the database ready and stops: the embedded database (in ASSAY_DATA_DIR, when
DATABASE_URL is unset) is created if its data directory is new, and every migration not yet
applied is applied. The app and the other commands do the same when they start.`;

export async function migrateCommand(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs('migrate', USAGE, argv, { options: {} });
  if (typeof parsed === 'number') return parsed;
  try {
    console.log(`assay: database ready: ${await readyConfiguredDatabase()}`);
  } catch (e) {
    if (!(e instanceof EnvError)) throw e;
    console.error(`assay migrate: ${e.message}`);
    return 2;
  }
  return 0;
}
