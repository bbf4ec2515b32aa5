/**
 * A finished run's prompts over their heatmap cells (run_prompt_summaries): position, sealed or
 * not, the mean of the cell scores and the number of cells. Written once when the run is
 * summarised, so a heatmap page (by position, hardest or easiest first) and the points page read
 * one page of rows, not every cell of the run. A prompt this version does not grade (a rescore
 * of fewer prompts) has no row, as the heatmap lists only the version's prompts.
 */
import { SEALED_SPLIT } from '@/lib/core';
import type { Db } from '../client';

export async function writePromptSummaries(db: Db, runId: string): Promise<void> {
  // One statement each, no transaction: Prisma ends a batch transaction after 5 s, and on a busy
  // server the 100,000 cells of a 1,000,000-verdict run took longer. A row is replaced in place.
  await db.$executeRaw`
    INSERT INTO run_prompt_summaries (run_id, prompt_key, position, sealed, mean, cells)
    SELECT c.run_id, c.prompt_key, vp.position, vp.split = ${SEALED_SPLIT}, avg(c.score), count(*)::int
    FROM run_cell_summaries c
    JOIN runs r ON r.id = c.run_id
    JOIN version_prompts vp ON vp.version_id = r.version_id AND vp.prompt_key = c.prompt_key
    WHERE c.run_id = ${runId}
    GROUP BY c.run_id, c.prompt_key, vp.position, vp.split
    ON CONFLICT (run_id, prompt_key) DO UPDATE SET position = EXCLUDED.position, sealed = EXCLUDED.sealed, mean = EXCLUDED.mean, cells = EXCLUDED.cells`;
  // a prompt whose cells are gone (cells rebuilt from fewer attempts) has no row
  await db.$executeRaw`
    DELETE FROM run_prompt_summaries p
    WHERE p.run_id = ${runId} AND NOT EXISTS (SELECT 1 FROM run_cell_summaries c WHERE c.run_id = p.run_id AND c.prompt_key = p.prompt_key)`;
}
