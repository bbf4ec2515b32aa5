/**
 * Helpers for the run pipeline's database tests and benchmarks: store a blueprint file as a
 * source would, and wire real run dependencies against the fake LLM server (a real HTTP
 * server: the test double sits at the network boundary, never inside our code).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { parseBlueprint, blueprintIdFromPath, createQuickJsSandbox, type FixtureSet } from '@/lib/core';
import { wevalCopy } from '@/testing/fakes/github-server-corpus';
import type { Db } from '../db/client';
import { storeBlueprintVersion } from '../db/commands/store-blueprint-version';
import type { RunDeps } from './engine/deps';
import { executeRun } from './engine/execute-run';
import { LlmGateway } from './calls/gateway';
import { sharedGradingPool, type GradingPool } from './grading/grading-pool';
import type { RunDefaults } from './request-run';

/** Stores `text` as blueprint `path` of a test source, with Weval's CORE model collection (a copy in testing/weval-copies). */
export async function storeBlueprint(db: Db, path: string, text: string): Promise<{ blueprintId: string; sourceId: string }> {
  const source = await db.blueprintSource.upsert({ where: { key: 'local:test' }, create: { key: 'local:test', kind: 'local', localPath: 'test' }, update: {} });
  const parsed = parseBlueprint(text, { file: path });
  if (!parsed.ok) throw new Error(`test blueprint ${path} does not parse: ${parsed.errors.map((e) => `${e.line}:${e.col} ${e.message}`).join('; ')}`);
  const blueprintId = blueprintIdFromPath(path);
  await storeBlueprintVersion(db, source.id, blueprintId, { path, rawText: text, sourceCommit: null, blobSha: null }, parsed);
  const core = JSON.parse(wevalCopy('models/CORE.json')) as string[];
  await db.modelCollection.upsert({ where: { sourceId_name: { sourceId: source.id, name: 'CORE' } }, create: { sourceId: source.id, name: 'CORE', models: core }, update: {} });
  return { blueprintId, sourceId: source.id };
}

/** Stores a blueprint of which testing/weval-copies holds a copy (`test.yml`), so its tests need no corpus. */
export async function storeCorpusBlueprint(db: Db, relPath: string) {
  return storeBlueprint(db, relPath, wevalCopy(`blueprints/${relPath}`));
}

/** Warmed as the server's is when it wires the pipeline (createRunDeps). */
async function warmPool(pool: GradingPool): Promise<GradingPool> {
  await pool.warm();
  return pool;
}

export async function fakeDeps(db: Db, fakeUrl: string, opts: { concurrency?: number; fixtures?: FixtureSet; sandbox?: boolean; timeoutMs?: number; gradingPool?: GradingPool | null } = {}): Promise<RunDeps> {
  return {
    db,
    gateway: new LlmGateway({
      db,
      providers: { keys: {}, baseUrlOverride: fakeUrl },
      concurrency: opts.concurrency ?? 8,
      retry: { maxAttempts: 6, baseDelayMs: 5, maxDelayMs: 2000 },
      timeoutMs: opts.timeoutMs ?? 10_000,
    }),
    sandbox: opts.sandbox === false ? null : await createQuickJsSandbox(),
    // as in the server: sandbox points graded in a worker (null: on the test's thread)
    gradingPool: opts.gradingPool === undefined ? await warmPool(sharedGradingPool()) : opts.gradingPool,
    external: null,
    fixtures: opts.fixtures ?? null,
  };
}

export const TEST_DEFAULTS: RunDefaults = { judges: ['openai:judge-a#standard', 'openai:judge-b#prompt-aware'], defaultCollection: 'CORE', judgeSamples: 3 };

export const noDispatch = { dispatch: async () => {} };

/**
 * `node bin/assay.mjs …args` as a running process (from the repository root, as vitest runs), for
 * the tests that kill it mid-run or run two at once; its report (stdout) and its progress and
 * warnings (stderr) are kept apart, as the CLI writes them.
 */
export function spawnAssay(args: string[], env: Record<string, string>): { child: ChildProcess; stdout: () => string; stderr: () => string; exited: Promise<number> } {
  let out = '';
  let err = '';
  const child = spawn(process.execPath, ['bin/assay.mjs', ...args], { env: { ...process.env, NODE_OPTIONS: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : 0))));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/**
 * An in-process execution killed part-way, as a worker that dies is: once `killNow()` says so, its
 * lease is taken from it (as when the process dies and its lease lapses), so it stops before its
 * next provider call and leaves the run running. Fails when the run ended before the kill.
 */
export async function runAndKillInProcess(deps: RunDeps, runId: string, killNow: () => boolean, opts: { inFlight?: number } = {}): Promise<void> {
  const execution = executeRun(deps, runId, opts);
  let killed = false;
  const watch = setInterval(() => {
    if (killed || !killNow()) return;
    killed = true;
    // (a Prisma query runs only once it is awaited or then'd)
    deps.db.$executeRaw`UPDATE runs SET lease_holder = 'killed-worker', lease_expires_at = now() - interval '1 second' WHERE id = ${runId}`.then(
      () => {},
      () => {},
    );
  }, 2);
  try {
    if ((await execution) !== 'busy') throw new Error('the run ended before the kill: give the kill an earlier moment');
  } finally {
    clearInterval(watch);
  }
}
