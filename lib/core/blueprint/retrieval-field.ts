/**
 * Reads the `retrieval:` header block (alias `retrieval_config`; docs/retrieval.md) from its YAML
 * node into `RetrievalBlock` (lib/core/retrieval/block.ts), with every mistake an error at the
 * line and column of the value concerned:
 *
 *   retrieval:
 *     corpus: data/corpus.jsonl          # paths relative to this blueprint file
 *     queries: data/queries.jsonl
 *     qrels: data/qrels.jsonl            # or TREC qrels text
 *     metrics: [ndcg@10, recall@10, mrr] # "<metric>@<k>"
 *     models: [openai:text-embedding-3-small]   # or a single `model: { registry_name }` / `model: { path }`
 *     thresholds: { min: { ndcg@10: 0.3 }, warn_margin: 0.05 }
 *     primary_metric: ndcg@10            # default: the first metric
 *
 * Models: `models:` (a list of ids) and a single `model:` (an id, `{ registry_name }`
 * or `{ path }`) may both be written; they are merged in that order. With neither, the header's
 * `models:` ids are used. A bare registry name (no `provider:`) reads as `vllm:<name>` (a
 * self-hosted OpenAI-compatible server), with a warning that says how to choose another; a path
 * reads as `custom:<path>`: Assay does not load model weights itself, so a warning says the
 * run needs an endpoint serving it.
 */
import { METRIC_NAMES, parseMetric, type MetricSpec, type RetrievalBlock, type RetrievalModelRef, type RetrievalThresholds } from '../retrieval/block';
import type { Issues } from './errors';
import { describe, entry, get, getFirst, isNull, str, type YMap, type YNode } from './positions';
import { HEADER_FIELDS } from './vocabulary';
import type { ModelRef, SourceLoc } from './schema';
import { closest } from '../points/suggest';

export const RETRIEVAL_KEYS = HEADER_FIELDS.retrieval.spellings;
const BLOCK_KEYS = ['corpus', 'queries', 'qrels', 'metrics', 'models', 'model', 'thresholds', 'primary_metric'] as const;
const EXAMPLE = 'retrieval:\\n  corpus: corpus.jsonl\\n  queries: queries.jsonl\\n  qrels: qrels.jsonl\\n  metrics: [ndcg@10, recall@10, mrr]\\n  models: [openai:text-embedding-3-small]';

