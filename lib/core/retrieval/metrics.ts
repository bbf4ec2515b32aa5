/**
 * Retrieval metrics exactly as trec_eval 9 computes them (usnistgov/trec_eval), so a figure
 * from Assay and one from trec_eval on the same run and qrels agree:
 *
 *   - Ranking (form_res_rels.c, `comp_sim_docno`): by score descending; equal scores by docno
 *     in DEscending byte order (`strcmp(p2->docno, p1->docno)`). The rank column of a run file is
 *     ignored, as trec_eval ignores it. A document listed twice for one query is an error there;
 *     `parseTrecRun` reports it.
 *   - Relevant: relevance ≥ 1 (trec_eval's default `-l 1`); relevance 0 and negative values
 *     (trec_eval's "in the pool but unjudged") are not relevant; a retrieved document absent
 *     from the qrels is not relevant.
 *   - recall@k (`recall_k`): relevant in the top k / relevant in the qrels (0 when none).
 *   - precision@k (`P_k`): relevant in the top k / k, even when fewer than k were retrieved.
 *   - mrr (`recip_rank`): 1 / rank of the first relevant document, 0 when none was retrieved;
 *     mrr@k is the same over the top k only (trec_eval's `recip_rank` with `-M k`).
 *   - map (`map`): the mean, over the query's relevant documents, of the precision at each one's
 *     rank (0 for those not retrieved); map@k (`map_cut_k`): only ranks ≤ k count, still divided
 *     by every relevant document.
 *   - ndcg@k (`ndcg_cut_k`): gain = the relevance value (graded; ≤ 0 gains nothing), discount
 *     log2(rank + 1), divided by the DCG of the ideal ranking of the query's judged documents
 *     (all of them by gain, cut at k); 0 when the ideal is 0.
 *   - The mean (trec_eval's default, without `-c`): over the queries that have both judgements
 *     and a ranking. A query that is judged but has no relevant document is averaged in (its
 *     values are 0); a query with a ranking but no judgements, or judgements but no ranking,
 *     is left out. `scoreRankings` reports the latter two in `skipped` so a caller can say so.
 */
import type { MetricSpec } from './block';
import type { Qrel } from './files';

export interface RankedDoc {
  docId: string;
  score: number;
}

export interface RetrievalScores {
  /** Per metric label, the mean over the queries of `queries`; empty when no query counts. */
  overall: Record<string, number>;
  /** Per query id, per metric label. Only queries that count in the mean. */
  queries: Record<string, Record<string, number>>;
  /** Queries left out of the mean, as trec_eval leaves them out. */
  skipped: { unjudged: string[]; unranked: string[] };
}

/** trec_eval's relevance level: a document is relevant at relevance ≥ 1. */
export const RELEVANCE_LEVEL = 1;

/**
 * `strcmp` order (UTF-8 bytes, i.e. code points), not JavaScript's UTF-16 code-unit order. The
 * two differ only where a surrogate (U+D800–DFFF, half of a character above U+FFFF) meets a
 * unit from U+E000–FFFF: the surrogate's character is the larger. Compared unit by unit with
 * that one fix, so the common ASCII docno costs what `<` costs.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x <= 0xdfff ? x + 0x2000 : x - 0x800;
      y = y <= 0xdfff ? y + 0x2000 : y - 0x800;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** trec_eval's order: score descending, then docno descending. A new array. */
export function rankDocuments(docs: readonly RankedDoc[]): RankedDoc[] {
  return [...docs].sort((a, b) => (a.score > b.score ? -1 : a.score < b.score ? 1 : compareCodePoints(b.docId, a.docId)));
}

/**
 * How deep a ranking must go for these metrics to be exact: the largest cutoff, or null when
 * a metric reads the whole ranking (`mrr`, `map` without `@k`: trec_eval scores every retrieved
 * document). A search that returns fewer documents than this changes the figures.
 */
export function rankingDepth(metrics: readonly MetricSpec[]): number | null {
  let depth = 0;
  for (const m of metrics) {
    if (m.k === null) return null;
    depth = Math.max(depth, m.k);
  }
  return depth;
}

