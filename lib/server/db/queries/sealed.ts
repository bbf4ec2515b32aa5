/**
 * Sealed prompts (`split: test`) are run and scored but never shown. Every query
 * that returns a prompt's text, a reply or a verdict excludes them here, in SQL, so no page,
 * API route or search result can leak one by forgetting a filter in a view.
 */
import { Prisma } from '@/generated/prisma/client';
import { SEALED_SPLIT } from '@/lib/core';

export { SEALED_SPLIT };

/**
 * SQL condition: prompt `keyColumn` is not sealed in the blueprint version of column
 * `versionColumn` (rows of many runs, e.g. search). Both are column references in our own SQL.
 */
export function notSealed(versionColumn: string, keyColumn: string): Prisma.Sql {
  return Prisma.sql`NOT EXISTS (SELECT 1 FROM version_prompts sealed WHERE sealed.version_id = ${Prisma.raw(versionColumn)} AND sealed.prompt_key = ${Prisma.raw(keyColumn)} AND sealed.split = ${SEALED_SPLIT})`;
}

/**
 * The same condition for one known version, as a hashed set: cheaper than a probe per row
 * when a query scans thousands of rows of one run (prompt keys are never null).
 */
export function notSealedIn(versionId: string, keyColumn: string): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(keyColumn)} NOT IN (SELECT sealed.prompt_key FROM version_prompts sealed WHERE sealed.version_id = ${versionId} AND sealed.split = ${SEALED_SPLIT})`;
}
