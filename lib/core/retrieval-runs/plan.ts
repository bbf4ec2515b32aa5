/**
 * What a retrieval run does, decided before it starts: how deep each query's ranking goes, how
 * the texts are cut into the batches a scheduler hands out (one model × kind × batch each), and
 * the run's identity. Pure: the caller passes the block, the data's size and hash.
 */
import { z } from 'zod';
import { sha256Hex, stableStringify } from '../blueprint/ids';
import { SEALED_SPLIT } from '../blueprint/sealed';
import { rankingDepth, type MetricSpec } from '../retrieval';

/** Texts per scheduled unit of work (embedTexts splits it further into the provider's requests). */
export const RETRIEVAL_BATCH_TEXTS = 128;

/** The drill-down shows at least this many retrieved documents per query, whatever the metrics' k. */
export const MIN_SEARCH_DEPTH = 10;

/**
 * trec_eval scores the documents a run file lists, 1,000 per query by convention (its `-M`
 * default): a metric without a cut-off (`mrr`, `map`) reads a ranking this deep.
 */
export const FULL_RANKING_DEPTH = 1000;

/** The two sides of a retrieval run that are embedded: corpus documents and queries. */
export const EmbedKindSchema = z.enum(['document', 'query']);
export type EmbedKind = z.infer<typeof EmbedKindSchema>;

/**
 * How deep to search: as deep as the metrics read (`rankingDepth`), at least the drill-down's
 * top, FULL_RANKING_DEPTH when a metric has no cut-off, never more than the corpus.
 */
export function searchDepth(metrics: readonly MetricSpec[], corpusSize: number): number {
  const needed = rankingDepth(metrics);
  return Math.max(1, Math.min(needed === null ? FULL_RANKING_DEPTH : Math.max(needed, displayDepth(metrics)), corpusSize));
}

/**
 * How many retrieved documents of each query are stored and shown: the largest k of the
 * metrics, at least MIN_SEARCH_DEPTH. (Deeper ranks are scored, not stored: a relevant document
 * found below this keeps only its rank.)
 */
export function displayDepth(metrics: readonly MetricSpec[]): number {
  return Math.max(MIN_SEARCH_DEPTH, ...metrics.map((m) => m.k ?? 0));
}

/** The retrieval part of a run's stored config (`runs.config.retrieval`): written by the request, read by every step. */
export const RetrievalRunSettingsSchema = z.object({
  /** The `retrieval_datasets` row the run reads (the data as synced when the run was requested). */
  datasetId: z.string().min(1),
  /** sha256 over the three files: part of the identity. */
  dataHash: z.string().min(1),
  /** Documents retrieved per query (searchDepth). */
  depth: z.number().int().positive(),
  /** Texts per scheduled batch. */
  batchTexts: z.number().int().positive(),
});
export type RetrievalRunSettings = z.infer<typeof RetrievalRunSettingsSchema>;

/** One unit a scheduler hands out: a batch of one model's documents or queries. */
export interface EmbedUnit {
  modelId: string;
  kind: EmbedKind;
  batchIndex: number;
}

/** Every unit of a run, models in their order, documents before queries, batches in order. */
export function planEmbedUnits(models: readonly string[], sizes: { documents: number; queries: number }, batchTexts: number): EmbedUnit[] {
  const units: EmbedUnit[] = [];
  for (const modelId of models) {
    for (const kind of EmbedKindSchema.options) {
      const n = kind === 'document' ? sizes.documents : sizes.queries;
      for (let batchIndex = 0; batchIndex * batchTexts < n; batchIndex++) units.push({ modelId, kind, batchIndex });
    }
  }
  return units;
}

/** The half-open range of item indices a batch covers. */
export function batchRange(batchIndex: number, batchTexts: number, total: number): { start: number; end: number } {
  const start = batchIndex * batchTexts;
  return { start, end: Math.min(total, start + batchTexts) };
}

/**
 * A retrieval run's identity: the blueprint's content, the data files' content, the models and
 * the search depth (what determines the results; the batch size does not). A change of any data
 * file changes it, so a schedule never mistakes a run over new files for a repeat.
 */
export function retrievalRunIdentity(input: { contentHash: string; dataHash: string; models: readonly string[]; depth: number; parserVersion: string }): string {
  return sha256Hex(
    stableStringify({
      v: 1,
      kind: 'retrieval',
      content: input.contentHash,
      data: input.dataHash,
      parser: input.parserVersion,
      models: [...input.models].sort(),
      depth: input.depth,
    }) ?? '',
  );
}

/**
 * A retrieval blueprint is sealed by `split: test` in its header (as a prompt is by its own):
 * it is run and scored, but its queries and documents are never shown, only the figures.
 */
export function isSealedRetrieval(bp: { extensions: Record<string, unknown> }): boolean {
  return bp.extensions.split === SEALED_SPLIT;
}
