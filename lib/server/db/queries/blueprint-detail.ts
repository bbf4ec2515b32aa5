/**
 * The blueprint page: header, latest version's validation state and one page of its
 * visible prompts. Sealed (`test` split) prompts are counted here and never selected.
 */
import type { Db } from '../client';
import { SEALED_SPLIT } from './sealed';

export async function getBlueprintDetail(db: Db, id: string, opts: { promptPage?: number; promptPageSize?: number } = {}) {
  const pageSize = opts.promptPageSize ?? 50;
  const page = Math.max(1, opts.promptPage ?? 1);
  const b = await db.blueprint.findUnique({
    where: { id },
    select: {
      id: true,
      title: true,
      description: true,
      tags: true,
      author: true,
      path: true,
      promptCount: true,
      removedAt: true,
      source: { select: { kind: true, owner: true, repo: true, branch: true } },
      latestVersion: {
        select: {
          id: true,
          valid: true,
          validationErrors: true,
          sourceCommit: true,
          createdAt: true,
          prompts: {
            where: { split: { not: SEALED_SPLIT } },
            orderBy: { position: 'asc' },
            skip: (page - 1) * pageSize,
            take: pageSize,
            select: { promptKey: true, position: true, messages: true, pointCount: true, weight: true },
          },
        },
      },
    },
  });
  if (!b) return null;
  const versionId = b.latestVersion?.id;
  const [visibleCount, sealedCount] = versionId
    ? await Promise.all([
        db.versionPrompt.count({ where: { versionId, split: { not: SEALED_SPLIT } } }),
        db.versionPrompt.count({ where: { versionId, split: SEALED_SPLIT } }),
      ])
    : [0, 0];
  return { ...b, visibleCount, sealedCount, promptPage: page, promptPageSize: pageSize };
}
export type BlueprintDetail = NonNullable<Awaited<ReturnType<typeof getBlueprintDetail>>>;

/** Fast existence check, so an unknown id is a 404 before the page starts streaming. */
export async function blueprintExists(db: Db, id: string): Promise<{ id: string; title: string } | null> {
  return db.blueprint.findUnique({ where: { id }, select: { id: true, title: true } });
}

/** A blueprint's stored versions, newest first (one per distinct content), without their text. */
export async function getBlueprintVersions(db: Db, blueprintId: string, opts: { limit?: number } = {}) {
  return db.blueprintVersion.findMany({
    where: { blueprintId },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: opts.limit ?? 100,
    select: { id: true, contentHash: true, sourceCommit: true, path: true, valid: true, promptCount: true, createdAt: true },
  });
}
