/**
 * The requests of the public API: path parameters and query strings, one zod schema each, read by
 * the routes and by the OpenAPI document (openapi.ts) alike.
 */
import { z } from 'zod';
import { decodeSegment, modelIdFromSegments } from '@/lib/views/urls';

/** The largest page a list answers; a larger `limit` is refused (400) so a client learns the bound. */
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 50;

const Id = (what: string) =>
  z
    .string()
    .transform(decodeSegment)
    .pipe(z.string().min(1, `A ${what} is 1 to 200 characters.`).max(200, `A ${what} is 1 to 200 characters.`))
    .describe(`The ${what}, percent-encoded as one path segment.`);

export const BlueprintParams = z.object({ id: Id('blueprint id') });
export const RunParams = z.object({ runId: Id('run id') });
export const RunPairParams = z.object({ runId: Id('run id'), otherRunId: Id('other run id') });
/** Model ids hold `:` and `/` (openrouter:qwen/qwen-2.5-72b-instruct): the id's own slashes may stay slashes. */
export const ModelParams = z.object({
  modelId: z
    .array(z.string())
    .min(1)
    .transform(modelIdFromSegments)
    .pipe(z.string().min(1).max(200, 'A model id is 1 to 200 characters.')),
});

export const PageQuery = z.object({
  limit: z.coerce
    .number()
    .int('`limit` is a whole number.')
    .min(1, '`limit` is at least 1.')
    .max(MAX_LIMIT, `\`limit\` is at most ${MAX_LIMIT}: read further pages with \`cursor\`.`)
    .default(DEFAULT_LIMIT)
    .describe(`Items per page, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).`),
  cursor: z.string().max(500).optional().describe('The `next_cursor` of the previous page; leave out for the first page.'),
});

export const LeaderboardQuery = z.object({
  tag: z.string().min(1).max(100).optional().describe('A tag: the board of the blueprints carrying it. Leave out for the overall board.'),
});

export const DriftQuery = PageQuery.extend({
  blueprint_id: z.string().min(1).max(200).optional().describe('Only this blueprint’s checks.'),
  model_id: z.string().min(1).max(200).optional().describe('Only this model’s checks.'),
  all: z.enum(['true', 'false']).default('false').transform((v) => v === 'true').describe('`true`: every check, not only the flagged ones.'),
});
