/**
 * The demo's retrieval run (ASSAY_SEED_DEMO=1, after seedDemo): the example retrieval blueprint
 * (blueprints/retrieval/kitchen-search.yml and its three files), run with `requestRun` +
 * `executeRun` (what `assay run` does) against the fake provider's embeddings, under a fixed run
 * id. Every vector, ranking and metric is the pipeline's own. The blueprint is the one the start-up
 * sync of `blueprints/` made, when it did (so the home page lists the example once, with its run);
 * otherwise (a GitHub source) the demo stores it under the same id, its files linked as a sync
 * links them.
 */
import { readFile } from 'node:fs/promises';
import { blueprintIdFromPath, parseBlueprint } from '@/lib/core';
import type { Db } from '../client';
import { storeBlueprintVersion } from '../commands/store-blueprint-version';
import { resolveEmbeddingClient } from '../../providers/embeddings';
import type { RunDeps } from '../../runs/engine/deps';
import { executeRun } from '../../runs/engine/execute-run';
import { LlmGateway } from '../../runs/calls/gateway';
import { requestRun } from '../../runs/request-run';
import { syncRetrievalFiles } from '../../blueprints/sync-retrieval';

export const DEMO_RETRIEVAL_RUN = 'kitchen-search-run-1';
/** The example's own path in `blueprints/`: the id a local sync gives it. */
const PATH = 'retrieval/kitchen-search.yml';
export const demoRetrievalBlueprintId = blueprintIdFromPath(PATH);
/** Where the example lives in the repository; the seed's `retrieval/` paths are read from here. */
const EXAMPLE_DIR = new URL('../../../../blueprints/retrieval/', import.meta.url);

export interface SeededRetrieval {
  blueprintId: string;
  runId: string;
  models: string[];
  queryIds: string[];
}

export async function seedRetrievalDemo(db: Db, provider: { url: string }, opts: { now?: Date } = {}): Promise<SeededRetrieval> {
  const now = opts.now ?? new Date();
  const read = (demoPath: string) => readFile(new URL(demoPath.replace(/^retrieval\//, ''), EXAMPLE_DIR), 'utf8');
  const rawText = await read(PATH);
  const parsed = parseBlueprint(rawText, { file: PATH });
  if (!parsed.ok || !parsed.blueprint.retrieval) throw new Error(`the example retrieval blueprint does not validate: ${parsed.ok ? 'no retrieval block' : parsed.errors.map((e) => `${e.line}:${e.col} ${e.message}`).join('; ')}`);
  // a fresh demo run each time (its results go with it: cascade)
  await db.run.deleteMany({ where: { id: DEMO_RETRIEVAL_RUN } });
  const synced = await db.blueprint.findFirst({ where: { id: demoRetrievalBlueprintId, removedAt: null, latestVersion: { retrievalData: { datasetId: { not: null } } } }, select: { id: true } });
  if (!synced) {
    const source = await db.blueprintSource.upsert({ where: { key: 'local:demo' }, create: { key: 'local:demo', kind: 'local', localPath: 'lib/server/db/seed' }, update: {} });
    await db.blueprint.deleteMany({ where: { id: demoRetrievalBlueprintId } });
    const { versionId } = await storeBlueprintVersion(db, source.id, demoRetrievalBlueprintId, { path: PATH, rawText, sourceCommit: null, blobSha: null }, parsed);
    const issues = await syncRetrievalFiles(db, versionId, parsed.blueprint.retrieval, PATH, read);
    if (issues.length) throw new Error(`the example retrieval files do not load:\n${issues.join('\n')}`);
  }

  const providers = { keys: {}, baseUrlOverride: provider.url };
  const deps: RunDeps = {
    db,
    gateway: new LlmGateway({ db, providers, concurrency: 4 }),
    sandbox: null,
    external: null,
    fixtures: null,
    embeddings: { client: (modelId) => resolveEmbeddingClient(modelId, providers), retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 100 } },
  };
  const { runId: made } = await requestRun(db, { blueprintId: demoRetrievalBlueprintId, trigger: 'manual' }, { dispatch: async () => {} }, { judges: [], defaultCollection: 'CORE', judgeSamples: 3 });
  await db.run.update({ where: { id: made }, data: { id: DEMO_RETRIEVAL_RUN } });
  const started = Date.now();
  const status = await executeRun(deps, DEMO_RETRIEVAL_RUN);
  if (status !== 'completed') throw new Error(`demo run ${DEMO_RETRIEVAL_RUN} ended ${status}`);
  // dated a day back beside the other demo runs (run timestamps only, never evidence)
  const at = new Date(now.getTime() - 86_400_000 + 2 * 3_600_000);
  await db.run.update({ where: { id: DEMO_RETRIEVAL_RUN }, data: { createdAt: at, startedAt: at, finishedAt: new Date(at.getTime() + (Date.now() - started)) } });
  const data = await db.retrievalQueryResult.findMany({ where: { runId: DEMO_RETRIEVAL_RUN }, distinct: ['queryId'], select: { queryId: true } });
  return { blueprintId: demoRetrievalBlueprintId, runId: DEMO_RETRIEVAL_RUN, models: parsed.blueprint.retrieval.models.map((m) => m.id), queryIds: data.map((d) => d.queryId).sort() };
}
