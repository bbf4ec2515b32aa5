/**
 * One model within a run: its summary and rank, a page of its prompts (weakest first by
 * default), its errors, and the sealed prompts' aggregate (scored, never listed).
 */
import { Prisma } from '@/generated/prisma/client';
import type { RunModelSort } from '@/lib/core';
import { storedInterval, storedModelPassCurve } from '../stored-interval';
import type { Db } from '../client';
import { notSealedIn, SEALED_SPLIT } from './sealed';
import { redactStored, storedTextRedactor } from './redact-stored';

export async function getRunModelSummary(db: Db, runId: string, modelId: string) {
  const summary = await db.runModelSummary.findUnique({ where: { runId_modelId: { runId, modelId } } });
  if (!summary) return null;
  const [above, models, model] = await Promise.all([
    summary.score === null ? Promise.resolve(0) : db.runModelSummary.count({ where: { runId, score: { gt: summary.score } } }),
    db.runModelSummary.count({ where: { runId } }),
    db.model.findUnique({ where: { id: modelId }, select: { displayName: true, provider: true } }),
  ]);
  return {
    ...summary,
    rank: summary.score === null ? null : above + 1,
    models,
    displayName: model?.displayName ?? null,
    interval: storedInterval(summary),
    passCurve: storedModelPassCurve(summary.passCurve),
  };
}
export type RunModelSummaryDetail = NonNullable<Awaited<ReturnType<typeof getRunModelSummary>>>;

export interface RunModelPromptRow {
  promptKey: string;
  position: number;
  snippet: string;
  score: number | null;
  attempts: number;
  errorCount: number;
}

export async function getRunModelPrompts(
  db: Db,
  run: { id: string; versionId: string },
  modelId: string,
  opts: { page: number; pageSize: number; sort: RunModelSort },
): Promise<{ rows: RunModelPromptRow[]; total: number; sealed: { count: number; mean: number | null } }> {
  const order =
    opts.sort === 'position'
      ? Prisma.raw('vp.position')
      : opts.sort === 'weakest'
        ? Prisma.raw('c.score ASC NULLS FIRST, vp.position')
        : Prisma.raw('c.score DESC NULLS LAST, vp.position');
  const [rows, sealed] = await Promise.all([
    db.$queryRaw<(RunModelPromptRow & { total: number })[]>`
      SELECT c.prompt_key AS "promptKey", vp.position, c.score, c.attempts, c.error_count AS "errorCount",
             left(coalesce(jsonb_path_query_first(vp.messages, '$[*] ? (@.role == "user").content') #>> '{}', ''), 160) AS snippet,
             (count(*) OVER ())::int AS total
      FROM run_cell_summaries c
      JOIN version_prompts vp ON vp.version_id = ${run.versionId} AND vp.prompt_key = c.prompt_key
      WHERE c.run_id = ${run.id} AND c.model_id = ${modelId} AND vp.split <> ${SEALED_SPLIT}
      ORDER BY ${order}
      OFFSET ${(opts.page - 1) * opts.pageSize} LIMIT ${opts.pageSize}`,
    db.$queryRaw<{ count: number; mean: number | null }[]>`
      SELECT count(*)::int AS count, avg(c.score)::float8 AS mean
      FROM run_cell_summaries c
      JOIN version_prompts vp ON vp.version_id = ${run.versionId} AND vp.prompt_key = c.prompt_key
      WHERE c.run_id = ${run.id} AND c.model_id = ${modelId} AND vp.split = ${SEALED_SPLIT}`,
  ]);
  return { rows: rows.map(({ total: _t, ...r }) => r), total: rows[0]?.total ?? 0, sealed: sealed[0] ?? { count: 0, mean: null } };
}

export interface RunModelError {
  promptKey: string;
  pointIndex: number | null;
  pointText: string | null;
  message: string;
  kind: 'reply' | 'verdict';
}

/** The model's failed replies and errored verdicts on visible prompts, newest prompts first; at most `limit` of each. */
export async function getRunModelErrors(db: Db, run: { id: string; versionId: string }, modelId: string, limit = 20): Promise<RunModelError[]> {
  const [replies, verdicts] = await Promise.all([
    db.$queryRaw<{ promptKey: string; message: string }[]>`
      SELECT r.prompt_key AS "promptKey", coalesce(r.error_kind || ': ', '') || r.error AS message
      FROM replies r
      WHERE r.run_id = ${run.id} AND r.model_id = ${modelId} AND r.error IS NOT NULL AND ${notSealedIn(run.versionId, 'r.prompt_key')}
      ORDER BY r.prompt_key LIMIT ${limit}`,
    db.$queryRaw<{ promptKey: string; pointIndex: number; pointText: string; message: string | null }[]>`
      SELECT v.prompt_key AS "promptKey", v.point_index AS "pointIndex", v.point_text AS "pointText", coalesce(v.detail, v.reasoning) AS message
      FROM verdicts v
      WHERE v.run_id = ${run.id} AND v.status = 'error' AND v.model_id = ${modelId} AND ${notSealedIn(run.versionId, 'v.prompt_key')}
      ORDER BY v.prompt_key, v.point_index LIMIT ${limit}`,
  ]);
  // an error stored before redaction existed may quote a key (redact-stored.ts)
  return redactStored(
    [
      ...replies.map((r) => ({ promptKey: r.promptKey, pointIndex: null, pointText: null, message: r.message, kind: 'reply' as const })),
      ...verdicts.map((v) => ({ ...v, message: v.message ?? 'The verdict could not be obtained.', kind: 'verdict' as const })),
    ],
    storedTextRedactor(),
  );
}
