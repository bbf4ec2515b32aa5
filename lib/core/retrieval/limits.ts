/**
 * Size limits of a retrieval blueprint's data files, in one place (docs/limits.md), checked
 * before the work they bound as the blueprint's own limits are (lib/core/blueprint/limits.ts):
 * the files come from a pull request and are untrusted. Each is far above the example and the
 * benchmark (10,000 documents, 1,000 queries).
 */
import { z } from 'zod';

export const RetrievalLimitsSchema = z.object({
  /** UTF-8 bytes of one file (corpus, queries or qrels); checked before parsing. */
  maxFileBytes: z.number().int().positive(),
  /** Documents in the corpus. */
  maxDocuments: z.number().int().positive(),
  /** Queries. */
  maxQueries: z.number().int().positive(),
  /** Judgement lines in the qrels. */
  maxQrels: z.number().int().positive(),
  /** Characters of one document's or query's text (an embedding input). */
  maxTextChars: z.number().int().positive(),
  /** Characters of one id. */
  maxIdChars: z.number().int().positive(),
});
export type RetrievalLimits = z.infer<typeof RetrievalLimitsSchema>;

export const RETRIEVAL_LIMITS: RetrievalLimits = RetrievalLimitsSchema.parse({
  maxFileBytes: 64 * 1024 * 1024,
  maxDocuments: 200_000,
  maxQueries: 20_000,
  maxQrels: 2_000_000,
  maxTextChars: 100_000,
  maxIdChars: 512,
});

export function retrievalLimitHint(what: string, limit: number, advice: string): string {
  return `${advice} Assay's limit is ${limit.toLocaleString('en-US')} ${what} (docs/limits.md).`;
}
