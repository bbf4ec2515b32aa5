/**
 * The `retrieval:` header block (also read as `retrieval_config`; docs/retrieval.md): a blueprint
 * that scores embedding models corpus-level instead of grading replies. This is the parsed shape
 * every other part of Assay reads (runs, pages, the CLI); the YAML reading with positions is in
 * `lib/core/blueprint/retrieval-field.ts`.
 */
import { z } from 'zod';

/** The metric families, named as Assay writes them; each maps to one trec_eval measure (metrics.ts). */
export const METRIC_NAMES = ['recall', 'precision', 'mrr', 'ndcg', 'map'] as const;
export const MetricNameSchema = z.enum(METRIC_NAMES);
export type MetricName = z.infer<typeof MetricNameSchema>;

/** Families that mean nothing without a cutoff (trec_eval's `P_k`, `recall_k`, `ndcg_cut_k`). */
export const METRICS_NEEDING_K: readonly MetricName[] = ['recall', 'precision', 'ndcg'];

/** The largest cutoff accepted; far past any corpus Assay ranks in full. */
export const MAX_METRIC_K = 10_000;

export const MetricSpecSchema = z.object({
  name: MetricNameSchema,
  /** The cutoff (`@k`), or null for the whole ranking (`mrr`, `map`). */
  k: z.number().int().positive().nullable(),
  /** The canonical label, `name` or `name@k` (`ndcg@10`, `mrr`): the key of every score. */
  label: z.string(),
});
export type MetricSpec = z.infer<typeof MetricSpecSchema>;

export const RetrievalModelRefSchema = z.object({
  /** An Assay model id (`openai:text-embedding-3-small`, `custom:…`). */
  id: z.string().min(1),
  /** How the author named it: a `models:` id, a single `model: { registry_name }` or `model: { path }`. */
  written: z.enum(['id', 'registry_name', 'path']).default('id'),
});
export type RetrievalModelRef = z.infer<typeof RetrievalModelRefSchema>;

export const RetrievalThresholdsSchema = z.object({
  /** Minimum per metric label: below it fails. */
  min: z.record(z.string(), z.number()),
  /** Within [min, min + warnMargin) warns; 0 when not written. */
  warnMargin: z.number().min(0),
});
export type RetrievalThresholds = z.infer<typeof RetrievalThresholdsSchema>;

export const RetrievalBlockSchema = z.object({
  /** Paths as written, relative to the blueprint file's directory (`loadRetrievalFiles` resolves them). */
  corpus: z.string().min(1),
  queries: z.string().min(1),
  qrels: z.string().min(1),
  metrics: z.array(MetricSpecSchema).min(1),
  models: z.array(RetrievalModelRefSchema),
  thresholds: RetrievalThresholdsSchema.nullable(),
  /** A label of `metrics`; the first metric when not written. */
  primaryMetric: z.string(),
});
export type RetrievalBlock = z.infer<typeof RetrievalBlockSchema>;

export type ParsedMetric = { ok: true; metric: MetricSpec } | { ok: false; error: string; hint: string };

const GRAMMAR_HINT = 'Write a metric as `<name>` or `<name>@<k>`: recall@k, precision@k, ndcg@k, mrr, mrr@k, map, map@k (e.g. `ndcg@10`).';

/**
 * `ndcg@10` → `{ name: 'ndcg', k: 10, label: 'ndcg@10' }`. Case and spaces around `@` are
 * forgiven; the label is always the canonical lower-case form, so `NDCG@10` and `ndcg@10`
 * are one metric. The aliases `P@k`/`p@k` (trec_eval's `P_k`) read as precision.
 */
export function parseMetric(written: string): ParsedMetric {
  const match = /^\s*([A-Za-z_]+)\s*(?:@\s*(\S+))?\s*$/.exec(written);
  if (!match) return { ok: false, error: `\`${written}\` is not a metric`, hint: GRAMMAR_HINT };
  const alias: Record<string, MetricName> = { p: 'precision', r: 'recall', recip_rank: 'mrr', ndcg_cut: 'ndcg' };
  const lower = match[1]!.toLowerCase();
  const name = (alias[lower] ?? lower) as MetricName;
  if (!METRIC_NAMES.includes(name)) return { ok: false, error: `unknown metric \`${match[1]}\`; the metrics are ${METRIC_NAMES.join(', ')}`, hint: GRAMMAR_HINT };
  const kText = match[2];
  if (kText === undefined) {
    if (METRICS_NEEDING_K.includes(name)) return { ok: false, error: `\`${name}\` needs a cutoff: \`${name}@k\``, hint: `Write e.g. \`${name}@10\` (the top 10 documents of each ranking).` };
    return { ok: true, metric: { name, k: null, label: name } };
  }
  if (!/^\d+$/.test(kText) || Number(kText) < 1 || Number(kText) > MAX_METRIC_K) {
    return { ok: false, error: `the cutoff of \`${written.trim()}\` must be a whole number from 1 to ${MAX_METRIC_K.toLocaleString('en-US')}, not \`${kText}\``, hint: `Write e.g. \`${name}@10\`.` };
  }
  const k = Number(kText);
  return { ok: true, metric: { name, k, label: `${name}@${k}` } };
}
