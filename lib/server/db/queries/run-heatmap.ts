/**
 * One page of a run's prompt × model heatmap: the visible prompts of the page (by position,
 * or hardest/easiest first by mean cell score) and their precomputed cells. Never more than
 * `pageSize` prompts' cells are read, whatever the size of the run.
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

export async function getHeatmapPage(
  db: Db,
  run: { id: string; versionId: string },
  opts: { page: number; pageSize: number; sort: HeatmapSort },
): Promise<HeatmapPage> {
  const offset = (opts.page - 1) * opts.pageSize;
  const prompts =
    opts.sort === 'position'
      ? await db.$queryRaw<(HeatmapPromptRow & { total: number })[]>`
          SELECT vp.prompt_key AS "promptKey", vp.position, vp.weight, ${SNIPPET} AS snippet, (count(*) OVER ())::int AS total
          FROM version_prompts vp
          WHERE vp.version_id = ${run.versionId} AND vp.split <> ${SEALED_SPLIT}
            AND EXISTS (SELECT 1 FROM run_cell_summaries c WHERE c.run_id = ${run.id} AND c.prompt_key = vp.prompt_key)
          ORDER BY vp.position
          OFFSET ${offset} LIMIT ${opts.pageSize}`
      : await db.$queryRaw<(HeatmapPromptRow & { total: number })[]>`
          SELECT vp.prompt_key AS "promptKey", vp.position, vp.weight, ${SNIPPET} AS snippet, (count(*) OVER ())::int AS total
          FROM (SELECT prompt_key, avg(score) AS mean FROM run_cell_summaries WHERE run_id = ${run.id} GROUP BY prompt_key) agg
          JOIN version_prompts vp ON vp.version_id = ${run.versionId} AND vp.prompt_key = agg.prompt_key
          WHERE vp.split <> ${SEALED_SPLIT}
          ORDER BY ${opts.sort === 'hardest' ? Prisma.raw('agg.mean ASC NULLS FIRST') : Prisma.raw('agg.mean DESC NULLS LAST')}, vp.position
          OFFSET ${offset} LIMIT ${opts.pageSize}`;
  const keys = prompts.map((p) => p.promptKey);
  const [summaries, gated, sealed] = await Promise.all([
    keys.length === 0
      ? Promise.resolve([])
      : db.runCellSummary.findMany({
          where: { runId: run.id, promptKey: { in: keys } },
          select: { promptKey: true, modelId: true, score: true, attempts: true, errorCount: true },
        }),
    keys.length === 0
      ? Promise.resolve([])
      : db.attemptScore.findMany({ where: { runId: run.id, promptKey: { in: keys }, gateFailed: true }, select: { promptKey: true, modelId: true }, distinct: ['promptKey', 'modelId'] }),
    db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM version_prompts vp
      WHERE vp.version_id = ${run.versionId} AND vp.split = ${SEALED_SPLIT}
        AND EXISTS (SELECT 1 FROM run_cell_summaries c WHERE c.run_id = ${run.id} AND c.prompt_key = vp.prompt_key)`,
  ]);
  const gateKeys = new Set(gated.map((g) => `${g.promptKey}\u0000${g.modelId}`));
  const cells: HeatmapCellRow[] = summaries.map((c) => ({ ...c, gateFailed: gateKeys.has(`${c.promptKey}\u0000${c.modelId}`) }));
  let total = prompts[0]?.total ?? 0;
  if (prompts.length === 0 && offset > 0) {
    // past the last page: still report the total so the page can offer a way back
    const [row] = await db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM version_prompts vp
      WHERE vp.version_id = ${run.versionId} AND vp.split <> ${SEALED_SPLIT}
        AND EXISTS (SELECT 1 FROM run_cell_summaries c WHERE c.run_id = ${run.id} AND c.prompt_key = vp.prompt_key)`;
    total = row?.n ?? 0;
  }
  return {
    prompts: prompts.map(({ total: _t, ...p }) => p),
    cells,
    total,
    sealedCount: sealed[0]?.n ?? 0,
  };
}
