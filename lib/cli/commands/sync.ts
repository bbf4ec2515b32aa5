/**
 * `assay sync`: store the blueprints of the configured source in the database: the GitHub
 * repository when GITHUB_REPOSITORY is set (only changed blobs are fetched), else the local
 * folder. `--dir` forces the local folder.
 */
import { localFolderReader } from '@/lib/server/blueprints/local-folder-reader';
import { syncSource } from '@/lib/server/blueprints/sync-source';
import { openCommandDatabase } from '@/lib/server/compose/database';
import { configuredGitHub } from '@/lib/server/compose/github';
import { repositoryReader } from '@/lib/server/github/repository-reader';
import { parseCommandArgs } from './usage';

const USAGE = `usage: assay sync [--dir FOLDER] [--force]

With GITHUB_REPOSITORY=owner/repo set, syncs that repository's GITHUB_BRANCH through the GitHub
API (GITHUB_TOKEN or a GitHub App; GITHUB_API_URL for a GitHub Enterprise or the fake server),
fetching only the files that changed since the last sync. Otherwise, or with --dir, stores every
blueprint of FOLDER (default: $ASSAY_BLUEPRINTS_DIR or blueprints/).

  --dir FOLDER  sync a local folder even when a repository is configured
  --force       list the repository's tree even if its head commit was synced already`;

export async function syncCommand(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs('sync', USAGE, argv, { options: { dir: { type: 'string' }, force: { type: 'boolean' } } });
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  const { db, config, close } = await openCommandDatabase();
  try {
    const gh = values.dir ? null : configuredGitHub(config);
    const dir = values.dir ?? config.ASSAY_BLUEPRINTS_DIR;
    const reader = gh ? repositoryReader(gh.repo, gh.source) : localFolderReader(dir);
    const s = await syncSource({ db }, reader, { trigger: 'cli', force: values.force ?? false });
    const where = gh ? `${gh.source.owner}/${gh.source.repo}@${gh.source.branch} (${s.revision?.slice(0, 7)})` : dir;
    const counts = `${s.added} added, ${s.changed} changed, ${s.unchanged} unchanged, ${s.removed} removed, ${s.invalid} invalid, ${s.collections} model collections`;
    if (s.upToDate) console.log(`${where}: already synced; nothing fetched (--force to list the tree again)`);
    else console.log(gh ? `${where}: ${counts}; ${s.filesRead} files fetched` : `${where}: ${counts}`);
    // the invalid files' problems are errors (exit 1): standard error, beside the summary on standard output
    for (const line of s.errors) console.error(line);
    return s.invalid > 0 ? 1 : 0;
  } finally {
    await close();
  }
}
