/**
 * GET /schema/blueprint.json: the JSON Schema of blueprint documents, for editors
 * (`# yaml-language-server: $schema=https://<assay>/schema/blueprint.json`). One source:
 * `blueprintJsonSchema()`, which `assay schema` prints and schema/blueprint.json holds too.
 * It depends only on the code, so it is rendered at build time and cached by clients.
 */
import { blueprintJsonSchema } from '@/lib/core';

export const dynamic = 'force-static';

export function GET(): Response {
  return new Response(`${JSON.stringify(blueprintJsonSchema(), null, 2)}\n`, {
    headers: {
      'content-type': 'application/schema+json; charset=utf-8',
      // A deploy can change the schema: a day is long enough for editors, short enough to follow.
      'cache-control': 'public, max-age=86400, stale-while-revalidate=604800',
      'access-control-allow-origin': '*',
    },
  });
}
