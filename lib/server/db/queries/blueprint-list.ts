/** The home page's list of blueprints: one indexed query, no blueprint bodies loaded. */
import type { Db } from '../client';

export interface BlueprintListItem {
  id: string;
  title: string;
  description: string | null;
  tags: string[];
  promptCount: number;
  /** A retrieval blueprint's data (queries and documents at the last sync); null for a chat blueprint or files that did not load. */
  retrieval: { queries: number; documents: number } | null;
  valid: boolean;
  errorCount: number;
  updatedAt: Date;
}

/**
 * `after`: the last item of the previous page (its title and id), for keyset paging in the list's
 * own order (the public API's cursor): the page starts strictly after it, so an item is never
 * listed twice and an item added meanwhile elsewhere in the order never shifts the rest.
 */
export async function listBlueprints(db: Db, opts: { tag?: string; limit?: number; after?: { title: string; id: string } } = {}): Promise<BlueprintListItem[]> {
  const after = opts.after ? { OR: [{ title: { gt: opts.after.title } }, { title: opts.after.title, id: { gt: opts.after.id } }] } : {};
  const rows = await db.blueprint.findMany({
    where: { removedAt: null, ...(opts.tag ? { tags: { has: opts.tag } } : {}), ...after },
    orderBy: [{ title: 'asc' }, { id: 'asc' }],
    take: opts.limit ?? 500,
    select: {
      id: true,
      title: true,
      description: true,
      tags: true,
      promptCount: true,
      updatedAt: true,
      latestVersion: { select: { valid: true, validationErrors: true, retrievalData: { select: { dataset: { select: { queryCount: true, docCount: true } } } } } },
    },
  });
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    description: r.description,
    tags: r.tags,
    promptCount: r.promptCount,
    retrieval: r.latestVersion?.retrievalData?.dataset ? { queries: r.latestVersion.retrievalData.dataset.queryCount, documents: r.latestVersion.retrievalData.dataset.docCount } : null,
    valid: r.latestVersion?.valid ?? false,
    errorCount: Array.isArray(r.latestVersion?.validationErrors) ? r.latestVersion.validationErrors.length : 0,
    updatedAt: r.updatedAt,
  }));
}
