/**
 * The figures made from people's labels, made again whenever labels change and stored in
 * `human_figures` (lib/core HumanFiguresSchema), so every page reads one stored value: per
 * blueprint the judges' calibration and the prediction-powered model scores, the same over every
 * blueprint together ('all'), and the Bradley–Terry ranking from pair preferences ('pairs'). Only
 * live labels count (neither undone nor removed). A key with no live label left has no row. The
 * seed is fixed, so the same labels always give the same figures.
 */
import {
  calibrationFigures,
  humanFiguresKey,
  HumanFiguresSchema,
  parseStored,
  parseStoredOrNull,
  pairwiseFigures,
  StoredDistributionSchema,
  StoredJudgesSchema,
  type HumanFigures,
  type LabelledVerdict,
  type PairPreference,
  type PopulationVerdict,
} from '@/lib/core';
import { Prisma } from '@/generated/prisma/client';
import type { Db } from '../db/client';
import { notSealed } from '../db/queries/sealed';
import { judgeQuestionOf, visiblePoints } from './judged-point';
import { PairAnswerSchema, preferredModel } from './preference';
import { LIVE } from './waiting';

/** The bootstrap's seed for every stored figure. */
export const HUMAN_FIGURES_SEED = 20231110;

interface ItemRow {
  blueprintId: string;
  itemId: string;
  runId: string;
  versionId: string;
  verdictId: string;
  modelId: string;
  promptKey: string;
  pointIndex: number;
  inclusion: number;
  source: string;
  distribution: unknown;
  judges: unknown;
}

/** Labelled items (one live label or more) of one blueprint, or of every blueprint (null), as the calibration reads them. */
export async function labelledVerdicts(db: Db, blueprintId: string | null): Promise<LabelledVerdict[]> {
  const only = blueprintId === null ? Prisma.empty : Prisma.sql`AND i.blueprint_id = ${blueprintId}`;
  const items = await db.$queryRaw<ItemRow[]>`
    SELECT i.blueprint_id AS "blueprintId", i.id AS "itemId", i.run_id AS "runId", r.version_id AS "versionId", i.verdict_id AS "verdictId",
           i.model_id AS "modelId", i.prompt_key AS "promptKey", i.point_index AS "pointIndex", i.inclusion, v.source, v.distribution, v.judges
    FROM review_items i JOIN verdicts v ON v.id = i.verdict_id JOIN runs r ON r.id = i.run_id
    WHERE EXISTS (SELECT 1 FROM review_labels l WHERE l.item_id = i.id AND l.action = 'label' AND ${LIVE})
      AND ${notSealed('r.version_id', 'i.prompt_key')} ${only}
    ORDER BY i.blueprint_id, i.position, i.id`;
  if (items.length === 0) return [];
  const labels = await db.$queryRaw<{ itemId: string; reviewerId: string; answer: string }[]>`
    SELECT l.item_id AS "itemId", l.reviewer_id AS "reviewerId", l.answer
    FROM review_labels l JOIN review_items i ON i.id = l.item_id
    WHERE l.action = 'label' AND l.answer IS NOT NULL AND ${LIVE} ${only}
    ORDER BY l.created_at, l.id`;
  const byItem = new Map<string, { reviewerId: string; answer: string }[]>();
  for (const l of labels) (byItem.get(l.itemId) ?? byItem.set(l.itemId, []).get(l.itemId)!).push({ reviewerId: l.reviewerId, answer: l.answer });

  const points = new Map<string, Awaited<ReturnType<typeof visiblePoints>>>();
  for (const versionId of new Set(items.map((i) => i.versionId))) {
    points.set(versionId, await visiblePoints(db, versionId, items.filter((i) => i.versionId === versionId).map((i) => i.promptKey)));
  }
  return items.flatMap((i): LabelledVerdict[] => {
    const question = judgeQuestionOf(points.get(i.versionId)?.get(i.promptKey)?.[i.pointIndex]);
    if (!question) return [];
    const judges = parseStoredOrNull(StoredJudgesSchema, i.judges, `verdicts ${i.verdictId}.judges`) ?? [];
    return [
      {
        verdictId: i.verdictId,
        modelId: i.modelId,
        runId: i.runId,
        question,
        panel: { distribution: parseStoredOrNull(StoredDistributionSchema, i.distribution, `verdicts ${i.verdictId}.distribution`) },
        judges: judges.map((j) => ({ judge: j.judge, distribution: j.distribution })),
        inverted: i.source === 'should_not',
        inclusion: i.inclusion,
        labels: byItem.get(i.itemId) ?? [],
      },
    ];
  });
}

