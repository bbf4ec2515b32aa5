/**
 * One page of a run's prompt × model heatmap: the visible prompts of the page (by position,
 * or hardest/easiest first by mean cell score) and their precomputed cells. Never more than
 * `pageSize` prompts' cells are read, whatever the size of the run; a finished run's prompts are
 * paged from their stored rows (run_prompt_summaries), a running one's from its cells.
 */
import { Prisma } from '@/generated/prisma/client';
import type { HeatmapSort } from '@/lib/core';
import type { Db } from '../client';
import { SEALED_SPLIT } from './sealed';

export interface HeatmapPromptRow {
  promptKey: string;
  position: number;
  weight: number;
  /** The first user turn, cut to 160 characters. */
  snippet: string;
}

export interface HeatmapCellRow {
  promptKey: string;
  modelId: string;
  score: number | null;
  attempts: number;
  errorCount: number;
  /** An attempt of this cell had a gate fail (it scored 0 whatever its other points). */
  gateFailed: boolean;
}

export interface HeatmapPage {
  prompts: HeatmapPromptRow[];
  cells: HeatmapCellRow[];
  /** Visible prompts with results in this run (for pagination). */
  total: number;
  /** Sealed prompts scored in this run: counted, never listed. */
  sealedCount: number;
}

const SNIPPET = Prisma.raw(`left(coalesce(jsonb_path_query_first(vp.messages, '$[*] ? (@.role == "user").content') #>> '{}', ''), 160)`);

/** Whether the run's prompt rows are written (summarised, and not resumed since: db/commands/prompt-summaries.ts). */
export async function hasPromptSummaries(db: Db, runId: string): Promise<boolean> {
  return (await db.runPromptSummary.findFirst({ where: { runId }, select: { runId: true } })) !== null;
}

const promptOrder = (sort: HeatmapSort, mean: string, position: string) =>
  Prisma.raw(sort === 'position' ? position : sort === 'hardest' ? `${mean} ASC NULLS FIRST, ${position}` : `${mean} DESC NULLS LAST, ${position}`);

/** A page of a finished run's visible prompts, from its stored prompt rows: one index range, whatever the run's size. */
async function storedPromptPage(db: Db, run: { id: string; versionId: string }, sort: HeatmapSort, offset: number, limit: number) {
  const [prompts, [counts]] = await Promise.all([
    db.$queryRaw<HeatmapPromptRow[]>`
      SELECT vp.prompt_key AS "promptKey", vp.position, vp.weight, ${SNIPPET} AS snippet
      FROM run_prompt_summaries rp
      JOIN version_prompts vp ON vp.version_id = ${run.versionId} AND vp.prompt_key = rp.prompt_key
      WHERE rp.run_id = ${run.id} AND NOT rp.sealed
      ORDER BY ${promptOrder(sort, 'rp.mean', 'rp.position')}
      OFFSET ${offset} LIMIT ${limit}`,
    db.$queryRaw<{ visible: number; sealed: number }[]>`
      SELECT (count(*) FILTER (WHERE NOT sealed))::int AS visible, (count(*) FILTER (WHERE sealed))::int AS sealed
      FROM run_prompt_summaries WHERE run_id = ${run.id}`,
  ]);
  return { prompts, total: counts?.visible ?? 0, sealedCount: counts?.sealed ?? 0 };
}

