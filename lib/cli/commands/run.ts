/**
 * `assay run BLUEPRINT`: runs a blueprint file (or a stored blueprint id) against models
 * with the in-process runner, storing every reply and verdict in the database (the embedded
 * one when DATABASE_URL is unset), with a progress bar. `--resume RUN_ID` continues an
 * interrupted run: nothing completed is called or stored again.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, posix, relative, resolve, sep } from 'node:path';
import { SingleBar, Presets } from 'cli-progress';
import { blueprintIdFromPath, FixtureSetSchema, isSoevProjectText, JudgeModeSchema, parseBlueprint, formatIssue, type FixtureSet, type RetrievalBlock } from '@/lib/core';
import type { Db } from '@/lib/server/db/client';
import { storeBlueprintVersion } from '@/lib/server/db/commands/store-blueprint-version';
import { retryOnUniqueViolation } from '@/lib/server/db/unique-retry';
import { requestRun } from '@/lib/server/runs/request-run';
import { executeRun, type RunProgress } from '@/lib/server/runs/engine/execute-run';
import { createRunDeps, runDefaults } from '@/lib/server/compose/run-deps';
import { RunConfigError } from '@/lib/server/runs/engine/errors';
import { linkRetrievalData } from '@/lib/server/db/commands/retrieval-data';
import { folderDataReader, loadRetrievalFiles } from '@/lib/server/blueprints/retrieval-files';
import { storeSoevSuites } from '@/lib/server/blueprints/soev-suites';
import { repoRelativePath } from '../files';
import { loadProjectFromDisk } from '../soev-files';
import { reportRun } from '../report-run';
import { withRunDatabase } from '../with-run-database';
import { parseCommandArgs, usageError } from './usage';
import { parse as parseYaml } from 'yaml';

const USAGE = `usage: assay run BLUEPRINT [options]
       assay run --resume RUN_ID [options]

BLUEPRINT is a blueprint file (.yml/.yaml/.json), the id of a stored blueprint, or a soev
project file (every suite runs, one run each, against the project's system: docs/soev.md).
  --models a,b        models to run (ids or collection names); default: the blueprint's
  --judges a,b        judge models (model or model#approach); default: ASSAY_JUDGES
  --repeats K         independent samples per prompt (overrides the blueprint's repeats)
  --judge-mode MODE   per-point (one judge call per point) or batched (all points of a reply
                      in one call per judge); default: the blueprint's judge_mode, else per-point
  --fixtures FILE     fixed replies (Weval fixtures format) instead of calling the models
  --concurrency N     concurrent provider calls per provider (default ASSAY_RUN_CONCURRENCY, else the per-provider table in docs/runs.md)
  --max-calls N       stop cleanly after N provider calls
  --max-cost USD      stop cleanly once the run has cost this much (refused, before anything
                      runs, when a model or judge has no known price: docs/runs.md)
  --no-cache          a fresh sample of every call: no cached response is reused, not
                      even an identical call's from earlier in this run
  --batch             batch mode: OpenAI and Anthropic calls go through their batch APIs
                      (half the price, answered within 24 h; polled every
                      ASSAY_BATCH_POLL_SECONDS); other providers are called live
  --json FILE         write {run, results} to FILE ('-' for standard output, which then holds
                      the JSON alone: the report goes to standard error)
  --resume RUN_ID     continue an interrupted run
  --quiet             no progress bar (there is one only when standard error is a terminal)
Prints on standard output the replies and verdicts done and failed, the distinct error
messages with their counts, each model's score (0–100, as on the pages) with its coverage,
and the run's page (ASSAY_PUBLIC_URL/runs/ID); the run's id, the progress, warnings and
errors go to standard error, so 'assay run … > report.txt' keeps the report alone.
Exit status: 0 completed with a score; 1 when the run failed or stopped at its budget, every
reply of a model failed, or no model has a score; 2 on usage errors; 3 when another worker
holds the run (its lease; see docs).`;

async function loadFixtures(file: string): Promise<FixtureSet> {
  const text = await readFile(file, 'utf8');
  const raw: unknown = /\.ya?ml$/i.test(file) ? parseYaml(text) : JSON.parse(text);
  const parsed = FixtureSetSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RunConfigError(`${file}: not a fixtures file: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  return parsed.data;
}

/**
 * What a run is requested for. A file the CLI stored is run at the version it stored, not at the
 * blueprint's latest: a sync of the same blueprint (a dev server starting beside the CLI) may
 * store another version in between, and the run would grade that one instead.
 */
interface RunTarget {
  blueprintId: string;
  versionId?: string;
}

