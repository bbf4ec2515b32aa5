/** A run's live counters (the progress page and its JSON route poll this). */
import type { Db } from '../client';
import { runCountersSelect } from './run-select';
import { withLiveVerdictCount } from '../verdict-counts';
import { redactStored, storedTextRedactor } from './redact-stored';

export async function getRunProgress(db: Db, runId: string) {
  const row = await db.run.findUnique({
    where: { id: runId },
    select: {
      id: true,
      status: true,
      draft: true,
      createdById: true,
      ...runCountersSelect,
      createdAt: true,
      startedAt: true,
      finishedAt: true,
      updatedAt: true,
      blueprint: { select: { id: true, title: true } },
    },
  });
  if (!row) return null;
  const live = await withLiveVerdictCount(db, row);
  // a failure message stored before redaction existed may quote a key (redact-stored.ts)
  return { ...live, error: redactStored(row.error, storedTextRedactor()) };
}
export type RunProgressRow = NonNullable<Awaited<ReturnType<typeof getRunProgress>>>;
