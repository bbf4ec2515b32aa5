/**
 * The demo's soev runs (ASSAY_SEED_DEMO=1, after seedDemo): the soev example project
 * (blueprints/soev-example), each suite run once with `requestRun` + `executeRun` (what `assay run
 * project.yml` does) against the fake's soev threads API as the system under test, judged by the
 * demo's judges. The suites are stored as `assay run` stores them (with the project's context,
 * so each shows its title and description), under the ids a local sync of `blueprints/` gives
 * them: the home page lists each suite once, with its run.
 */
import { blueprintIdFromPath, createQuickJsSandbox, formatIssue, soevSystemSpec } from '@/lib/core';
import type { Db } from '../client';
import { besideBlueprint } from '../../blueprints/beside-blueprint';
import { loadSoevProject } from '../../blueprints/soev-project';
import { folderFiles } from '../../blueprints/confined-file';
import { storeSoevSuites } from '../../blueprints/soev-suites';
import type { RunDeps } from '../../runs/engine/deps';
import { executeRun } from '../../runs/engine/execute-run';
import { LlmGateway } from '../../runs/calls/gateway';
import { requestRun } from '../../runs/request-run';
import { DEMO_JUDGES } from './demo-models';
import { SOEV_DEMO_RULES } from './demo-soev';
import type { DemoProvider } from './seed-demo';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** The project's folder in `blueprints/`, as a local sync writes its paths. */
const FOLDER = 'soev-example';
const BLUEPRINTS_DIR = fileURLToPath(new URL('../../../../blueprints/', import.meta.url));
const PROJECT_DIR = `${BLUEPRINTS_DIR}${FOLDER}`;
/** Demo values of the variables the project names for its token and subject: the fake's soev API requires both. */
const DEMO_CREDENTIALS = { SOEV_TOKEN: 'demo-soev-token', SOEV_SUBJECT: 'demo-tenant' };

export const demoSoevRunId = (suite: string) => `soev-${suite}-run-1`;
export const demoSoevBlueprintId = (suitePath: string) => blueprintIdFromPath(`${FOLDER}/${suitePath}`);

export interface SeededSoev {
  runs: { suite: string; blueprintId: string; runId: string; title: string }[];
}

export async function seedSoevDemo(db: Db, provider: DemoProvider, opts: { now?: Date } = {}): Promise<SeededSoev> {
  const now = opts.now ?? new Date();
  const origin = new URL(provider.url).origin;
  const systemUrl = `${origin}/soev`;
  const loaded = await loadSoevProject(folderFiles(PROJECT_DIR), { projectPath: 'project.yml', prefix: `${FOLDER}/`, baseUrl: systemUrl, soevSystemSpec });
  if (!loaded.ok) throw new Error(`the soev example does not validate:\n${loaded.errors.map(formatIssue).join('\n')}`);
  // under the synced suites' source when the start-up sync stored them, else the demo's own
  const firstId = blueprintIdFromPath(`${FOLDER}/${loaded.files[0]!.path}`);
  const synced = await db.blueprint.findUnique({ where: { id: firstId }, select: { sourceId: true } });
  const sourceId =
    synced?.sourceId ?? (await db.blueprintSource.upsert({ where: { key: 'local:demo' }, create: { key: 'local:demo', kind: 'local', localPath: 'lib/server/db/seed' }, update: {} })).id;
  const stored = await storeSoevSuites(db, sourceId, loaded, { folder: FOLDER, projectFile: 'project.yml', projectText: await readFile(`${PROJECT_DIR}/project.yml`, 'utf8'), systemUrl });

  await provider.setRules(SOEV_DEMO_RULES);
  const sandbox = await createQuickJsSandbox();
  const deps: RunDeps = {
    db,
    gateway: new LlmGateway({
      db,
      providers: {
        keys: {},
        baseUrlOverride: provider.url,
        // the maintainer's allow-lists as a deployment writes them (ASSAY_HTTP_MODEL_ORIGINS, ASSAY_HTTP_MODEL_ENV): the fake's origin only
        custom: { allowedOrigins: [origin], env: Object.fromEntries(Object.entries(DEMO_CREDENTIALS).map(([name, value]) => [name, { value, origins: [origin] }])) },
      },
      concurrency: 4,
      retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 100 },
      timeoutMs: 30_000,
    }),
    sandbox,
    external: null,
    fixtures: null,
    readBesideBlueprint: besideBlueprint(BLUEPRINTS_DIR),
  };
  const runs: SeededSoev['runs'] = [];
  try {
    for (const [order, s] of stored.entries()) {
      const runId = demoSoevRunId(s.suite);
      // a fresh demo run each time (its results go with it: cascade)
      await db.run.deleteMany({ where: { id: runId } });
      const { runId: made } = await requestRun(db, { blueprintId: s.blueprintId, trigger: 'manual', judges: DEMO_JUDGES, bypassCache: true }, { dispatch: async () => {} }, { judges: DEMO_JUDGES, defaultCollection: 'CORE', judgeSamples: 3 });
      await db.run.update({ where: { id: made }, data: { id: runId } });
      const started = Date.now();
      const status = await executeRun(deps, runId);
      if (status !== 'completed') throw new Error(`demo run ${runId} ended ${status}`);
      // dated a day back beside the other demo runs (run timestamps only, never evidence)
      const at = new Date(now.getTime() - 86_400_000 + 3 * 3_600_000 + order * 600_000);
      await db.run.update({ where: { id: runId }, data: { createdAt: at, startedAt: at, finishedAt: new Date(at.getTime() + (Date.now() - started)) } });
      const bp = await db.blueprint.findUniqueOrThrow({ where: { id: s.blueprintId }, select: { title: true } });
      runs.push({ suite: s.suite, blueprintId: s.blueprintId, runId, title: bp.title });
    }
  } finally {
    sandbox.dispose();
  }
  return { runs };
}