/** The block, or null when the header has none (or it is broken: the errors are in `issues`). */
export function retrievalBlockOf(header: YMap, headerModels: readonly ModelRef[], issues: Issues): RetrievalBlock | null {
  const found = getFirst(header, RETRIEVAL_KEYS);
  if (!found || isNull(found.node)) return null;
  const other = RETRIEVAL_KEYS.find((key) => key !== found.key && get(header, key));
  if (other) {
    issues.error(entry(header, other)!.keyNode.loc, 'schema', `both \`${found.key}\` and \`${other}\` are written; they are one block`, `Keep one of them (\`${HEADER_FIELDS.retrieval.name}:\` is Assay's spelling).`);
    return null;
  }
  const node = found.node;
  if (node.kind !== 'map') {
    issues.error(node.loc, 'schema', `\`${found.key}\` must be a mapping, not ${describe(node)}`, `Write \`${EXAMPLE}\`.`);
    return null;
  }
  const before = issues.errorCount;
  for (const e of node.entries) {
    if ((BLOCK_KEYS as readonly string[]).includes(e.key)) continue;
    const near = closest(e.key, [...BLOCK_KEYS, 'warn_margin']);
    issues.error(e.keyNode.loc, 'schema', `unknown field \`${e.key}\` in \`${found.key}\`${near.length ? `; did you mean \`${near[0]}\`?` : ''}`, `The fields are ${BLOCK_KEYS.join(', ')}.`);
  }
  // A missing field is reported at the block's key, where the author reads the block from.
  const at = entry(header, found.key)!.keyNode.loc;
  const corpus = pathOf(node, 'corpus', found.key, at, issues);
  const queries = pathOf(node, 'queries', found.key, at, issues);
  const qrels = pathOf(node, 'qrels', found.key, at, issues);
  // The metrics that did parse are still checked against the thresholds and primary_metric,
  // so one run of `assay validate` shows every mistake; a broken list still rejects the block.
  const metrics = metricsOf(node, found.key, at, issues);
  const models = modelsOf(node, headerModels, found.key, at, issues);
  const thresholds = thresholdsOf(get(node, 'thresholds'), metrics, issues);
  const primaryMetric = primaryOf(get(node, 'primary_metric'), metrics, issues);
  if (issues.errorCount > before || !corpus || !queries || !qrels || !metrics || primaryMetric === null) return null;
  return { corpus, queries, qrels, metrics, models, thresholds, primaryMetric };
}

function pathOf(block: YMap, key: 'corpus' | 'queries' | 'qrels', blockKey: string, at: SourceLoc, issues: Issues): string | null {
  const node = get(block, key);
  const example = { corpus: 'corpus.jsonl', queries: 'queries.jsonl', qrels: 'qrels.jsonl' }[key];
  if (isNull(node)) {
    issues.error(node?.loc ?? at, 'schema', `\`${blockKey}\` needs \`${key}\`: the path of the ${key === 'corpus' ? 'corpus (JSONL `{id, text}`)' : key === 'queries' ? 'queries (JSONL `{id, text}`)' : 'relevance judgements (JSONL `{query_id, doc_id, relevance}` or TREC qrels)'}, relative to this file`, `Add \`${key}: ${example}\`.`);
    return null;
  }
  const value = str(node)?.trim();
  if (!value) {
    issues.error(node!.loc, 'schema', `\`${key}\` must be a path (a string), not ${describe(node!)}`, `Write \`${key}: ${example}\`.`);
    return null;
  }
  if (value.startsWith('/') || /^[a-z]+:\/\//i.test(value) || /^[A-Za-z]:[\\/]/.test(value)) {
    issues.error(node!.loc, 'schema', `\`${key}\` must be a path relative to this blueprint in the repository, not ${JSON.stringify(value)}`, `Write e.g. \`${key}: data/${example}\` (the file is synced with the blueprint).`);
    return null;
  }
  return value;
}

function metricsOf(block: YMap, blockKey: string, at: SourceLoc, issues: Issues): MetricSpec[] | null {
  const node = get(block, 'metrics');
  if (isNull(node)) {
    issues.error(node?.loc ?? at, 'schema', `\`${blockKey}\` needs \`metrics\`: the list of metrics to compute`, 'Add e.g. `metrics: [ndcg@10, recall@10, mrr]`.');
    return null;
  }
  const items = node!.kind === 'seq' ? node!.items : [node!];
  if (items.length === 0) {
    issues.error(node!.loc, 'schema', '`metrics` is empty', 'List at least one, e.g. `metrics: [ndcg@10]`.');
    return null;
  }
  const out: MetricSpec[] = [];
  const written = new Map<string, YNode>();
  for (const item of items) {
    const text = item.kind === 'scalar' && item.value !== null && typeof item.value !== 'boolean' ? String(item.value) : undefined;
    if (text === undefined) {
      issues.error(item.loc, 'schema', `a metric must be written as text such as \`ndcg@10\`, not ${describe(item)}`, `The metrics are ${METRIC_NAMES.join(', ')}, with \`@k\`.`);
      continue;
    }
    const parsed = parseMetric(text);
    if (!parsed.ok) {
      issues.error(item.loc, 'schema', parsed.error, parsed.hint);
      continue;
    }
    const first = written.get(parsed.metric.label);
    if (first) {
      issues.error(item.loc, 'schema', `\`${parsed.metric.label}\` is listed twice (first at line ${first.loc.line}:${first.loc.col})`, 'List each metric once.');
      continue;
    }
    written.set(parsed.metric.label, item);
    out.push(parsed.metric);
  }
  return out.length > 0 ? out : null;
}

