import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { BlueprintSchema } from './schema';
import { parseBlueprint } from './parse';
import { wevalBlueprint } from './weval';
import { blueprintSourceSchema } from './source-schema';
import { errorsOf, load, loadWithWarnings, where, yaml } from './blueprint.testkit';

const SEED = yaml`
  title: bge smoke
  retrieval_config:
    corpus: Datasets/embedding/examples/corpus.jsonl     # {id, text}
    queries: Datasets/embedding/examples/queries.jsonl   # {id, text}
    qrels: Datasets/embedding/examples/qrels.jsonl        # {query_id, doc_id, relevance}
    metrics: [recall@10, mrr@10, ndcg@10]                 # "<metric>@<k>" grammar
    model: { registry_name: bge-base-en }                # or model.path to a trained adapter
    thresholds:
      min: { ndcg@10: 0.30, recall@10: 0.40 }            # below min → fail
      warn_margin: 0.05                                  # within [min, min+margin) → warn
    primary_metric: ndcg@10
`;

describe('the retrieval block (header `retrieval:` / `retrieval_config:`)', () => {
  it("reads seed 002's block as written: a retrieval blueprint with no prompts", () => {
    const { blueprint: bp, warnings } = loadWithWarnings(SEED);
    expect(warnings.map((w) => `${w.line}:${w.col} ${w.message}`)).toEqual(['7:27 `bge-base-en` names no provider; it is run as `vllm:bge-base-en` (an OpenAI-compatible server at VLLM_BASE_URL)']);
    expect(bp.prompts).toEqual([]);
    expect(bp.retrieval).toEqual({
      corpus: 'Datasets/embedding/examples/corpus.jsonl',
      queries: 'Datasets/embedding/examples/queries.jsonl',
      qrels: 'Datasets/embedding/examples/qrels.jsonl',
      metrics: [
        { name: 'recall', k: 10, label: 'recall@10' },
        { name: 'mrr', k: 10, label: 'mrr@10' },
        { name: 'ndcg', k: 10, label: 'ndcg@10' },
      ],
      models: [{ id: 'vllm:bge-base-en', written: 'registry_name' }],
      thresholds: { min: { 'ndcg@10': 0.3, 'recall@10': 0.4 }, warnMargin: 0.05 },
      primaryMetric: 'ndcg@10',
    });
  });

  it('reads `retrieval:` with a `models:` list, canonical labels, the first metric as primary and no thresholds', () => {
    const bp = load(yaml`
      retrieval:
        corpus: c.jsonl
        queries: q.jsonl
        qrels: r.txt
        metrics: [NDCG@10, map, "precision @ 5", P@3, mrr]
        models: [openai:fake-embed-large, openai:fake-embed-small, openai:fake-embed-large]
    `);
    expect(bp.retrieval!.metrics.map((m) => m.label)).toEqual(['ndcg@10', 'map', 'precision@5', 'precision@3', 'mrr']);
    expect(bp.retrieval!.models.map((m) => m.id)).toEqual(['openai:fake-embed-large', 'openai:fake-embed-small']);
    expect(bp.retrieval!.primaryMetric).toBe('ndcg@10');
    expect(bp.retrieval!.thresholds).toBeNull();
  });

  it("takes the header's `models:` when the block names none; a `model: { path }` warns that Assay loads no weights", () => {
    expect(load('models: [openai:text-embedding-3-small]\nretrieval: { corpus: c, queries: q, qrels: r, metrics: [map] }\n').retrieval!.models).toEqual([{ id: 'openai:text-embedding-3-small', written: 'id' }]);
    const { blueprint, warnings } = loadWithWarnings('retrieval: { corpus: c, queries: q, qrels: r, metrics: [map], model: { path: adapters/mine } }\n');
    expect(blueprint.retrieval!.models).toEqual([{ id: 'custom:adapters/mine', written: 'path' }]);
    expect(where(warnings)).toEqual(['1:78 suspicious']);
  });

  it('reports every mistake at its line and column, with the fix', () => {
    const errors = errorsOf(yaml`
      retrieval:
        corpus: /etc/passwd
        qrels: 7
        metrics: [recall, foo@3, ndcg@0, map, map, ndcg@x]
        models: openai:x
        thresholds:
          min: { mrr: 0.2, map: 1.5 }
          warn_margin: -1
          extra: 1
        primary_metric: recall@10
        k: 10
    `);
    expect(errors.map((e) => `${e.line}:${e.col} ${e.message}`)).toEqual([
      '1:1 `retrieval` needs `queries`: the path of the queries (JSONL `{id, text}`), relative to this file',
      '2:11 `corpus` must be a path relative to this blueprint in the repository, not "/etc/passwd"',
      '3:10 `qrels` must be a path (a string), not the number 7',
      '4:13 `recall` needs a cutoff: `recall@k`',
      '4:21 unknown metric `foo`; the metrics are recall, precision, mrr, ndcg, map',
      '4:28 the cutoff of `ndcg@0` must be a whole number from 1 to 10,000, not `0`',
      '4:41 `map` is listed twice (first at line 4:36)',
      '4:46 the cutoff of `ndcg@x` must be a whole number from 1 to 10,000, not `x`',
      '5:11 `models` must be a list of embedding model ids, not a string',
      '7:12 a threshold for `mrr`, which is not in `metrics`',
      '7:27 the minimum for `map` must be a number from 0 to 1, not the number 1.5',
      '8:18 `warn_margin` must be a number from 0 to 1, not the number -1',
      '9:5 unknown field `extra` in `thresholds`',
      '10:19 `primary_metric` `recall@10` is not in `metrics` (map)',
      '11:3 unknown field `k` in `retrieval`',
    ]);
    expect(errors.every((e) => e.hint.length > 0)).toBe(true);
  });

  it('rejects a block with prompts too, both spellings at once, and a block with no model anywhere', () => {
    const mixed = errorsOf('retrieval: { corpus: c, queries: q, qrels: r, metrics: [map], models: [openai:e] }\nprompts:\n  - prompt: hi\n');
    expect(mixed[0]!.message).toMatch(/has no prompts; this file also has 1 prompt$/);
    expect(where(mixed)).toEqual(['3:5 schema']);
    const both = errorsOf('retrieval: { corpus: c, queries: q, qrels: r, metrics: [map], models: [openai:e] }\nretrieval_config: { corpus: c }\n');
    expect(where(both)).toEqual(['2:1 schema']);
    expect(errorsOf('retrieval: { corpus: c, queries: q, qrels: r, metrics: [map] }\n')[0]!.message).toBe('`retrieval` names no embedding model');
  });

  it('is null on every other blueprint, and on versions stored before the field existed', () => {
    const { retrieval, ...old } = load('- prompt: q\n');
    expect(retrieval).toBeNull();
    expect(BlueprintSchema.parse(old).retrieval).toBeNull();
  });

  it('is in the JSON Schema editors check against: the seed block passes, a misspelt field does not', () => {
    const schema = blueprintSourceSchema();
    expect(schema.safeParse(parse(SEED)).success).toBe(true);
    expect(schema.safeParse({ retrieval: { corpus: 'c', queries: 'q', qrels: 'r', metrics: ['map'], model: 'openai:e' } }).success).toBe(true);
    expect(schema.safeParse({ retrieval: { corpus: 'c', queries: 'q', qrels: 'r', metrics: ['map'], primary: 'map' } }).success).toBe(false);
    expect(schema.safeParse({ retrieval: { corpus: 'c', queries: 'q', qrels: 'r', metrics: ['ndcg at 10'] } }).success).toBe(false);
  });

  it('survives an export in its written form, which loads back to the same block', () => {
    const bp = load(SEED);
    const exported = wevalBlueprint(bp);
    expect(exported.retrieval_config).toEqual({ corpus: bp.retrieval!.corpus, queries: bp.retrieval!.queries, qrels: bp.retrieval!.qrels, metrics: ['recall@10', 'mrr@10', 'ndcg@10'], models: ['vllm:bge-base-en'], thresholds: { min: { 'ndcg@10': 0.3, 'recall@10': 0.4 }, warn_margin: 0.05 }, primary_metric: 'ndcg@10' });
    const back = parseBlueprint(JSON.stringify(exported), { file: 'x.json' });
    expect(back.ok && back.blueprint.retrieval).toEqual({ ...bp.retrieval, models: [{ id: 'vllm:bge-base-en', written: 'id' }] });
  });
});
