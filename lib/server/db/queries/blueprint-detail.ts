/** The blueprint page: header, latest version's validation state and its (unsealed) prompts. */
import type { Db } from '../client';

export async function getBlueprintDetail(db: Db, id: string) {
  return db.blueprint.findUnique({
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
          rawText: true,
          createdAt: true,
          prompts: {
            orderBy: { position: 'asc' },
            select: { promptKey: true, position: true, messages: true, split: true, pointCount: true, weight: true },
          },
        },
      },
    },
  });
}
export type BlueprintDetail = NonNullable<Awaited<ReturnType<typeof getBlueprintDetail>>>;
