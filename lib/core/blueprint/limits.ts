/**
 * The size limits of one blueprint file, in one place (documented in docs/limits.md).
 *
 * Blueprints are untrusted: a pull request's files are validated before anyone approves them.
 * Every limit is checked while loading, before the work it bounds, so an oversized or
 * expanding file is rejected in time proportional to the limit rather than to the attack
 * (a 469-byte YAML alias bomb expands to billions of nodes). Each limit is far above the
 * largest Weval corpus blueprint (306 KB, 101 documents, depth 9, 1,331 nodes, 11 aliases,
 * 100 prompts, 47 points in one prompt).
 */
import { z } from 'zod';

export const BlueprintLimitsSchema = z.object({
  /** UTF-8 bytes of the file; checked before parsing. */
  maxFileBytes: z.number().int().positive(),
  /** YAML documents (`---` separated) in one file; checked before the documents are built. */
  maxDocuments: z.number().int().positive(),
  /** Nesting of lists and mappings, as written and after aliases are expanded. */
  maxDepth: z.number().int().positive(),
  /** Alias uses (`*name`, `<<: *name`) resolved while expanding, counting aliases inside aliased nodes each time. */
  maxAliases: z.number().int().nonnegative(),
  /** Values (scalars, lists, mappings) of the whole file, as written and again after aliases and merges are expanded. */
  maxNodes: z.number().int().positive(),
  /** Prompts in one blueprint. */
  maxPrompts: z.number().int().positive(),
  /** Points of one prompt (`should`, its alternative paths and `should_not` together). */
  maxPointsPerPrompt: z.number().int().positive(),
});
export type BlueprintLimits = z.infer<typeof BlueprintLimitsSchema>;

export const BLUEPRINT_LIMITS: BlueprintLimits = BlueprintLimitsSchema.parse({
  maxFileBytes: 1024 * 1024,
  maxDocuments: 1_000,
  maxDepth: 64,
  maxAliases: 10_000,
  maxNodes: 100_000,
  maxPrompts: 2_000,
  maxPointsPerPrompt: 500,
});

/** The hint every limit error ends with: which limit, and that it is the same for everyone. */
export function limitHint(what: string, limit: number, advice: string): string {
  return `${advice} Assay's limit is ${limit.toLocaleString('en-US')} ${what} per blueprint file (docs/limits.md).`;
}

/**
 * Thrown inside the loader's recursive steps when a limit is passed, and caught once at the
 * top of the step (documents.ts) to become one issue: unwinding at once is what keeps an
 * expansion bomb from doing the rest of its work.
 */
export class LimitExceeded extends Error {
  constructor(
    readonly loc: { line: number; col: number },
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}
