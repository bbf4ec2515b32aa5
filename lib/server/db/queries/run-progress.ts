/** A run's live counters (the progress page and its JSON route poll this). */
import type { Db } from '../client';
import { runCountersSelect } from './run-select';
import { withLiveVerdictCount } from '../verdict-counts';
import { redactStored, storedTextRedactor } from './redact-stored';
import { unpricedOfStoredRun } from './run-unpriced';
import { liveWaits, runWaitsSelect } from './run-waits';

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
      trigger: true,
      models: true,
      judges: true,
      config: true,
      blueprint: { select: { id: true, title: true } },
      ...runWaitsSelect,
    },
  });
  if (!row) return null;
  const { trigger, models, judges, config, waits, ...counters } = row;
  const live = await withLiveVerdictCount(db, counters);
  // calls to these are not in costUsd: the page says "unknown" for them, not $0 (run-unpriced.ts)
  const unpricedModels = await unpricedOfStoredRun(db, { id: runId, trigger, models, judges, config });
  // a failure message stored before redaction existed may quote a key (redact-stored.ts)
  // why it waits and until when, while it is not finished (run-waits.ts)
  return { ...live, error: redactStored(row.error, storedTextRedactor()), unpricedModels, waits: liveWaits(row.status, waits) };
}
export type RunProgressRow = NonNullable<Awaited<ReturnType<typeof getRunProgress>>>;