/** A path is stored as a blueprint of the CLI's source (id from its path, as a sync would); an id is used as is. */
async function blueprintFromArgument(db: Db, arg: string): Promise<RunTarget> {
  if (!/\.(ya?ml|json)$/i.test(arg)) {
    if (await db.blueprint.findUnique({ where: { id: arg }, select: { id: true } })) return { blueprintId: arg };
    throw new RunConfigError(`no blueprint file or stored blueprint "${arg}"`);
  }
  const text = await readFile(arg, 'utf8');
  const path = repoRelativePath(arg);
  const parsed = parseBlueprint(text, { file: arg });
  if (!parsed.ok) throw new RunConfigError(`${arg} does not validate:\n${parsed.errors.map(formatIssue).join('\n')}`);
  // the corpus, queries and qrels beside it, read first: bad files store nothing, and a change of any is a new run identity
  const block = parsed.blueprint.retrieval;
  const files = block ? await readLocalRetrievalFiles(arg, block) : null;
  // two `assay run` started at once on a fresh database both create this row: the loser retries
  const source = await retryOnUniqueViolation(() =>
    db.blueprintSource.upsert({ where: { key: 'local:cli' }, create: { key: 'local:cli', kind: 'local', localPath: '.' }, update: {} }),
  );
  const id = blueprintIdFromPath(path);
  const version = await storeBlueprintVersion(db, source.id, id, { path, rawText: text, sourceCommit: null, blobSha: null }, parsed);
  if (files) await linkRetrievalData(db, version.versionId, files);
  return { blueprintId: id, versionId: version.versionId };
}

/**
 * A soev project: each suite file stored as a blueprint (parsed with the project's invariants,
 * system, citations and runs.k), in the project's order. Nothing is stored when any file is invalid.
 */
async function projectBlueprints(db: Db, arg: string): Promise<RunTarget[]> {
  const loaded = await loadProjectFromDisk(arg, true);
  if (loaded.urlMissing) throw new RunConfigError(`${arg}: the system's base URL is read from ${loaded.urlMissing}, which is not set (the project file names the variable, never the value)`);
  if (!loaded.ok) throw new RunConfigError(`${arg} does not validate:\n${loaded.errors.map(formatIssue).join('\n')}`);
  const source = await retryOnUniqueViolation(() =>
    db.blueprintSource.upsert({ where: { key: 'local:cli' }, create: { key: 'local:cli', kind: 'local', localPath: '.' }, update: {} }),
  );
  // Each suite's stored path keeps its place beside the project file (`suites/huur.yml`), under
  // the project's own stored folder, so the files the project names (its corpus, `../corpus/…`
  // from a suite) resolve inside the root `blueprintRootOf(project)` gives the run.
  const folder = posix.dirname(repoRelativePath(arg));
  const stored = await storeSoevSuites(db, source.id, loaded, { folder: folder === '.' ? '' : folder, projectFile: basename(arg), projectText: await readFile(arg, 'utf8'), systemUrl: loaded.systemUrl });
  return stored.map(({ blueprintId, versionId }) => ({ blueprintId, versionId }));
}

async function readLocalRetrievalFiles(arg: string, block: RetrievalBlock) {
  const { root, path } = localRoot(arg);
  const files = await loadRetrievalFiles(block, path, folderDataReader(root));
  if (!files.ok) throw new RunConfigError(`${arg}: its retrieval files do not load:\n${files.issues.map(formatIssue).join('\n')}`);
  return files;
}

/** The folder a blueprint's data paths may reach: the working directory when the file is inside it, else the file's own folder. */
function localRoot(file: string): { root: string; path: string } {
  const abs = resolve(file);
  const inCwd = relative(process.cwd(), abs);
  const root = inCwd.startsWith('..') || isAbsolute(inCwd) ? dirname(abs) : process.cwd();
  return { root, path: relative(root, abs).split(sep).join('/') };
}

/** The folder a blueprint file's stored path is relative to (repoRelativePath), for the files it names (`corpus:`). */
function blueprintRootOf(arg: string | undefined): { blueprintRoot?: string } {
  if (!arg || !/\.(ya?ml|json)$/i.test(arg)) return {};
  const abs = resolve(arg);
  const path = repoRelativePath(arg);
  return { blueprintRoot: abs.slice(0, abs.length - path.length) };
}

const list = (v: string | undefined) => v?.split(',').map((s) => s.trim()).filter(Boolean);

