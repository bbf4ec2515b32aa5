/**
 * The judge-reliability queries on verdicts the pipeline wrote (the demo seed: two judges,
 * `openai:gpt-4.1-mini#standard` and `openrouter:qwen/qwen-2.5-72b-instruct#prompt-aware`,
 * answering through the fake provider), on PostgreSQL and PGlite: the narrowed reads agree
 * with the full stored records, the writer stores no α on a verdict (over one reply α is not
 * defined), the run's α is pooled over its whole matrix with its units and pairs, and the
 * leaderboard's sums in SQL give what the loaded verdicts give.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '@/generated/prisma/client';
import { ALPHA_MIN_UNITS, judgeReliability, krippendorffAlpha, StoredJudgeStatsSchema, StoredJudgesSchema, StoredRunJudgeReliabilitySchema } from '@/lib/core';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../db.testkit';
import { exactJson } from '../exact-json';
import { seedDemo, type SeededDemo } from '../seed/seed-demo';
import { computeRunJudgeReliability, getJudgedVerdicts, getModelJudgeReliability, getPooledJudgeReliability, getRunJudgeReliability } from './judge-reliability';
import { getLeaderboardRows } from './leaderboard';

let t: TestDatabase;
let demo: SeededDemo;
let fake: FakeLlm;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm();
  demo = await seedDemo(t.db, { url: fake.url, setRules: (rules) => fake.setRules(rules) }, { now: new Date('2026-11-30T12:00:00Z') });
}, 240_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

const latestRun = () => demo.everyday.runIds.at(-1)!;
/** Every number in a JSON-like value to 12 significant digits. */
const roundDeep = (v: unknown): unknown =>
  typeof v === 'number' ? Number(v.toPrecision(12)) : Array.isArray(v) ? v.map(roundDeep) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, roundDeep(x)])) : v;
const JUDGES = ['openai:gpt-4.1-mini#standard', 'openrouter:qwen/qwen-2.5-72b-instruct#prompt-aware'];