/** The same page computed from the cells: a run still going (its cells change) or summarised before prompt rows existed. */
async function livePromptPage(db: Db, run: { id: string; versionId: string }, sort: HeatmapSort, offset: number, limit: number) {
  const prompts =
    sort === 'position'
      ? await db.$queryRaw<(HeatmapPromptRow & { total: number })[]>`
          SELECT vp.prompt_key AS "promptKey", vp.position, vp.weight, ${SNIPPET} AS snippet, (count(*) OVER ())::int AS total
          FROM version_prompts vp
          WHERE vp.version_id = ${run.versionId} AND vp.split <> ${SEALED_SPLIT}
            AND EXISTS (SELECT 1 FROM run_cell_summaries c WHERE c.run_id = ${run.id} AND c.prompt_key = vp.prompt_key)
          ORDER BY vp.position
          OFFSET ${offset} LIMIT ${limit}`
      : await db.$queryRaw<(HeatmapPromptRow & { total: number })[]>`
          SELECT vp.prompt_key AS "promptKey", vp.position, vp.weight, ${SNIPPET} AS snippet, (count(*) OVER ())::int AS total
          FROM (SELECT prompt_key, avg(score) AS mean FROM run_cell_summaries WHERE run_id = ${run.id} GROUP BY prompt_key) agg
          JOIN version_prompts vp ON vp.version_id = ${run.versionId} AND vp.prompt_key = agg.prompt_key
          WHERE vp.split <> ${SEALED_SPLIT}
          ORDER BY ${promptOrder(sort, 'agg.mean', 'vp.position')}
          OFFSET ${offset} LIMIT ${limit}`;
  const [sealed] = await db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM version_prompts vp
      WHERE vp.version_id = ${run.versionId} AND vp.split = ${SEALED_SPLIT}
        AND EXISTS (SELECT 1 FROM run_cell_summaries c WHERE c.run_id = ${run.id} AND c.prompt_key = vp.prompt_key)`;
  let total = prompts[0]?.total ?? 0;
  if (prompts.length === 0 && offset > 0) {
    // past the last page: still report the total so the page can offer a way back
    const [row] = await db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM version_prompts vp
      WHERE vp.version_id = ${run.versionId} AND vp.split <> ${SEALED_SPLIT}
        AND EXISTS (SELECT 1 FROM run_cell_summaries c WHERE c.run_id = ${run.id} AND c.prompt_key = vp.prompt_key)`;
    total = row?.n ?? 0;
  }
  return { prompts: prompts.map(({ total: _t, ...p }) => p), total, sealedCount: sealed?.n ?? 0 };
}

/**
 * A page of the run's visible prompts in the given order, their total and the sealed prompts' count.
 * `offset` (prompts to skip) overrides `page` for a reader that pages by position, not by page number
 * (the public API's cursor).
 */
export async function getRunPromptPage(db: Db, run: { id: string; versionId: string }, opts: { page: number; pageSize: number; sort: HeatmapSort; offset?: number }) {
  const offset = opts.offset ?? (opts.page - 1) * opts.pageSize;
  return (await hasPromptSummaries(db, run.id)) ? storedPromptPage(db, run, opts.sort, offset, opts.pageSize) : livePromptPage(db, run, opts.sort, offset, opts.pageSize);
}

export async function getHeatmapPage(
  db: Db,
  run: { id: string; versionId: string },
  opts: { page: number; pageSize: number; sort: HeatmapSort; offset?: number },
): Promise<HeatmapPage> {
  const { prompts, total, sealedCount } = await getRunPromptPage(db, run, opts);
  const keys = prompts.map((p) => p.promptKey);
  const [summaries, gated] = await Promise.all([
    keys.length === 0
      ? Promise.resolve([])
      : db.runCellSummary.findMany({
          where: { runId: run.id, promptKey: { in: keys } },
          select: { promptKey: true, modelId: true, score: true, attempts: true, errorCount: true },
        }),
    keys.length === 0
      ? Promise.resolve([])
      : db.attemptScore.findMany({ where: { runId: run.id, promptKey: { in: keys }, gateFailed: true }, select: { promptKey: true, modelId: true }, distinct: ['promptKey', 'modelId'] }),
  ]);
  const gateKeys = new Set(gated.map((g) => `${g.promptKey}\u0000${g.modelId}`));
  const cells: HeatmapCellRow[] = summaries.map((c) => ({ ...c, gateFailed: gateKeys.has(`${c.promptKey}\u0000${c.modelId}`) }));
  return { prompts, cells, total, sealedCount };
}
