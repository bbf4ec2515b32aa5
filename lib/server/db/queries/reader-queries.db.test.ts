/**
 * The reader pages' queries on the demo (five blueprints run by the pipeline against the fake
 * provider: three + two + one + one completed runs, a live run, a sealed prompt, a hostile
 * reply), on PostgreSQL and PGlite: paging and ordering,
 * the drill-downs, full-text search through its GIN indexes, and that nothing of a sealed
 * prompt (text, key, reply or verdict) comes out of any query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driftDifference, planBlueprint } from '@/lib/core';
import { Prisma } from '@/generated/prisma/client';
import { freshDatabase, type TestDatabase } from '../db.testkit';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { DEMO_LIVE_RUN, seedDemo, startDemoLiveRun, type DemoProvider, type SeededDemo } from '../seed/seed-demo';
import { getBlueprintDetail } from './blueprint-detail';
import { getBlueprintPlan, runPromptResults } from './blueprint-plan';
import { getBlueprintRuns } from './blueprint-runs';
import { getBlueprintSource } from './blueprint-source';
import { getLeaderboardRows } from './leaderboard';
import { getModelProfile } from './model-profile';
import { listRecentRuns } from './recent-runs';
import { computeRunDiff, getRunDiff } from './run-diff';
import { getRunHeader } from './run-header';
import { getHeatmapPage, hasPromptSummaries } from './run-heatmap';
import { forgetFinishedFigures } from '../commands/finished-figures';
import { writePromptSummaries } from '../commands/prompt-summaries';
import { getRunModelErrors, getRunModelPrompts, getRunModelSummary } from './run-model';
import { getRunPointsPage } from './run-points';
import { getRunProgress } from './run-progress';
import { getPointVerdicts, getPromptReplies, getRunPrompt } from './run-prompt';
import { getRunRanking } from './run-ranking';
import { searchPrompts, searchReplies } from './search';

let t: TestDatabase;
let demo: SeededDemo;
let fake: FakeLlm;
const NOW = new Date('2026-11-30T12:00:00Z');
/** Every sealed prompt's text, point and reply in the seed carries this marker. */
const SEALED = /SEALED|sealed-holdout/;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm();
  const provider: DemoProvider = { url: fake.url, setRules: (rules) => fake.setRules(rules) };
  demo = await seedDemo(t.db, provider, { now: NOW });
  await startDemoLiveRun(t.db, provider);
}, 180_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

const latest = () => {
  const id = demo.everyday.runIds.at(-1) as string;
  return { id, versionId: demo.everyday.versionId };
};
const HOSTILE = { promptKey: 'markdown-planets-table', modelId: 'openrouter:meta-llama/llama-3.1-70b-instruct' };

describe(`the demo seed (${process.env.ASSAY_TEST_DB})`, () => {
  it('writes complete runs whose summaries agree with their rows', async () => {
    const { everyday } = demo;
    expect(everyday.runIds).toHaveLength(3);
    expect(everyday.sealedKeys).toEqual(['sealed-holdout-river']);
    const run = await t.db.run.findUniqueOrThrow({ where: { id: latest().id } });
    expect(run).toMatchObject({ status: 'completed', totalCalls: 13 * 5, doneCalls: 13 * 5 });
    expect(await t.db.verdict.count({ where: { runId: run.id } })).toBe(run.doneVerdicts);
    expect(await t.db.runCellSummary.count({ where: { runId: run.id } })).toBe(13 * 5);
    const summaries = await t.db.runModelSummary.findMany({ where: { runId: run.id } });
    expect(summaries).toHaveLength(5);
    for (const s of summaries) {
      expect(s.promptCount).toBe(13);
      expect(s.score).toBeGreaterThan(0);
      expect(s.ciLow).toBeLessThanOrEqual(s.score as number);
      expect(s.ciHigh).toBeGreaterThanOrEqual(s.score as number);
    }
    // the leaderboard reads the latest completed run of each blueprint
    const board = await t.db.blueprintModelSummary.findMany({ where: { blueprintId: everyday.blueprintId } });
    expect(new Set(board.map((b) => b.runId))).toEqual(new Set([run.id]));
  });
});