function idModel(item: YNode, written: RetrievalModelRef['written'], issues: Issues): RetrievalModelRef | null {
  const id = str(item)?.trim();
  if (!id) {
    issues.error(item.loc, 'schema', `an embedding model must be an id such as \`openai:text-embedding-3-small\`, not ${describe(item)}`, 'Write e.g. `models: [openai:text-embedding-3-small]`.');
    return null;
  }
  if (!id.includes(':')) {
    // A name without a provider (`bge-base-en`) comes from another tool's model registry; Assay has
    // none, and such models are served self-hosted, so the name is run on the OpenAI-compatible
    // vLLM provider.
    issues.warn(item.loc, 'suspicious', `\`${id}\` names no provider; it is run as \`vllm:${id}\` (an OpenAI-compatible server at VLLM_BASE_URL)`, `Write the provider to choose another, e.g. \`openai:${id}\`, \`ollama:${id}\` or \`together:${id}\`.`);
    return { id: `vllm:${id}`, written };
  }
  return { id, written };
}

/** The single `model:` value (docs/retrieval.md): an id, `{ registry_name }` or `{ path }`. */
function singleModel(node: YNode, issues: Issues): RetrievalModelRef | null {
  if (node.kind === 'scalar') return idModel(node, 'id', issues);
  if (node.kind === 'map') {
    const registry = get(node, 'registry_name');
    const path = get(node, 'path');
    const extra = node.entries.find((e) => e.key !== 'registry_name' && e.key !== 'path');
    if (extra) {
      issues.error(extra.keyNode.loc, 'schema', `unknown field \`${extra.key}\` in \`model\``, 'Write `model: { registry_name: bge-base-en }` or `model: { path: adapters/my-model }`.');
      return null;
    }
    if (registry && path) {
      issues.error(node.loc, 'schema', '`model` has both `registry_name` and `path`; it names one model', 'Keep one of them, or list several models under `models:`.');
      return null;
    }
    if (registry) return idModel(registry, 'registry_name', issues);
    const p = str(path)?.trim();
    if (path && p) {
      issues.warn(path.loc, 'suspicious', `Assay does not load model weights: \`${p}\` is run as the model \`custom:${p}\`, which needs an endpoint serving it`, 'Serve the model over an OpenAI-compatible /v1/embeddings endpoint and name it by id, e.g. `models: [openai:my-model]`.');
      return { id: `custom:${p}`, written: 'path' };
    }
  }
  issues.error(node.loc, 'schema', `\`model\` must be a model id, \`{ registry_name: … }\` or \`{ path: … }\`, not ${describe(node)}`, 'Write e.g. `model: { registry_name: bge-base-en }`, or `models: [openai:text-embedding-3-small]`.');
  return null;
}

function modelsOf(block: YMap, headerModels: readonly ModelRef[], blockKey: string, at: SourceLoc, issues: Issues): RetrievalModelRef[] {
  const out: RetrievalModelRef[] = [];
  const list = get(block, 'models');
  if (!isNull(list)) {
    if (list!.kind !== 'seq') issues.error(list!.loc, 'schema', `\`models\` must be a list of embedding model ids, not ${describe(list!)}`, 'Write e.g. `models: [openai:text-embedding-3-small, openai:text-embedding-3-large]`.');
    else for (const item of list!.items) {
      const m = idModel(item, 'id', issues);
      if (m) out.push(m);
    }
  }
  const single = get(block, 'model');
  if (!isNull(single)) {
    const m = singleModel(single!, issues);
    if (m) out.push(m);
  }
  if (isNull(list) && isNull(single)) {
    for (const m of headerModels) if (m.kind === 'id') out.push({ id: m.id, written: 'id' });
    if (out.length === 0) issues.error(at, 'schema', `\`${blockKey}\` names no embedding model`, 'Add `models: [openai:text-embedding-3-small]` (or a single `model: { registry_name: … }`).');
  }
  const seen = new Set<string>();
  return out.filter((m) => (seen.has(m.id) ? false : (seen.add(m.id), true)));
}

