/** A run's live counters (the progress page and its JSON route poll this). */
import type { Db } from '../client';
import { runCountersSelect } from './run-select';

export async function getRunProgress(db: Db, runId: string) {
  return db.run.findUnique({
    where: { id: runId },
    select: {
      id: true,
      status: true,
      ...runCountersSelect,
      createdAt: true,
      startedAt: true,
      finishedAt: true,
      updatedAt: true,
      blueprint: { select: { id: true, title: true } },
    },
  });
}
export type RunProgressRow = NonNullable<Awaited<ReturnType<typeof getRunProgress>>>;