describe(`reader queries (${process.env.ASSAY_TEST_DB})`, () => {
  it('pages the heatmap by position or difficulty, never listing sealed prompts', async () => {
    const page1 = await getHeatmapPage(t.db, latest(), { page: 1, pageSize: 5, sort: 'position' });
    expect(page1.total).toBe(12);
    expect(page1.sealedCount).toBe(1);
    expect(page1.prompts.map((p) => p.position)).toEqual([0, 1, 3, 4, 5]);
    expect(page1.cells).toHaveLength(5 * 5);
    const page3 = await getHeatmapPage(t.db, latest(), { page: 3, pageSize: 5, sort: 'position' });
    expect(page3.prompts).toHaveLength(2);
    const past = await getHeatmapPage(t.db, latest(), { page: 9, pageSize: 5, sort: 'position' });
    expect(past).toMatchObject({ prompts: [], total: 12 });
    const hardest = await getHeatmapPage(t.db, latest(), { page: 1, pageSize: 12, sort: 'hardest' });
    const mean = (key: string) => {
      const s = hardest.cells.filter((c) => c.promptKey === key && c.score !== null).map((c) => c.score as number);
      return s.reduce((a, b) => a + b, 0) / s.length;
    };
    const means = hardest.prompts.map((p) => mean(p.promptKey));
    expect(means).toEqual([...means].sort((a, b) => a - b));
    expect(JSON.stringify([page1, page3, hardest])).not.toMatch(SEALED);
  });

  it('pages a finished run from its stored prompt rows, as its cells give them; a running run from its cells', async () => {
    const run = latest();
    expect(await hasPromptSummaries(t.db, run.id)).toBe(true);
    expect(await hasPromptSummaries(t.db, DEMO_LIVE_RUN)).toBe(false);
    const pages = () =>
      Promise.all([
        ...(['position', 'hardest', 'easiest'] as const).flatMap((sort) => [1, 2, 3, 4].map((page) => getHeatmapPage(t.db, run, { page, pageSize: 4, sort }))),
        getRunPointsPage(t.db, run, { page: 2, pageSize: 3 }),
      ]);
    const stored = await pages();
    // the same pages computed from the cells, as for a run whose rows are not written
    await t.db.runPromptSummary.deleteMany({ where: { runId: run.id } });
    expect(await hasPromptSummaries(t.db, run.id)).toBe(false);
    const live = await pages();
    await writePromptSummaries(t.db, run.id);
    expect(stored).toEqual(live);
    expect(stored[0]).toMatchObject({ total: 12, sealedCount: 1 });
    expect(stored.slice(0, 4).flatMap((p) => p.prompts)).toHaveLength(12);
  });

  it('reads the planner’s answer (every pair of models) stored when the latest run finished, the one the cells give', async () => {
    const stored = (await getBlueprintPlan(t.db, demo.everyday.blueprintId))!;
    expect(stored.run?.runId).toBe(latest().id);
    const row = await t.db.run.findUniqueOrThrow({ where: { id: latest().id }, select: { planner: true, mde: true } });
    expect(row.planner).not.toBeNull();
    const computed = planBlueprint(await runPromptResults(t.db, latest().id));
    // as stored: Prisma keeps 16 significant digits of a float (see summarise.ts)
    const rounded = (x: unknown) => JSON.parse(JSON.stringify(x, (_k, v: unknown) => (typeof v === 'number' ? Number(v.toPrecision(15)) : v))) as unknown;
    expect(rounded(stored.plan)).toEqual(rounded(computed));
    expect(stored.plan?.pairs.length).toBe(10); // five models
    expect(stored.runMde).toBe(row.mde);
    expect(stored.plan?.mde).toBe(row.mde);
    // other options than the defaults are computed from the cells, exactly
    expect((await getBlueprintPlan(t.db, demo.everyday.blueprintId, { alpha: 0.01 }))!.plan).toEqual(planBlueprint(await runPromptResults(t.db, latest().id), { alpha: 0.01 }));
  });

  it('stores the comparison of a finished run with the one before it when it finishes, and forgets both when a run is resumed', async () => {
    const [, a, b] = demo.everyday.runIds as [string, string, string];
    const versionId = demo.everyday.versionId;
    const row = await t.db.runDiff.findUnique({ where: { olderRunId_newerRunId: { olderRunId: a, newerRunId: b } } });
    expect(row).not.toBeNull();
    expect(await getRunDiff(t.db, { id: a, versionId }, { id: b, versionId })).toEqual(await computeRunDiff(t.db, { id: a, versionId }, { id: b, versionId }));
    expect(await t.db.runModelSummary.count({ where: { runId: b, judgeStats: { not: Prisma.DbNull } } })).toBeGreaterThan(0);
    await forgetFinishedFigures(t.db, b);
    expect(await t.db.runDiff.count({ where: { OR: [{ olderRunId: b }, { newerRunId: b }] } })).toBe(0);
    expect(await hasPromptSummaries(t.db, b)).toBe(false);
    // and every figure stored on the run and its models, so a resumed run's pages compute from its cells
    expect(await t.db.runModelSummary.count({ where: { runId: b, judgeStats: { not: Prisma.DbNull } } })).toBe(0);
    expect(await t.db.run.findUniqueOrThrow({ where: { id: b }, select: { planner: true, groups: true, judgeReliability: true, unpricedModels: true } })).toEqual({
      planner: null,
      groups: null,
      judgeReliability: null,
      unpricedModels: null,
    });
    await writePromptSummaries(t.db, b);
    // a pair first read once both runs are finished is stored then
    await getRunDiff(t.db, { id: a, versionId }, { id: b, versionId });
    expect(await t.db.runDiff.count({ where: { olderRunId: a, newerRunId: b } })).toBe(1);
  });

  it('reads a prompt, its grid, replies and one point; a sealed prompt reads as missing', async () => {
    const run = latest();
    const p = await getRunPrompt(t.db, run, 'paracetamol-max-dose');
    expect(p?.prompt.pointCount).toBe(5);
    expect(p?.cells).toHaveLength(5);
    expect(p?.previousKey).toBeNull();
    expect(p?.nextKey).toBe('ibuprofen-with-asthma');
    const replies = await getPromptReplies(t.db, run, 'paracetamol-max-dose', demo.everyday.models.slice(0, 2));
    expect(new Set(replies.map((r) => r.modelId))).toEqual(new Set(demo.everyday.models.slice(0, 2)));
    const ok = replies.find((r) => !r.error);
    expect(ok?.verdicts.map((v) => v.pointIndex)).toEqual([0, 1, 2, 3, 4]);
    expect(ok?.attemptScores).toHaveLength(1);
    const point = await getPointVerdicts(t.db, run, 'paracetamol-max-dose', 0);
    expect(point.every((v) => v.pointIndex === 0)).toBe(true);
    const sealed = demo.everyday.sealedKeys[0] as string;
    expect(await getRunPrompt(t.db, run, sealed)).toBeNull();
    expect(await getPromptReplies(t.db, run, sealed, demo.everyday.models)).toEqual([]);
    expect(await getPointVerdicts(t.db, run, sealed, 0)).toEqual([]);
    expect(await getRunPrompt(t.db, run, 'no-such-prompt')).toBeNull();
  });

  it('keeps the hostile reply verbatim (the page renders it inert)', async () => {
    const [reply] = await getPromptReplies(t.db, latest(), HOSTILE.promptKey, [HOSTILE.modelId]);
    expect(reply?.content).toContain('<script>');
  });

  it('ranks a run’s models and reads one model: prompts weakest first, errors, sealed only in aggregate', async () => {
    const run = latest();
    const ranking = await getRunRanking(t.db, run.id);
    expect(ranking).toHaveLength(5);
    expect(ranking.map((r) => r.score)).toEqual([...ranking.map((r) => r.score)].sort((a, b) => (b ?? -1) - (a ?? -1)));
    const modelId = ranking[0]?.modelId as string;
    const summary = await getRunModelSummary(t.db, run.id, modelId);
    expect(summary).toMatchObject({ rank: 1, models: 5 });
    expect(await getRunModelSummary(t.db, run.id, 'nobody:none')).toBeNull();
    const prompts = await getRunModelPrompts(t.db, run, modelId, { page: 1, pageSize: 50, sort: 'weakest' });
    expect(prompts.total).toBe(12);
    expect(prompts.sealed.count).toBe(1);
    expect(prompts.sealed.mean).not.toBeNull();
    const scores = prompts.rows.map((r) => r.score ?? -1);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
    const errors = await Promise.all(demo.everyday.models.map((m) => getRunModelErrors(t.db, run, m)));
    expect(JSON.stringify([prompts, errors])).not.toMatch(SEALED);
  });

  it('lists the run’s points a page of prompts at a time', async () => {
    const pts = await getRunPointsPage(t.db, latest(), { page: 1, pageSize: 3 });
    expect(pts.total).toBe(12);
    expect(pts.prompts).toHaveLength(3);
    // paracetamol-max-dose 5 points, ibuprofen-with-asthma 3, capital-of-australia 3 (the sealed prompt between them is not listed)
    expect(pts.points).toHaveLength(5 + 3 + 3);
    const first = pts.points.find((p) => p.promptKey === 'paracetamol-max-dose' && p.pointIndex === 0);
    expect(first).toMatchObject({ verdicts: expect.any(Number), kind: 'text' });
    expect((first?.min ?? 0) <= (first?.mean ?? 0) && (first?.mean ?? 0) <= (first?.max ?? 1)).toBe(true);
  });

  it('diffs two runs of one blueprint by model, listing visible cells only', async () => {
    const [a, , b] = demo.everyday.runIds as [string, string, string];
    const diff = await computeRunDiff(t.db, { id: a, versionId: demo.everyday.versionId }, { id: b, versionId: demo.everyday.versionId }, 100);
    expect(diff.models).toHaveLength(5);
    for (const m of diff.models) {
      expect(m.better + m.worse + m.same).toBe(m.paired);
      expect(m.paired).toBeGreaterThan(10);
    }
    const deltas = diff.cells.map((c) => Math.abs(c.delta));
    expect(deltas).toEqual([...deltas].sort((x, y) => y - x));
    // a cell that did not move is counted, not listed as a change of ±0.0
    expect(deltas.every((d) => d > 1e-9)).toBe(true);
    expect(diff.unchangedCells).toBeGreaterThan(0);
    expect(diff.cells.some((c) => SEALED.test(c.promptKey))).toBe(false);
  });

  it('gives each model’s change between two scheduled runs as the drift check does (weighted), and each run’s stored score', async () => {
    const [, a, b] = demo.everyday.runIds as [string, string, string];
    const versionId = demo.everyday.versionId;
    const diff = await getRunDiff(t.db, { id: a, versionId }, { id: b, versionId });
    const checks = await t.db.driftCheck.findMany({ where: { fromRunId: a, toRunId: b } });
    expect(checks).toHaveLength(5);
    const [before, after] = await Promise.all([runPromptResults(t.db, a), runPromptResults(t.db, b)]);
    const summaries = await t.db.runModelSummary.findMany({ where: { runId: { in: [a, b] } } });
    let plainDiffers = false;
    for (const c of checks) {
      const m = diff.models.find((x) => x.modelId === c.modelId)!;
      expect(m).toMatchObject({ difference: c.difference, paired: c.paired, fromDriftCheck: true });
      // the stored figure is the one function's over the two runs' weighted prompt results
      const d = driftDifference(before.find((x) => x.modelId === c.modelId)!.prompts, after.find((x) => x.modelId === c.modelId)!.prompts);
      expect(d.difference!).toBeCloseTo(c.difference!, 12);
      // the plain mean of the paired cells is another number wherever a weighted prompt moved
      const cells = await t.db.runCellSummary.findMany({ where: { runId: { in: [a, b] }, modelId: c.modelId }, select: { runId: true, promptKey: true, score: true } });
      const was = new Map(cells.filter((x) => x.runId === a && x.score !== null).map((x) => [x.promptKey, x.score!]));
      const moves = cells.filter((x) => x.runId === b && x.score !== null && was.has(x.promptKey)).map((x) => x.score! - was.get(x.promptKey)!);
      if (Math.abs(moves.reduce((s, x) => s + x, 0) / moves.length - c.difference!) > 1e-6) plainDiffers = true;
      expect(m.olderScore).toBe(summaries.find((s) => s.runId === a && s.modelId === c.modelId)!.score);
      expect(m.newerScore).toBe(summaries.find((s) => s.runId === b && s.modelId === c.modelId)!.score);
    }
    expect(plainDiffers).toBe(true);
    // two runs without a drift check between them (the first is a manual run): the same function, not stored
    const first = demo.everyday.runIds[0] as string;
    const unchecked = await getRunDiff(t.db, { id: first, versionId }, { id: b, versionId });
    const earliest = await runPromptResults(t.db, first);
    for (const m of unchecked.models) {
      expect(m.fromDriftCheck).toBe(false);
      expect(m.difference).toBe(driftDifference(earliest.find((x) => x.modelId === m.modelId)!.prompts, after.find((x) => x.modelId === m.modelId)!.prompts).difference);
    }
  });

  it('reads leaderboards, recent runs, a blueprint’s runs and a model’s profile', async () => {
    const rows = await getLeaderboardRows(t.db);
    // five models on the everyday, support, tool and repeated blueprints, four on the coding one
    expect(rows).toHaveLength(5 + 5 + 4 + 5 + 5);
    expect(rows.find((r) => r.blueprintId === demo.coding.blueprintId)?.tags).toEqual(['coding', 'structured-output']);
    const recent = await listRecentRuns(t.db, 3);
    expect(recent[0]?.id).toBe(DEMO_LIVE_RUN);
    const runs = await getBlueprintRuns(t.db, demo.everyday.blueprintId);
    expect(runs.runs.map((r) => r.status)).toEqual(['running', 'completed', 'completed', 'completed']);
    expect(runs.latestCompletedRunId).toBe(latest().id);
    expect(runs.scores).toHaveLength(15);
    const model = demo.everyday.models[2] as string;
    const profile = await getModelProfile(t.db, model);
    // 3 everyday + 2 coding + 1 support + 1 tool + 1 repeated runs
    expect(profile?.history).toHaveLength(8);
    expect(profile?.scores.filter((s) => s.modelId === model)).toHaveLength(5);
    expect(await getModelProfile(t.db, 'nobody:none')).toBeNull();
    const live = await getRunProgress(t.db, DEMO_LIVE_RUN);
    expect(live).toMatchObject({ status: 'running' });
    expect(live && live.doneCalls < live.totalCalls).toBe(true);
    const header = await getRunHeader(t.db, latest().id);
    expect(header?.siblings.map((s) => s.id)).toEqual(demo.everyday.runIds.slice(0, 2).reverse());
  });

  it('shows the blueprint and its source without sealed prompts', async () => {
    const d = await getBlueprintDetail(t.db, demo.everyday.blueprintId, { promptPage: 1, promptPageSize: 50 });
    expect(d).toMatchObject({ visibleCount: 12, sealedCount: 1 });
    expect(d?.latestVersion?.prompts).toHaveLength(12);
    const page2 = await getBlueprintDetail(t.db, demo.everyday.blueprintId, { promptPage: 2, promptPageSize: 10 });
    expect(page2?.latestVersion?.prompts.map((p) => p.position)).toEqual([11, 12]);
    const source = await getBlueprintSource(t.db, demo.everyday.blueprintId);
    expect(source?.text).toContain('paracetamol');
    expect(source?.text).toContain('sealed test prompt');
    expect(JSON.stringify([d, page2, source])).not.toMatch(SEALED);
  });
});

