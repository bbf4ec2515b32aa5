/**
 * The figures stored when a run is summarised, forgotten in one place when it is resumed: its
 * cells change again, so its judge figures, groups, planner answer and unpriced models (runs
 * columns), each model's judge statistics, its prompt rows and every stored comparison with it
 * are removed, and made again when it finishes. Meanwhile readers compute from the cells.
 */
import { Prisma } from '@/generated/prisma/client';
import type { Db } from '../client';

export async function forgetFinishedFigures(db: Db, runId: string): Promise<void> {
  await db.$transaction([
    db.run.update({
      where: { id: runId },
      data: { judgeReliability: Prisma.DbNull, judgeMethods: Prisma.DbNull, groups: Prisma.DbNull, planner: Prisma.DbNull, unpricedModels: Prisma.DbNull },
    }),
    db.runModelSummary.updateMany({ where: { runId }, data: { judgeStats: Prisma.DbNull } }),
    db.runPromptSummary.deleteMany({ where: { runId } }),
    db.runDiff.deleteMany({ where: { OR: [{ olderRunId: runId }, { newerRunId: runId }] } }),
  ]);
}