export async function runCommand(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs('run', USAGE, argv, {
    allowPositionals: true,
    options: {
      models: { type: 'string' },
      judges: { type: 'string' },
      repeats: { type: 'string' },
      'judge-mode': { type: 'string' },
      fixtures: { type: 'string' },
      concurrency: { type: 'string' },
      'max-calls': { type: 'string' },
      'max-cost': { type: 'string' },
      'no-cache': { type: 'boolean' },
      batch: { type: 'boolean' },
      json: { type: 'string' },
      resume: { type: 'string' },
      quiet: { type: 'boolean' },
    },
  });
  if (typeof parsed === 'number') return parsed;
  const { positionals } = parsed;
  const values: Record<string, string | boolean | undefined> = parsed.values;
  const resume = values.resume as string | undefined;
  if (!resume && positionals.length !== 1) return usageError('run', 'name one blueprint file or id', USAGE);
  // Checked before any database starts: a typo in the mode is a usage error, nothing is run.
  const judgeMode = values['judge-mode'] === undefined ? undefined : JudgeModeSchema.safeParse(values['judge-mode']);
  if (judgeMode && !judgeMode.success) return usageError('run', `--judge-mode must be per-point or batched, not "${String(values['judge-mode'])}"`, USAGE);
  const int = (name: string) => {
    const v = values[name];
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new RunConfigError(`--${name} must be a whole number ≥ 1, not "${String(v)}"`);
    return n;
  };

  return withRunDatabase('run', async (db, config) => {
    const fixtures = values.fixtures ? await loadFixtures(values.fixtures as string) : null;
    const deps = await createRunDeps(db, config, { fixtures, concurrency: int('concurrency') ?? config.ASSAY_RUN_CONCURRENCY, ...blueprintRootOf(positionals[0]) });
    const arg = positionals[0];
    const isProject = !resume && /\.ya?ml$/i.test(arg!) && isSoevProjectText(await readFile(arg!, 'utf8').catch(() => ''), arg!);
    const targets = resume ? [null] : isProject ? await projectBlueprints(db, arg!) : [await blueprintFromArgument(db, arg!)];
    let exitCode = 0;
    for (const target of targets) {
      const code = await runOne(target);
      if (code === 3) return 3;
      exitCode = Math.max(exitCode, code);
    }
    return exitCode;

    async function runOne(target: RunTarget | null): Promise<number> {
      let runId = resume;
      if (!runId && target) {
        const maxCost = values['max-cost'] === undefined ? undefined : Number(values['max-cost']);
        if (maxCost !== undefined && !(maxCost > 0)) throw new RunConfigError('--max-cost must be a positive number of US dollars');
        const req = await requestRun(
          db,
          {
            blueprintId: target.blueprintId,
            ...(target.versionId ? { versionId: target.versionId } : {}),
            trigger: 'cli',
            ...(list(values.models as string | undefined) ? { models: list(values.models as string)! } : {}),
            ...(list(values.judges as string | undefined) ? { judges: list(values.judges as string)! } : {}),
            ...(int('repeats') ? { repeats: int('repeats')! } : {}),
            ...(judgeMode?.success ? { judgeMode: judgeMode.data } : {}),
            budget: { ...(int('max-calls') ? { maxCalls: int('max-calls')! } : {}), ...(maxCost ? { maxCostUsd: maxCost } : {}) },
            bypassCache: values['no-cache'] === true,
            ...(values.batch === true ? { mode: 'batch' as const } : {}),
          },
          { dispatch: async () => {} },
          runDefaults(config),
        );
        runId = req.runId;
      }
      if (!runId) throw new RunConfigError('no run to execute');
      // Chatter goes to standard error, the report (reportRun) to standard output. The bar redraws
      // one line in place, which only a terminal shows as a bar: in a CI log or a file it would
      // be a line per update, so without a terminal there is only this line and the report.
      console.error(`assay: run ${runId}${resume ? ' (resumed)' : ''}`);
      const bar = values.quiet || !process.stderr.isTTY ? null : new SingleBar({ format: '{bar} {value}/{total} replies | {verdicts} verdicts | {errors} errors | ${cost}', hideCursor: true, stream: process.stderr }, Presets.shades_classic);
      let started = false;
      const onProgress = (p: RunProgress) => {
        if (!bar) return;
        const payload = { verdicts: `${p.verdicts.done}/${p.verdicts.total}`, errors: p.errors, cost: p.costUsd.toFixed(4) };
        if (!started) {
          bar.start(p.replies.total, p.replies.done, payload);
          started = true;
        } else bar.update(p.replies.done, payload);
      };
      const status = await executeRun(deps, runId, {
        onProgress,
        onBusy: (b) => console.error(`assay run: run ${runId} is being executed by ${b.holder} (lease until ${b.expiresAt.toISOString()}); nothing done here. Try again once it has finished or its lease has lapsed.`),
      });
      bar?.stop();
      if (status === 'busy') return 3;
      // one JSON file per suite of a project: FILE gets the suite's name before its extension
      const json = values.json as string | undefined;
      return reportRun(db, runId!, config.ASSAY_PUBLIC_URL, isProject && json && json !== '-' && targets.length > 1 ? json.replace(/(\.[^./]+)?$/, `.${target!.blueprintId.replace(/[^A-Za-z0-9_-]+/g, '_')}$1`) : json);
    }
  });
}
