/** `assay sync`: store the local blueprint folder (or, once configured, the GitHub repository). */
import { parseArgs } from 'node:util';
import { env } from '@/lib/server/env';
import { openDatabase } from '@/lib/server/db/database';
import { createDb } from '@/lib/server/db/client';
import { syncLocalFolder } from '@/lib/server/blueprints/sync-local';

export async function syncCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { dir: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log('usage: assay sync [--dir FOLDER]\n\nStores every blueprint of FOLDER (default: $ASSAY_BLUEPRINTS_DIR or blueprints/).');
    return 0;
  }
  const config = env();
  const database = await openDatabase(config);
  const db = createDb(database.url);
  try {
    const dir = values.dir ?? config.ASSAY_BLUEPRINTS_DIR;
    const s = await syncLocalFolder(db, dir, 'cli');
    console.log(`${dir}: ${s.added} added, ${s.changed} changed, ${s.unchanged} unchanged, ${s.removed} removed, ${s.invalid} invalid, ${s.collections} model collections`);
    for (const line of s.errors) console.log(line);
    return s.invalid > 0 ? 1 : 0;
  } finally {
    await db.$disconnect();
    await database.close();
  }
}
