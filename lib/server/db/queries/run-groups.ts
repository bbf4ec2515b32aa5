/**
 * A run's scores per `category` and per `rule` of its prompts, and the per-attempt pass rate,
 * per model (soev's report; lib/core/scoring/groups.ts). For the run page, the blueprint page
 * and `assay run --json`. The intervals are seeded by the run id, so a page shows the same
 * interval on every load; a finished run's are computed once when it is summarised and stored
 * (`runs.groups`).
 */
import { xoroshiro128plus } from 'pure-rand';
import { z } from 'zod';
import { attemptPassed, hashSeed, parseStoredOrNull, passRate, PromptSchema, scoresByGroup, StoredRunGroupsSchema, type GroupedAttempt, type GroupScore, type PassRate } from '@/lib/core';
import type { Db } from '../client';

export interface RunGroups {
  runId: string;
  models: { model: string; pass: PassRate; byCategory: GroupScore[]; byRule: GroupScore[] }[];
}

/** What the groups need of the stored normalised blueprint (versions before `rule` existed read it as null). */
const GroupFieldsSchema = z.object({ prompts: z.array(PromptSchema.pick({ id: true, weight: true, category: true, rule: true })) });

/** A finished run's as stored when it was summarised (one read, whatever its size); a run still going, computed now. */
export async function getRunGroups(db: Db, runId: string): Promise<RunGroups> {
  const row = await db.run.findUnique({ where: { id: runId }, select: { groups: true } });
  const stored = parseStoredOrNull(StoredRunGroupsSchema, row?.groups, `runs.groups of run ${runId}`);
  return stored ? { runId, models: stored } : computeRunGroups(db, runId);
}

/** From every attempt of the run and its verdicts' statuses: what summarising a finished run stores. */
export async function computeRunGroups(db: Db, runId: string): Promise<RunGroups> {
  const run = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { version: { select: { normalized: true } } } });
  const parsed = GroupFieldsSchema.safeParse(run.version.normalized);
  const prompts = new Map((parsed.success ? parsed.data.prompts : []).map((p) => [p.id, p]));
  // One statement whatever the run's size: through Prisma the nested reply → verdicts select sent
  // every reply id as a bind parameter, over PostgreSQL's 65,535 at 100,000 replies.
  const rows = await db.$queryRaw<{ promptKey: string; modelId: string; score: number | null; failed: boolean; statuses: string[] }[]>`
    SELECT a.prompt_key AS "promptKey", a.model_id AS "modelId", a.score, (r.error IS NOT NULL) AS failed,
           coalesce(array_agg(v.status::text) FILTER (WHERE v.id IS NOT NULL), '{}') AS statuses
    FROM attempt_scores a
    JOIN replies r ON r.id = a.reply_id
    LEFT JOIN verdicts v ON v.run_id = a.run_id AND v.reply_id = a.reply_id
    WHERE a.run_id = ${runId}
    GROUP BY a.id, a.prompt_key, a.model_id, a.reply_id, a.score, r.error
    ORDER BY a.model_id, a.prompt_key, a.reply_id`;
  const byModel = new Map<string, GroupedAttempt[]>();
  for (const r of rows) {
    const p = prompts.get(r.promptKey);
    const attempt: GroupedAttempt = {
      promptId: r.promptKey,
      weight: p?.weight ?? 1,
      category: p?.category ?? null,
      rule: p?.rule ?? null,
      score: r.score,
      passed: r.failed ? null : attemptPassed(r.statuses.map((status) => ({ status }))),
    };
    const list = byModel.get(r.modelId);
    if (list) list.push(attempt);
    else byModel.set(r.modelId, [attempt]);
  }
  const rng = xoroshiro128plus(hashSeed(`${runId}:groups`));
  return {
    runId,
    models: [...byModel.entries()].map(([model, attempts]) => ({ model, pass: passRate(attempts), byCategory: scoresByGroup(attempts, 'category', rng), byRule: scoresByGroup(attempts, 'rule', rng) })),
  };
}
