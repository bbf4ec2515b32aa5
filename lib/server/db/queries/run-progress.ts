/** A run's live counters (the progress page and its JSON route poll this). */
import type { Db } from '../client';
import { runCountersSelect } from './run-select';
import { withLiveVerdictCount } from '../verdict-counts';
import { redactStored, storedTextRedactor } from './redact-stored';
import { unpricedOfRun } from './run-unpriced';

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
    },
  });
  if (!row) return null;
  const { trigger, models, judges, config, ...counters } = row;
  const live = await withLiveVerdictCount(db, counters);
  // calls to these are not in costUsd: the page says "unknown" for them, not $0 (run-unpriced.ts)
  const unpricedModels = unpricedOfRun({ trigger, models, judges, config });
  // a failure message stored before redaction existed may quote a key (redact-stored.ts)
  return { ...live, error: redactStored(row.error, storedTextRedactor()), unpricedModels };
}
export type RunProgressRow = NonNullable<Awaited<ReturnType<typeof getRunProgress>>>;