describe(`full-text search (${process.env.ASSAY_TEST_DB})`, () => {
  it('finds replies and prompts, newest runs first, with marked snippets', async () => {
    const replies = await searchReplies(t.db, 'Canberra', { limit: 5, offset: 0 });
    expect(replies.total).toBeGreaterThan(0);
    expect(replies.hits[0]?.snippet).toMatch(/\u27e6Canberra\u27e7/);
    const dates = replies.hits.map((h) => h.runCreatedAt.getTime());
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    // every hit once, page after page: each run's matches are read up to the page's end, in one order
    const all = await searchReplies(t.db, 'Canberra', { limit: 200, offset: 0 });
    expect(all.hits.length).toBe(Math.min(all.total, 200));
    expect(all.hits.length).toBeGreaterThan(4);
    const paged: typeof all.hits = [];
    for (let offset = 0; offset < all.hits.length; offset += 3) paged.push(...(await searchReplies(t.db, 'Canberra', { limit: 3, offset })).hits);
    const key = (h: (typeof all.hits)[number]) => `${h.runId} ${h.promptKey} ${h.modelId}`;
    expect(paged.map(key)).toEqual(all.hits.map(key));
    expect(new Set(all.hits.map((h) => h.runId)).size).toBeGreaterThan(1);
    const prompts = await searchPrompts(t.db, 'paracetamol', { limit: 5, offset: 0 });
    // the hit opens the blueprint's latest completed run, not the live one
    expect(prompts.hits.map((h) => [h.blueprintId, h.promptKey, h.runId])).toEqual([[demo.everyday.blueprintId, 'paracetamol-max-dose', latest().id]]);
    const phrase = await searchPrompts(t.db, '"capital of Australia" -sydney', { limit: 5, offset: 0 });
    // the everyday blueprint's prompt and the repeated blueprint's (same question, asked four times)
    expect(phrase.hits.map((h) => [h.blueprintId, h.promptKey]).sort()).toEqual([[demo.everyday.blueprintId, 'capital-of-australia'], [demo.repeated.blueprintId, 'capital-of-australia']].sort());
    expect((await searchPrompts(t.db, '"Australia capital"', { limit: 5, offset: 0 })).total).toBe(0);
  });

  it('never finds a sealed prompt or its replies, and survives any query text', async () => {
    for (const q of ['SEALED', 'sealed-answer', 'holdout', 'river']) {
      expect((await searchReplies(t.db, q, { limit: 5, offset: 0 })).total, q).toBe(0);
      expect((await searchPrompts(t.db, q, { limit: 5, offset: 0 })).total, q).toBe(0);
    }
    for (const q of ["'); DROP TABLE replies; --", '&&||!!', '"', ':*', '']) {
      await expect(searchReplies(t.db, q, { limit: 5, offset: 0 })).resolves.toBeDefined();
    }
    expect(await t.db.reply.count()).toBeGreaterThan(0);
  });

  it('answers through the GIN indexes of the search migration', async () => {
    const plan = async (sql: string) => {
      const rows = await t.db.$transaction(async (tx) => {
        await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
        return tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${sql}`);
      });
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    };
    expect(await plan(`SELECT id FROM replies WHERE to_tsvector('simple', content) @@ websearch_to_tsquery('simple', 'canberra')`)).toMatch(/replies_content_fts_idx/);
    expect(await plan(`SELECT id FROM version_prompts WHERE jsonb_to_tsvector('simple', messages, '["string"]') @@ websearch_to_tsquery('simple', 'canberra')`)).toMatch(
      /version_prompts_messages_fts_idx/,
    );
  });
});