/**
 * Every judged verdict of the runs the blueprint's items were drawn from, as the draw's frame
 * had them (a judged point with a pass or fail, a distribution and a score, outside sealed
 * prompts): the population the prediction-powered scores are means over.
 */
export async function judgedPopulation(db: Db, blueprintId: string): Promise<PopulationVerdict[]> {
  const rows = await db.$queryRaw<{ verdictId: string; modelId: string; runId: string; score: number }[]>`
    SELECT v.id AS "verdictId", v.model_id AS "modelId", v.run_id AS "runId", v.score
    FROM verdicts v JOIN runs r ON r.id = v.run_id
    WHERE v.run_id IN (SELECT DISTINCT run_id FROM review_items WHERE blueprint_id = ${blueprintId})
      AND v.kind IN ('text', 'question') AND v.status IN ('pass', 'fail')
      AND v.distribution IS NOT NULL AND v.score IS NOT NULL
      AND ${notSealed('r.version_id', 'v.prompt_key')}
    ORDER BY v.run_id, v.model_id, v.id`;
  return rows.map((r) => ({ ...r, score: Number(r.score) }));
}

/** Every live pair preference, as the Bradley–Terry fit reads it. */
export async function pairPreferences(db: Db): Promise<PairPreference[]> {
  const rows = await db.$queryRaw<{ blueprintId: string; modelA: string; modelB: string; shownFirst: string; answer: string; reviewerId: string }[]>`
    SELECT p.blueprint_id AS "blueprintId", p.model_a AS "modelA", p.model_b AS "modelB", l.shown_first AS "shownFirst", l.answer, l.reviewer_id AS "reviewerId"
    FROM pair_labels l JOIN pair_items p ON p.id = l.pair_id JOIN runs r ON r.id = p.run_id
    WHERE l.action = 'label' AND l.answer IS NOT NULL AND ${LIVE}
      AND ${notSealed('r.version_id', 'p.prompt_key')}
    ORDER BY l.created_at, l.id`;
  return rows.map((r) => ({
    blueprintId: r.blueprintId,
    modelA: r.modelA,
    modelB: r.modelB,
    preferred: preferredModel(r, r.shownFirst, parseStored(PairAnswerSchema, r.answer, `pair_labels answer of ${r.reviewerId}`)),
    reviewerId: r.reviewerId,
  }));
}

/**
 * The rubric's overall score per model: the stored overall leaderboard ('all' in board_snapshots,
 * what the home page shows), or, before any board was made, each model's mean over its blueprints.
 */
/**
 * The rubric leaderboard's scores on the blueprints the pairs came from: each model's mean
 * published score over those blueprints (one blueprint: exactly its board's scores), so people's
 * ranking is correlated with the rubric on the same models and the same blueprints.
 */
export async function rubricScores(db: Db, blueprintIds: readonly string[]): Promise<Array<{ modelId: string; score: number | null }>> {
  const rows = await db.blueprintModelSummary.groupBy({ by: ['modelId'], where: { blueprintId: { in: [...blueprintIds] } }, _avg: { score: true }, orderBy: { modelId: 'asc' } });
  return rows.map((r) => ({ modelId: r.modelId, score: r._avg.score }));
}

/**
 * What the live labels are at this moment: counts and the latest change of each kind. A recompute
 * that read the labels before another answer landed may store after the recompute that saw it;
 * comparing this before and after says so, and the figures are then made again.
 */
async function labelsStamp(db: Db): Promise<string> {
  const rows = await db.$queryRaw<Array<{ stamp: string }>>(Prisma.sql`
    SELECT concat_ws('|',
      (SELECT concat_ws('/', count(*), max(created_at), max(undone_at), max(removed_at)) FROM review_labels),
      (SELECT concat_ws('/', count(*), max(created_at), max(undone_at), max(removed_at)) FROM pair_labels)) AS stamp`);
  return rows[0]?.stamp ?? '';
}

async function store(db: Db, key: string, figures: HumanFigures | null): Promise<void> {
  if (figures === null) {
    await db.humanFigures.deleteMany({ where: { key } });
    return;
  }
  const body = HumanFiguresSchema.parse(figures) as unknown as Prisma.InputJsonValue;
  await db.humanFigures.upsert({ where: { key }, create: { key, body }, update: { body, computedAt: new Date() } });
}

