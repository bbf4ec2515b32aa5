/**
 * A prompt's Weval tool-use fields (`requiredTools`, `prohibitedTools`, `maxCalls`), for the
 * prompt page. They live only in the version's normalised blueprint (the prompt table keeps the
 * columns every page lists), so they are read from there, for one prompt, through the schema
 * the parser wrote them with.
 */
import { parseStored, PromptSchema, type PromptToolFields } from '@/lib/core';
import type { Db } from '../client';

const ToolFieldsSchema = PromptSchema.pick({ requiredTools: true, prohibitedTools: true, maxCalls: true });

export async function getPromptToolFields(db: Db, versionId: string, promptKey: string): Promise<PromptToolFields> {
  const rows = await db.$queryRaw<{ requiredTools: unknown; prohibitedTools: unknown; maxCalls: unknown }[]>`
    SELECT p -> 'requiredTools' AS "requiredTools", p -> 'prohibitedTools' AS "prohibitedTools", p -> 'maxCalls' AS "maxCalls"
    FROM blueprint_versions v, jsonb_array_elements(v.normalized -> 'prompts') AS p
    WHERE v.id = ${versionId} AND p ->> 'id' = ${promptKey}
    LIMIT 1`;
  const row = rows[0];
  if (!row) return {};
  // A field the prompt does not write comes back as SQL NULL: absent, as the schema has it.
  const written = Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null && v !== undefined));
  return parseStored(ToolFieldsSchema, written, `blueprint_versions.normalized prompt ${promptKey} (tool-use fields)`);
}