function thresholdsOf(node: YNode | undefined, metrics: MetricSpec[] | null, issues: Issues): RetrievalThresholds | null {
  if (isNull(node)) return null;
  const hint = 'Write `thresholds: { min: { ndcg@10: 0.30 }, warn_margin: 0.05 }` (below min fails; within [min, min + warn_margin) warns).';
  if (node!.kind !== 'map') {
    issues.error(node!.loc, 'schema', `\`thresholds\` must be a mapping, not ${describe(node!)}`, hint);
    return null;
  }
  for (const e of node!.entries) if (e.key !== 'min' && e.key !== 'warn_margin') issues.error(e.keyNode.loc, 'schema', `unknown field \`${e.key}\` in \`thresholds\``, hint);
  const min: Record<string, number> = {};
  const minNode = get(node!, 'min');
  if (isNull(minNode) || minNode!.kind !== 'map') {
    issues.error((minNode ?? node!).loc, 'schema', '`thresholds` needs `min`: a mapping from metric to its minimum', hint);
  } else {
    for (const e of minNode!.entries) {
      const parsed = parseMetric(e.key);
      if (!parsed.ok) {
        issues.error(e.keyNode.loc, 'schema', `threshold for ${parsed.error}`, parsed.hint);
        continue;
      }
      if (metrics && !metrics.some((m) => m.label === parsed.metric.label)) {
        issues.error(e.keyNode.loc, 'schema', `a threshold for \`${parsed.metric.label}\`, which is not in \`metrics\``, `Add \`${parsed.metric.label}\` to \`metrics\`, or remove its threshold.`);
        continue;
      }
      const v = e.value;
      if (v.kind !== 'scalar' || typeof v.value !== 'number' || v.value < 0 || v.value > 1) {
        issues.error(v.loc, 'schema', `the minimum for \`${parsed.metric.label}\` must be a number from 0 to 1, not ${describe(v)}`, hint);
        continue;
      }
      min[parsed.metric.label] = v.value;
    }
  }
  const margin = get(node!, 'warn_margin');
  let warnMargin = 0;
  if (!isNull(margin)) {
    if (margin!.kind === 'scalar' && typeof margin!.value === 'number' && margin!.value >= 0 && margin!.value <= 1) warnMargin = margin!.value;
    else issues.error(margin!.loc, 'schema', `\`warn_margin\` must be a number from 0 to 1, not ${describe(margin!)}`, hint);
  }
  return { min, warnMargin };
}

function primaryOf(node: YNode | undefined, metrics: MetricSpec[] | null, issues: Issues): string | null {
  if (!metrics) return isNull(node) ? null : str(node) ?? null;
  if (isNull(node)) return metrics[0]!.label;
  const text = node!.kind === 'scalar' && typeof node!.value === 'string' ? node!.value : undefined;
  const parsed = text === undefined ? null : parseMetric(text);
  if (!parsed?.ok) {
    issues.error(node!.loc, 'schema', `\`primary_metric\` must be one of \`metrics\` (${metrics.map((m) => m.label).join(', ')}), not ${text === undefined ? describe(node!) : JSON.stringify(text)}`, `Write e.g. \`primary_metric: ${metrics[0]!.label}\`.`);
    return null;
  }
  if (!metrics.some((m) => m.label === parsed.metric.label)) {
    issues.error(node!.loc, 'schema', `\`primary_metric\` \`${parsed.metric.label}\` is not in \`metrics\` (${metrics.map((m) => m.label).join(', ')})`, `Add it to \`metrics\`, or write one of them.`);
    return null;
  }
  return parsed.metric.label;
}
