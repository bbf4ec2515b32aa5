/**
 * Sealed prompts (SPEC §2.5: `split: test`) are run and scored but never shown. Every query
 * that returns a prompt's text, a reply or a verdict excludes them here, in SQL, so no page,
 * API route or search result can leak one by forgetting a filter in a view.
 */
import { Prisma } from '@/generated/prisma/client';

export const SEALED_SPLIT = 'test';

/**
 * SQL condition: prompt `keyColumn` is not sealed in the blueprint version given either as a
 * column reference (`{ column: 'ru.version_id' }`, our own SQL) or as a bound value (`{ id }`).
 */
export function notSealed(version: { column: string } | { id: string }, keyColumn: string): Prisma.Sql {
  const v = 'column' in version ? Prisma.raw(version.column) : Prisma.sql`${version.id}`;
  return Prisma.sql`NOT EXISTS (SELECT 1 FROM version_prompts sealed WHERE sealed.version_id = ${v} AND sealed.prompt_key = ${Prisma.raw(keyColumn)} AND sealed.split = ${SEALED_SPLIT})`;
}
