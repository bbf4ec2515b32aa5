/**
 * What a reviewer may be offered now, in SQL shared by the queue and the counts on the review
 * home page, so "waiting" means one thing: an item (or pair) of a prompt not sealed in its run's
 * version, with fewer live labels than the reviewers it wants, that this reviewer has not answered
 * (a live answer: any action, neither undone nor removed). Items come in the draw's order.
 */
import { Prisma } from '@/generated/prisma/client';
import type { Db } from '../db/client';
import { notSealed } from '../db/queries/sealed';

export type QueueKind = 'items' | 'pairs';

/** Our own table and column names per kind (never input). */
const TABLES = {
  items: { items: Prisma.raw('review_items'), labels: Prisma.raw('review_labels'), ref: Prisma.raw('item_id') },
  pairs: { items: Prisma.raw('pair_items'), labels: Prisma.raw('pair_labels'), ref: Prisma.raw('pair_id') },
} as const;

/** An answer that counts: neither undone by its reviewer nor removed by a maintainer. */
export const LIVE = Prisma.sql`l.undone_at IS NULL AND l.removed_at IS NULL`;

/** Conditions on `i` (the item or pair, joined to its run as `r`): waiting for `userId`. */
function waitingFor(kind: QueueKind, userId: string): Prisma.Sql {
  const t = TABLES[kind];
  return Prisma.sql`${notSealed('r.version_id', 'i.prompt_key')}
    AND (SELECT count(*) FROM ${t.labels} l WHERE l.${t.ref} = i.id AND l.action = 'label' AND ${LIVE}) < i.reviewers_wanted
    AND NOT EXISTS (SELECT 1 FROM ${t.labels} l WHERE l.${t.ref} = i.id AND l.reviewer_id = ${userId} AND ${LIVE})`;
}

/** The first `limit` waiting ids of a blueprint, in position order. */
export async function waitingIds(db: Db, kind: QueueKind, blueprintId: string, userId: string, limit: number): Promise<string[]> {
  const t = TABLES[kind];
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT i.id FROM ${t.items} i JOIN runs r ON r.id = i.run_id
    WHERE i.blueprint_id = ${blueprintId} AND ${waitingFor(kind, userId)}
    ORDER BY i.position, i.id
    LIMIT ${limit}`;
  return rows.map((r) => r.id);
}

/** How many are waiting for `userId`, per blueprint (a blueprint with none is absent). */
export async function waitingCounts(db: Db, kind: QueueKind, userId: string, blueprintIds: readonly string[] | null): Promise<Map<string, number>> {
  const t = TABLES[kind];
  const only = blueprintIds === null ? Prisma.empty : Prisma.sql`AND i.blueprint_id = ANY(${[...blueprintIds]}::text[])`;
  const rows = await db.$queryRaw<{ blueprintId: string; n: number }[]>`
    SELECT i.blueprint_id AS "blueprintId", count(*)::int AS n FROM ${t.items} i JOIN runs r ON r.id = i.run_id
    WHERE ${waitingFor(kind, userId)} ${only}
    GROUP BY i.blueprint_id`;
  return new Map(rows.map((r) => [r.blueprintId, Number(r.n)]));
}