describe(`judge reliability queries (${process.env.ASSAY_TEST_DB})`, () => {
  it('reads every judged verdict of a run with each judge’s value, as the full stored records say', async () => {
    const runId = latestRun();
    const full = await t.db.verdict.findMany({ where: { runId, kind: { in: ['text', 'question'] } }, select: { modelId: true, judges: true, disagreement: true } });
    const withPanel = full.filter((v) => v.judges !== null);
    expect(withPanel.length).toBeGreaterThan(20);
    const read = await getJudgedVerdicts(t.db, runId);
    expect(read).toHaveLength(withPanel.length);
    const values = (vs: { judges: readonly { score: number | null }[] }[]) => vs.flatMap((v) => v.judges.map((j) => j.score)).sort();
    expect(values(read)).toEqual(values(withPanel.map((v) => ({ judges: StoredJudgesSchema.parse(v.judges) }))));
    expect(new Set(read.flatMap((v) => v.judges.map((j) => `${j.judge}#${j.approach}`)))).toEqual(new Set(JUDGES));
  });

  it('stores the panel’s spread on each judged verdict, and nowhere an α of one verdict (over one reply α is not defined)', async () => {
    const runId = latestRun();
    const judged = (await t.db.verdict.findMany({ where: { runId, kind: { in: ['text', 'question'] } }, select: { judges: true, spread: true } })).filter((v) => v.judges !== null);
    expect(judged.length).toBeGreaterThan(20);
    expect(judged.filter((v) => v.spread !== null).length).toBeGreaterThan(20);
    // the verdicts table has no column for one (dropped: it was never written)
    const columns = await t.db.$queryRaw<{ column_name: string }[]>`SELECT column_name::text AS column_name FROM information_schema.columns WHERE table_name = 'verdicts'`;
    expect(columns.map((c) => c.column_name)).toContain('spread');
    expect(columns.map((c) => c.column_name)).not.toContain('alpha');
  });

  it('summarises the run (pooled α, not the mean of the replies’ αs) and each model, with coverage and self-judging', async () => {
    const runId = latestRun();
    const r = await getRunJudgeReliability(t.db, runId);
    const read = await getJudgedVerdicts(t.db, runId);
    expect(r.run.verdicts).toBe(read.length);
    expect(r.run.pairable).toBeGreaterThan(0);
    // the pooled α is Krippendorff's over the whole matrix of the run
    const matrix = read.map((v) => JUDGES.map((id) => v.judges.find((j) => `${j.judge}#${j.approach}` === id)?.score ?? null));
    const expected = krippendorffAlpha(matrix);
    expect(r.run.pairable).toBeGreaterThanOrEqual(ALPHA_MIN_UNITS);
    expect(r.run.alpha).toMatchObject({ kind: 'alpha', units: r.run.pairable, values: expected.values, pairs: expected.pairs });
    expect(r.run.alpha.kind === 'alpha' && expected.kind === 'alpha' && r.run.alpha.value - expected.value).toBeCloseTo(0, 10);
    expect(r.run.alpha.kind === 'alpha' && r.run.alpha.value).toBeGreaterThan(0.8); // the demo's judges read the same evidence
    expect(r.run.judges.map((j) => j.id)).toEqual(JUDGES);
    for (const j of r.run.judges) {
      expect(j.assessments).toBeGreaterThan(0);
      expect(j.meanAbsDeviation!).toBeGreaterThan(0); // 0.82 vs 0.66 on the same label: never quite equal
      expect(j.meanAbsDeviation!).toBeLessThan(0.25);
    }
    expect(r.run.disagreementShare).toBe(0);

    // every model of the run, each its own pooled figure
    expect(r.byModel.map((m) => m.modelId)).toEqual([...demo.everyday.models].sort());
    expect(r.byModel.reduce((s, m) => s + m.reliability.verdicts, 0)).toBe(r.run.verdicts);
    const mini = r.byModel.find((m) => m.modelId === 'openai:gpt-4o-mini')!.reliability;
    expect(mini).toEqual(await getModelJudgeReliability(t.db, runId, 'openai:gpt-4o-mini'));
    // gpt-4.1-mini is an OpenAI judge: same family as gpt-4o-mini and gpt-4o, not the others
    expect(mini.selfJudging).toEqual([{ judge: JUDGES[0], modelId: 'openai:gpt-4o-mini', kind: 'same-family' }]);
    expect(r.run.selfJudging.map((s) => s.modelId).sort()).toEqual(['openai:gpt-4o-mini', 'openrouter:openai/gpt-4o']);
  });

  it('a finished run stores its judge reliability when summarised, exactly what its verdicts give; the pages read the stored figures', async () => {
    const runId = latestRun();
    const row = await t.db.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true, judgeReliability: true } });
    expect(row.status).toBe('completed');
    const computed = await computeRunJudgeReliability(t.db, runId);
    expect(computed.run.pairable).toBeGreaterThan(20);
    // equal to 12 significant digits: a JSON column comes back from Prisma with at most 16 (0.15750000000000003 as 0.1575)
    expect(roundDeep(StoredRunJudgeReliabilitySchema.parse(row.judgeReliability))).toEqual(roundDeep(computed));
    expect(roundDeep(await getRunJudgeReliability(t.db, runId))).toEqual(roundDeep(computed));
    const model = computed.byModel[0]!;
    expect(roundDeep(await getModelJudgeReliability(t.db, runId, model.modelId))).toEqual(roundDeep(model.reliability));
    // read, not computed again: a stored figure (here altered on purpose) is what every reader gets
    const altered = { ...computed, run: { ...computed.run, disagreements: computed.run.disagreements + 1000 } };
    await t.db.run.update({ where: { id: runId }, data: { judgeReliability: StoredRunJudgeReliabilitySchema.parse(altered) } });
    try {
      expect((await getRunJudgeReliability(t.db, runId)).run.disagreements).toBe(computed.run.disagreements + 1000);
      expect(await getModelJudgeReliability(t.db, runId, 'openai:no-such-model')).toEqual(judgeReliability([]));
    } finally {
      await t.db.run.update({ where: { id: runId }, data: { judgeReliability: row.judgeReliability ?? Prisma.DbNull } });
    }
  });

  it('pools each model over the leaderboard’s runs from sums in SQL, exactly as over the loaded verdicts', async () => {
    const rows = await getLeaderboardRows(t.db);
    const pairs = rows.map((r) => ({ runId: r.runId, modelId: r.modelId }));
    expect(new Set(pairs.map((p) => p.runId)).size).toBeGreaterThanOrEqual(4); // one latest run per demo blueprint
    const pooled = await getPooledJudgeReliability(t.db, pairs);
    expect(pooled.map((p) => p.modelId)).toEqual([...new Set(pairs.map((p) => p.modelId))].sort());
    for (const p of pooled) {
      const loaded = (await Promise.all(pairs.filter((x) => x.modelId === p.modelId).map((x) => getJudgedVerdicts(t.db, x.runId, { modelId: x.modelId })))).flat();
      const expected = judgeReliability(loaded);
      expect(p.verdicts, p.modelId).toBe(expected.verdicts);
      expect(p.pairable).toBe(expected.pairable);
      expect(p.disagreements).toBe(expected.disagreements);
      // the same kind, units, values and pairs; the same α to rounding
      expect({ ...p.alpha, value: 0 }).toEqual({ ...expected.alpha, value: 0 });
      if (p.alpha.kind === 'alpha' && expected.alpha.kind === 'alpha') expect(p.alpha.value).toBeCloseTo(expected.alpha.value, 10);
      expect(p.judges.map((j) => [j.id, j.assessments])).toEqual(expected.judges.map((j) => [j.id, j.assessments]));
    }
    expect(await getPooledJudgeReliability(t.db, [])).toEqual([]);
    // read from each pair's statistics as stored when its run was summarised: the same as summed now from the verdicts
    const stored = await t.db.runModelSummary.findMany({ where: { OR: pairs }, select: { runId: true, modelId: true, judgeStats: true } });
    expect(stored.length).toBe(new Set(pairs.map((p) => `${p.runId} ${p.modelId}`)).size);
    expect(stored.every((s) => s.judgeStats !== null)).toBe(true);
    await t.db.runModelSummary.updateMany({ where: { OR: pairs }, data: { judgeStats: Prisma.DbNull } });
    try {
      // to rounding: PostgreSQL adds a pair's floats in whichever order its plan reads them
      expect(roundDeep(await getPooledJudgeReliability(t.db, [...pairs].reverse()))).toEqual(roundDeep(pooled));
    } finally {
      // as text, as summarising writes them (Prisma's Json input keeps 16 significant digits)
      for (const s of stored) await t.db.$executeRaw`UPDATE run_model_summaries SET judge_stats = ${exactJson(StoredJudgeStatsSchema, StoredJudgeStatsSchema.parse(s.judgeStats))} WHERE run_id = ${s.runId} AND model_id = ${s.modelId}`;
    }
  });
});
