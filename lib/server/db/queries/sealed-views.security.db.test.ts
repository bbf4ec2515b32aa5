/**
 * Issue 11, finding 3, on every view: for each spelling of `split: test` the parser accepts,
 * a blueprint is stored and run against the fake LLM (whose replies echo the prompt, so the
 * sealed prompts' replies carry "SECRET" too), and every query a page or route calls (blueprint
 * page and source route, run header/heatmap/points/model/prompt/point pages, diff, search,
 * model profile, leaderboard, recent runs, progress API) returns nothing of a sealed prompt:
 * no id, text, point, reply or verdict.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { SEALED_SPELLINGS } from '../../blueprints/sealed-spellings.testkit';
import { executeRun } from '../../runs/engine/execute-run';
import { requestRun } from '../../runs/request-run';
import { fakeDeps, noDispatch, storeBlueprint } from '../../runs/runs.testkit';
import { freshDatabase, type TestDatabase } from '../db.testkit';
import { getBlueprintDetail } from './blueprint-detail';
import { listBlueprints } from './blueprint-list';
import { getBlueprintRuns } from './blueprint-runs';
import { getBlueprintSource } from './blueprint-source';
import { getLeaderboardRows } from './leaderboard';
import { getModelProfile } from './model-profile';
import { listRecentRuns } from './recent-runs';
import { getRunDiff } from './run-diff';
import { getRunHeader } from './run-header';
import { getHeatmapPage } from './run-heatmap';
import { getRunModelErrors, getRunModelPrompts, getRunModelSummary } from './run-model';
import { getRunPointsPage } from './run-points';
import { getRunProgress } from './run-progress';
import { getPointVerdicts, getPromptReplies, getRunPrompt, getVisiblePrompt } from './run-prompt';
import { getRunRanking } from './run-ranking';
import { searchPrompts, searchReplies } from './search';

let t: TestDatabase;
let fake: FakeLlm;
const MODEL = 'openai:model-1';
const runs: { name: string; blueprintId: string; runId: string; versionId: string }[] = [];

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm();
  const deps = await fakeDeps(t.db, fake.url, { sandbox: false });
  for (const s of SEALED_SPELLINGS) {
    const { blueprintId } = await storeBlueprint(t.db, s.file, s.text);
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', models: [MODEL] }, noDispatch, { judges: [], defaultCollection: 'CORE', judgeSamples: 1 });
    const status = await executeRun(deps, runId);
    const { error } = await t.db.run.findUniqueOrThrow({ where: { id: runId }, select: { error: true } });
    expect(status, `${s.name}: ${error}`).toBe('completed');
    const { versionId } = await t.db.run.findUniqueOrThrow({ where: { id: runId }, select: { versionId: true } });
    runs.push({ name: s.name, blueprintId, runId, versionId });
  }
}, 240_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

describe(`sealed prompts on every view (${process.env.ASSAY_TEST_DB})`, () => {
  it('the sealed prompts were run and their replies carry the secret (so hiding them is a real test)', async () => {
    for (const r of runs) {
      const sealed = await t.db.versionPrompt.findMany({ where: { versionId: r.versionId, split: 'test' }, select: { promptKey: true } });
      expect(sealed.length, r.name).toBe(SEALED_SPELLINGS.find((s) => s.name === r.name)!.sealed);
      const replies = await t.db.reply.findMany({ where: { runId: r.runId, promptKey: { in: sealed.map((p) => p.promptKey) } }, select: { content: true } });
      expect(replies.length, r.name).toBe(sealed.length);
      expect(replies.every((x) => x.content.includes('SECRET')), r.name).toBe(true);
    }
  });

  it.each(SEALED_SPELLINGS.map((s) => s.name))('%s: no query a page or route calls returns a sealed prompt', async (name) => {
    const r = runs.find((x) => x.name === name)!;
    const run = { id: r.runId, versionId: r.versionId };
    const sealedKeys = (await t.db.versionPrompt.findMany({ where: { versionId: r.versionId, split: 'test' }, select: { promptKey: true } })).map((p) => p.promptKey);
    const shown: Record<string, unknown> = {
      source: await getBlueprintSource(t.db, r.blueprintId),
      detail: await getBlueprintDetail(t.db, r.blueprintId),
      list: await listBlueprints(t.db),
      blueprintRuns: await getBlueprintRuns(t.db, r.blueprintId),
      header: await getRunHeader(t.db, r.runId),
      heatmap: await Promise.all((['position', 'hardest', 'easiest'] as const).map((sort) => getHeatmapPage(t.db, run, { page: 1, pageSize: 50, sort }))),
      points: await getRunPointsPage(t.db, run, { page: 1, pageSize: 50 }),
      modelSummary: await getRunModelSummary(t.db, r.runId, MODEL),
      modelPrompts: await Promise.all((['position', 'weakest', 'strongest'] as const).map((sort) => getRunModelPrompts(t.db, run, MODEL, { page: 1, pageSize: 50, sort }))),
      modelErrors: await getRunModelErrors(t.db, run, MODEL),
      ranking: await getRunRanking(t.db, r.runId),
      progress: await getRunProgress(t.db, r.runId),
      diff: await getRunDiff(t.db, run, run),
      searchPrompts: await searchPrompts(t.db, 'SECRET', { limit: 50, offset: 0 }),
      searchReplies: await searchReplies(t.db, 'SECRET', { limit: 50, offset: 0 }),
      model: await getModelProfile(t.db, MODEL),
      leaderboard: await getLeaderboardRows(t.db),
      recent: await listRecentRuns(t.db, 50),
      sealedPrompt: await Promise.all(
        sealedKeys.map(async (key) => [
          await getVisiblePrompt(t.db, r.versionId, key),
          await getRunPrompt(t.db, run, key),
          await getPromptReplies(t.db, run, key, [MODEL]),
          await getPointVerdicts(t.db, run, key, 0),
        ]),
      ),
    };
    // The visible prompt is there (the views work), the sealed ones are not.
    expect(JSON.stringify(shown.detail)).toContain('OPEN-visible question');
    expect(JSON.stringify(shown.heatmap)).toContain('OPEN-1');
    for (const [view, value] of Object.entries(shown)) {
      expect(JSON.stringify(value) ?? '', `${name}: ${view}`).not.toMatch(/SECRET/);
    }
  });
});