/** One query's judgements: docId → relevance. */
export type QueryJudgements = Map<string, number>;

/** Qrels grouped by query, in order of first appearance. */
export function judgementsByQuery(qrels: readonly Qrel[]): Map<string, QueryJudgements> {
  const out = new Map<string, QueryJudgements>();
  for (const q of qrels) {
    let judged = out.get(q.queryId);
    if (!judged) out.set(q.queryId, (judged = new Map()));
    judged.set(q.docId, q.relevance);
  }
  return out;
}

/**
 * One query's value of one metric; `ranked` must already be in trec_eval's order
 * (`rankDocuments`). Pure arithmetic over the relevance of each rank.
 */
export function metricValue(metric: MetricSpec, ranked: readonly RankedDoc[], judged: QueryJudgements): number {
  const depth = metric.k === null ? ranked.length : Math.min(metric.k, ranked.length);
  const rel = (i: number) => judged.get(ranked[i]!.docId) ?? 0;
  const isRelevant = (i: number) => rel(i) >= RELEVANCE_LEVEL;
  let numRel = 0;
  for (const r of judged.values()) if (r >= RELEVANCE_LEVEL) numRel++;

  switch (metric.name) {
    case 'precision': {
      let hits = 0;
      for (let i = 0; i < depth; i++) if (isRelevant(i)) hits++;
      return hits / metric.k!;
    }
    case 'recall': {
      if (numRel === 0) return 0;
      let hits = 0;
      for (let i = 0; i < depth; i++) if (isRelevant(i)) hits++;
      return hits / numRel;
    }
    case 'mrr': {
      for (let i = 0; i < depth; i++) if (isRelevant(i)) return 1 / (i + 1);
      return 0;
    }
    case 'map': {
      if (numRel === 0) return 0;
      let hits = 0;
      let sum = 0;
      for (let i = 0; i < depth; i++) {
        if (!isRelevant(i)) continue;
        hits++;
        sum += hits / (i + 1);
      }
      return sum / numRel;
    }
    case 'ndcg': {
      const k = metric.k!;
      let dcg = 0;
      for (let i = 0; i < depth; i++) {
        const gain = rel(i);
        if (gain > 0) dcg += gain / Math.log2(i + 2);
      }
      const ideal = [...judged.values()].filter((g) => g > 0).sort((a, b) => b - a);
      let idcg = 0;
      for (let i = 0; i < Math.min(k, ideal.length); i++) idcg += ideal[i]! / Math.log2(i + 2);
      return idcg > 0 ? dcg / idcg : 0;
    }
  }
}

/**
 * Every metric for every query that has both judgements and a ranking, and their means.
 * `rankings` need not be sorted: each is put in trec_eval's order here.
 */
export function scoreRankings(qrels: readonly Qrel[], rankings: Record<string, readonly RankedDoc[]>, metrics: readonly MetricSpec[]): RetrievalScores {
  const judgements = judgementsByQuery(qrels);
  const queries: Record<string, Record<string, number>> = {};
  const sums: Record<string, number> = Object.fromEntries(metrics.map((m) => [m.label, 0]));
  const unranked: string[] = [];
  let counted = 0;
  for (const [queryId, judged] of judgements) {
    const docs = Object.hasOwn(rankings, queryId) ? rankings[queryId] : undefined;
    if (!docs) {
      unranked.push(queryId);
      continue;
    }
    const ranked = rankDocuments(docs);
    const values: Record<string, number> = {};
    for (const m of metrics) {
      values[m.label] = metricValue(m, ranked, judged);
      sums[m.label]! += values[m.label]!;
    }
    queries[queryId] = values;
    counted++;
  }
  // No query with both judgements and a ranking: no mean (trec_eval stops: "No queries with
  // both results and relevance info"); an empty `overall`, never a 0 that looks like a score.
  const overall: Record<string, number> = {};
  if (counted > 0) for (const m of metrics) overall[m.label] = sums[m.label]! / counted;
  const unjudged = Object.keys(rankings).filter((id) => !judgements.has(id));
  return { overall, queries, skipped: { unjudged, unranked } };
}