interface Scheduled {
  pending: Set<string>;
  running: Promise<void> | null;
}
const scheduled = new WeakMap<Db, Scheduled>();

/**
 * Makes the figures of `blueprintIds` again, after the answer that changed them: an answer is
 * stored and answered at once, and its figures follow (at 1,000 labels a recompute takes about
 * a third of a second: `npm run bench -- human-figures`). Answers that land while a recompute
 * runs are gathered into one more round, so a quick reviewer causes one recompute per round, not
 * one per answer. Resolves when the figures of every blueprint asked for so far are made; a failure is
 * reported to the caller and the blueprints it did not finish are made in the next round.
 */
export function scheduleHumanFigures(db: Db, blueprintIds: readonly string[]): Promise<void> {
  const state = scheduled.get(db) ?? { pending: new Set<string>(), running: null };
  scheduled.set(db, state);
  for (const id of blueprintIds) state.pending.add(id);
  state.running ??= (async () => {
    try {
      while (state.pending.size > 0) {
        const round = [...state.pending];
        state.pending.clear();
        try {
          await recomputeHumanFigures(db, round);
        } catch (e) {
          for (const id of round) state.pending.add(id);
          throw e;
        }
      }
    } finally {
      state.running = null;
    }
  })();
  return state.running;
}

/** The same, for a request that has already answered: a failure is logged, and the next answer or the next start makes the figures again. */
export function scheduleHumanFiguresAfterAnswer(db: Db, blueprintIds: readonly string[]): void {
  scheduleHumanFigures(db, blueprintIds).catch((e: unknown) => console.error(`assay: the figures from people's labels could not be made again: ${e instanceof Error ? e.message : String(e)}`));
}

/** Resolves once no recompute is running or waiting for this database (tests, and the app's shutdown). */
export async function humanFiguresSettled(db: Db): Promise<void> {
  for (let state = scheduled.get(db); state?.running; state = scheduled.get(db)) await state.running.catch(() => undefined);
}

/**
 * At start: the figures of every blueprint people labelled are made again, so figures a process
 * stopped before making (it stored an answer, then ended) catch up with the labels.
 */
export async function refreshHumanFigures(db: Db): Promise<void> {
  const blueprints = await db.reviewItem.findMany({ distinct: ['blueprintId'], select: { blueprintId: true } });
  const pairs = await db.pairItem.findMany({ distinct: ['blueprintId'], select: { blueprintId: true } });
  const ids = [...new Set([...blueprints, ...pairs].map((b) => b.blueprintId))];
  if (ids.length > 0) await scheduleHumanFigures(db, ids);
}

/** Makes again the figures of `blueprintIds`, of every blueprint together, and of the pairs. */
export async function recomputeHumanFigures(db: Db, blueprintIds: readonly string[]): Promise<void> {
  // a bounded number of rounds: each round's figures are whole, and the last one made from the labels as they stand
  for (let round = 0; round < 5; round++) {
    const before = await labelsStamp(db);
    await recomputeOnce(db, blueprintIds);
    if ((await labelsStamp(db)) === before) return;
  }
}

async function recomputeOnce(db: Db, blueprintIds: readonly string[]): Promise<void> {
  for (const blueprintId of new Set(blueprintIds)) {
    const labelled = await labelledVerdicts(db, blueprintId);
    const figures = labelled.length === 0 ? null : calibrationFigures({ blueprintId, labelled, population: await judgedPopulation(db, blueprintId), seed: HUMAN_FIGURES_SEED });
    await store(db, humanFiguresKey.blueprint(blueprintId), figures);
  }
  const all = await labelledVerdicts(db, null);
  await store(db, humanFiguresKey.all, all.length === 0 ? null : calibrationFigures({ blueprintId: null, labelled: all, population: [], seed: HUMAN_FIGURES_SEED }));
  const preferences = await pairPreferences(db);
  const pairBlueprints = [...new Set(preferences.map((p) => p.blueprintId))];
  await store(db, humanFiguresKey.pairs, preferences.length === 0 ? null : pairwiseFigures({ preferences, rubric: await rubricScores(db, pairBlueprints), seed: HUMAN_FIGURES_SEED }));
}
