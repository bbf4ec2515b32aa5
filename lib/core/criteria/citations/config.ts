/**
 * How a blueprint's replies are read for citations (header `citations:`), the one schema the
 * header parser validates with and the run reads back. Either soev's `CitationMapping` over an
 * HTTP system's JSON reply (`mapping: { path, regex? }`), or a pattern over plain replies
 * (`pattern: "…"` with one capture group, the source id). `match` decides how a cited id is
 * compared with the case's `expect.sources` (`hierarchical` by default; docs/criteria.md).
 */
import { z } from 'zod';

export const CitationMatchSchema = z.enum(['hierarchical', 'exact']);
export type CitationMatch = z.infer<typeof CitationMatchSchema>;

export const CitationMappingSchema = z.strictObject({
  /** Dotted field path into the JSON reply, e.g. `citations.metadata.unit_id`; a list on the way is read item by item. */
  path: z.string().min(1, 'the dotted field path of the cited id, e.g. `citations.metadata.unit_id`'),
  /** Finds the id in the field's value: its first capture group, or the whole match without one. Null: the whole value. */
  regex: z.string().min(1).nullable().default(null),
});
export type CitationMapping = z.infer<typeof CitationMappingSchema>;

export const CitationsConfigSchema = z
  .strictObject({
    mapping: CitationMappingSchema.nullable().default(null),
    /** Over plain replies: every match is one citation; the first capture group is the source id. */
    pattern: z.string().min(1).nullable().default(null),
    match: CitationMatchSchema.default('hierarchical'),
  })
  .refine((c) => (c.mapping === null) !== (c.pattern === null), {
    message: 'give exactly one of `mapping: { path: "…" }` (an HTTP system\'s JSON reply) or `pattern: "…"` (plain replies)',
  });
export type CitationsConfig = z.infer<typeof CitationsConfigSchema>;
