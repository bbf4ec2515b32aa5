/**
 * `assay retrieval score`: scores a ranking made anywhere (a TREC run file) against TREC or
 * JSONL qrels with the metrics a retrieval blueprint uses, computed as trec_eval computes them
 * (lib/core/retrieval/metrics.ts), so figures from Assay and from other tools can be compared.
 * Reads only the two files: no database, no provider.
 */
import { readFile } from 'node:fs/promises';
import { formatIssue, parseMetric, parseTrecQrels, parseTrecRun, scoreRankings, type MetricSpec, type RetrievalScores } from '@/lib/core';
import { parseCommandArgs, usageError } from './usage';

const DEFAULT_METRICS = 'map,mrr,ndcg@10,recall@10,precision@10';

const USAGE = `usage: assay retrieval score --qrels FILE --run FILE [--metrics LIST] [--per-query] [--json]

Scores a TREC run file (qid Q0 docid rank score tag) against qrels (TREC text "qid 0 docid rel",
or JSONL {"query_id", "doc_id", "relevance"}) exactly as trec_eval does: documents ranked by score
(ties by docid, descending), relevance >= 1 relevant, the mean over the queries that are both
judged and ranked.
  --qrels FILE      the relevance judgements
  --run FILE        the ranking to score
  --metrics LIST    comma-separated: recall@k, precision@k, ndcg@k, mrr, mrr@k, map, map@k
                    (default ${DEFAULT_METRICS})
  --per-query       also each query's figures
  --json            print {"overall": {metric: value}, "queries": {qid: {metric: value}}}
                    ("queries" with --per-query only)
Exit status: 0 when scored, 1 when a file is invalid or no query is both judged and ranked, 2 on usage errors.`;

export async function retrievalCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'score') return scoreCommand(rest);
  if (sub === undefined) return usageError('retrieval', 'name a subcommand (score)', USAGE);
  if (sub === '--help' || sub === '-h') {
    console.log(USAGE);
    return 0;
  }
  return usageError('retrieval', `unknown subcommand "${sub}"`, USAGE);
}

async function scoreCommand(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs('retrieval score', USAGE, argv, {
    options: { qrels: { type: 'string' }, run: { type: 'string' }, metrics: { type: 'string' }, 'per-query': { type: 'boolean' }, json: { type: 'boolean' } },
  });
  if (typeof parsed === 'number') return parsed;
  const { qrels: qrelsPath, run: runPath, json, 'per-query': perQuery } = parsed.values;
  if (!qrelsPath) return usageError('retrieval score', 'give the qrels with --qrels FILE', USAGE);
  if (!runPath) return usageError('retrieval score', 'give the run with --run FILE', USAGE);

  const metrics: MetricSpec[] = [];
  for (const written of (parsed.values.metrics ?? DEFAULT_METRICS).split(',').filter((m) => m.trim() !== '')) {
    const metric = parseMetric(written);
    if (!metric.ok) return usageError('retrieval score', `--metrics: ${metric.error}`, USAGE);
    if (!metrics.some((m) => m.label === metric.metric.label)) metrics.push(metric.metric);
  }
  if (metrics.length === 0) return usageError('retrieval score', '--metrics names no metric', USAGE);

  const texts = await Promise.all([qrelsPath, runPath].map((path) => readFile(path, 'utf8').catch((e: NodeJS.ErrnoException) => new Error(`${path}: cannot be read (${e.code ?? e.message})`))));
  const unreadable = texts.filter((t): t is Error => t instanceof Error);
  if (unreadable.length > 0) {
    for (const e of unreadable) console.error(`assay retrieval score: ${e.message}`);
    return 1;
  }
  const qrels = parseTrecQrels(texts[0] as string, qrelsPath);
  const run = parseTrecRun(texts[1] as string, runPath);
  const issues = [...(qrels.ok ? [] : qrels.issues), ...(run.ok ? [] : run.issues)];
  if (!qrels.ok || !run.ok) {
    for (const issue of issues) console.error(formatIssue(issue));
    return 1;
  }
  const scores = scoreRankings(qrels.qrels, run.rankings, metrics);
  if (Object.keys(scores.queries).length === 0) {
    console.error(`assay retrieval score: no query is both in ${qrelsPath} and in ${runPath} (as trec_eval: "No queries with both results and relevance info")`);
    return 1;
  }
  reportSkipped(scores, qrelsPath, runPath);
  if (json) console.log(JSON.stringify(perQuery ? { overall: scores.overall, queries: scores.queries } : { overall: scores.overall }));
  else console.log(table(scores, metrics, perQuery === true));
  return 0;
}

/** Said on stderr, so --json stays one parseable line: which queries trec_eval would leave out too. */
function reportSkipped(scores: RetrievalScores, qrelsPath: string, runPath: string): void {
  const { unjudged, unranked } = scores.skipped;
  const list = (ids: string[]) => `${ids.slice(0, 5).join(', ')}${ids.length > 5 ? `, … (${ids.length})` : ''}`;
  if (unjudged.length > 0) console.error(`note: ${unjudged.length} quer${unjudged.length === 1 ? 'y' : 'ies'} of ${runPath} not in ${qrelsPath}, left out of the mean: ${list(unjudged)}`);
  if (unranked.length > 0) console.error(`note: ${unranked.length} quer${unranked.length === 1 ? 'y' : 'ies'} of ${qrelsPath} not in ${runPath}, left out of the mean (trec_eval without -c): ${list(unranked)}`);
}

/** trec_eval's layout: `measure <tab> query|all <tab> value`, 4 decimals; per-query lines first. */
function table(scores: RetrievalScores, metrics: MetricSpec[], perQuery: boolean): string {
  const width = Math.max(...metrics.map((m) => m.label.length));
  const rows: string[] = [];
  if (perQuery) for (const [qid, values] of Object.entries(scores.queries)) for (const m of metrics) rows.push(`${m.label.padEnd(width)}\t${qid}\t${values[m.label]!.toFixed(4)}`);
  for (const m of metrics) rows.push(`${m.label.padEnd(width)}\tall\t${scores.overall[m.label]!.toFixed(4)}`);
  return rows.join('\n');
}
