/**
 * The run every drill-down page starts from: does it exist (a 404 otherwise, decided before
 * streaming), its blueprint, version and state, and the other runs of the same blueprint
 * (the diff picker). Small and indexed: the pages' sections stream after it.
 */
import type { Db } from '../client';
import { runCountersSelect } from './run-select';

export async function getRunHeader(db: Db, runId: string) {
  const run = await db.run.findUnique({
    where: { id: runId },
    select: {
      id: true,
      status: true,
      trigger: true,
      versionId: true,
      sourceCommit: true,
      createdAt: true,
      startedAt: true,
      finishedAt: true,
      ...runCountersSelect,
      parentRunId: true,
      blueprint: { select: { id: true, title: true, path: true, source: { select: { kind: true, owner: true, repo: true } } } },
    },
  });
  if (!run) return null;
  const siblings = await db.run.findMany({
    where: { blueprintId: run.blueprint.id, id: { not: run.id }, status: 'completed' },
    orderBy: { createdAt: 'desc' },
    take: 20,
    select: { id: true, createdAt: true, sourceCommit: true },
  });
  return { ...run, siblings };
}
export type RunHeader = NonNullable<Awaited<ReturnType<typeof getRunHeader>>>;
