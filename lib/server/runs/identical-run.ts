/**
 * `skipIfIdentical` (scheduled and PR-triggered requests): the newest run of the same identity
 * that is active or completed, so a request that would repeat it returns it instead. One query
 * for chat and retrieval runs, whose identities are computed apart but deduplicated alike.
 */
import { ActiveRunStatusSchema } from '@/lib/core';
import type { Db } from '../db/client';

export async function identicalRun(db: Db, identityHash: string): Promise<string | null> {
  const same = await db.run.findFirst({
    where: { identityHash, status: { in: [...ActiveRunStatusSchema.options, 'completed'] } },
    orderBy: { createdAt: 'desc' },
    select: { id: true },
  });
  return same?.id ?? null;
}
