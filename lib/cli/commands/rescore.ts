/**
 * `assay rescore RUN_ID`: re-grades a stored run's replies with another judge panel and/or a
 * changed rubric (a blueprint file whose prompts keep their ids), calling no model. The
 * result is a new run linked to the old one (its page says "Rescore of …", the old one lists
 * its rescores). Runs in this process, like `assay run`.
 */
import { readFile } from 'node:fs/promises';
import { formatIssue, parseBlueprint } from '@/lib/core';
import type { Db } from '@/lib/server/db/client';
import { storeBlueprintVersion } from '@/lib/server/db/commands/store-blueprint-version';
import { executeRun } from '@/lib/server/runs/engine/execute-run';
import { requestRescore } from '@/lib/server/runs/request-rescore';
import { RunConfigError } from '@/lib/server/runs/engine/errors';
import { createRunDeps, runDefaults } from '@/lib/server/compose/run-deps';
import { repoRelativePath } from '../files';
import { reportRun } from '../report-run';
import { withRunDatabase } from '../with-run-database';
import { parseCommandArgs, usageError } from './usage';

const USAGE = `usage: assay rescore RUN_ID [options]

Re-grades the stored replies of run RUN_ID without calling any model; the result is a new
run linked to RUN_ID.
  --judges a,b        a new judge panel (model or model#approach); default: the run's
  --blueprint FILE    a changed rubric: a version of the run's blueprint whose prompts keep
                      their ids (stored as a version, not made the blueprint's latest)
  --json FILE         write {run, results} to FILE ('-' for standard output, which then holds
                      the JSON alone: the report goes to standard error)
Prints the new run's report on standard output, as assay run does; its id, warnings and
errors go to standard error.
Exit status: as assay run (0 completed with a score; 1 otherwise; 2 on usage errors).`;

/** Stores FILE as a version of the run's blueprint (not at its source's head) and returns the version id. */
async function rubricVersion(db: Db, runId: string, file: string): Promise<string> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { blueprint: { select: { id: true, sourceId: true } } } });
  if (!run) throw new RunConfigError(`no run with id ${runId}`);
  const text = await readFile(file, 'utf8');
  const parsed = parseBlueprint(text, { file });
  if (!parsed.ok) throw new RunConfigError(`${file} does not validate:\n${parsed.errors.map(formatIssue).join('\n')}`);
  const stored = await storeBlueprintVersion(db, run.blueprint.sourceId, run.blueprint.id, { path: repoRelativePath(file), rawText: text, sourceCommit: null, blobSha: null }, parsed, { publish: false });
  return stored.versionId;
}

export async function rescoreCommand(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs('rescore', USAGE, argv, { allowPositionals: true, options: { judges: { type: 'string' }, blueprint: { type: 'string' }, json: { type: 'string' } } });
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) return usageError('rescore', 'name one run id', USAGE);
  const parentId = positionals[0]!;
  const judges = (values.judges as string | undefined)?.split(',').map((s) => s.trim()).filter(Boolean);

  return withRunDatabase('rescore', async (db, config) => {
    const versionId = values.blueprint ? await rubricVersion(db, parentId, values.blueprint as string) : undefined;
    const deps = await createRunDeps(db, config);
    const { runId } = await requestRescore(
      db,
      { runId: parentId, ...(versionId ? { versionId } : {}), ...(judges?.length ? { judges } : {}) },
      { dispatch: async () => {} },
      runDefaults(config),
    );
    console.error(`assay: rescore ${runId} of run ${parentId}`);
    await executeRun(deps, runId);
    return reportRun(db, runId, config.ASSAY_PUBLIC_URL, values.json as string | undefined);
  });
}
