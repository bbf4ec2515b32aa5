/** `assay validate` on retrieval blueprints: the three data files are checked too, at their own path:line:col. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assay, lines, tempFiles } from '../cli.testkit';

const BLUEPRINT = `title: R
retrieval:
  corpus: data/corpus.jsonl
  queries: data/queries.jsonl
  qrels: data/qrels.txt
  metrics: [ndcg@10, mrr]
  models: [openai:fake-embed-small]
`;

/** A folder with the blueprint and its three data files. */
const dataset = (corpus: string, queries: string, qrels: string) => tempFiles({ 'r.yml': BLUEPRINT, 'data/corpus.jsonl': corpus, 'data/queries.jsonl': queries, 'data/qrels.txt': qrels });
const TWO_QUERIES = '{"id": "q1", "text": "a"}\n{"id": "q2", "text": "b"}\n';

describe('assay validate (retrieval blueprints)', () => {
  it('validates the shipped example with its data files', async () => {
    const result = await assay(['validate', 'blueprints/retrieval/kitchen-search.yml']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(lines(result.stdout)).toEqual(['blueprints/retrieval/kitchen-search.yml: ok (retrieval: 50 documents, 20 queries, 42 judgements; ndcg@10, recall@5, precision@5, mrr, map; 2 models)']);
    const json = JSON.parse((await assay(['validate', '--json', 'blueprints/retrieval/kitchen-search.yml'])).stdout) as { ok: boolean; retrieval: { contentHash: string; documents: number }; blueprint: { retrieval: { primaryMetric: string } } };
    expect(json.ok).toBe(true);
    expect(json.retrieval).toMatchObject({ documents: 50, queries: 20, judgements: 42, contentHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(json.blueprint.retrieval.primaryMetric).toBe('ndcg@10');
  });

  it("reports the data files' problems at their own path:line:col; warnings for unjudged queries", async () => {
    const dir = await dataset('{"id": "d1", "text": "one"}\n{"id": "d1", "text": "two"}\n{"id": "d2", "text": "three"\n', TWO_QUERIES, 'q1 0 d1 1\nq1 0 d9 1\n');
    const broken = await assay(['validate', join(dir, 'r.yml')]);
    expect(broken.code).toBe(1);
    const out = broken.stdout;
    expect(out).toContain(`${join(dir, 'data/corpus.jsonl')}:2:8: the document id "d1" is already used at line 1`);
    expect(out).toContain(`${join(dir, 'data/corpus.jsonl')}:3:29: this line is not valid JSON`);

    const fixed = await dataset('{"id": "d1", "text": "one"}\n', TWO_QUERIES, 'q1 0 d1 1\nq1 0 d9 1\n');
    const unknown = await assay(['validate', join(fixed, 'r.yml')]);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toContain(`${join(fixed, 'data/qrels.txt')}:2:6: the document "d9" is not in data/corpus.jsonl`);
    const ok = await dataset('{"id": "d1", "text": "one"}\n', TWO_QUERIES, 'q1 0 d1 1\n');
    const warned = await assay(['validate', join(ok, 'r.yml')]);
    expect(warned.code).toBe(0);
    expect(warned.stdout).toContain(`${join(ok, 'data/queries.jsonl')}:2:1: warning: the query "q2" has no judgement`);
    expect((await assay(['validate', '--strict', join(ok, 'r.yml')])).code).toBe(1);
  });

  it('refuses a data path that leaves the repository, and a missing file, at the blueprint', async () => {
    const dir = await tempFiles({ 'bp/r.yml': BLUEPRINT.replace('data/corpus.jsonl', '../../etc/passwd') });
    const escaped = await assay(['validate', join(dir, 'bp/r.yml')]);
    expect(escaped.code).toBe(1);
    expect(escaped.stdout).toContain(`${join(dir, 'bp/r.yml')}:1:1: the corpus path "../../etc/passwd" leaves the repository`);
    expect(escaped.stdout).not.toContain('root:'); // nothing was read
    const dir2 = await tempFiles({ 'r.yml': BLUEPRINT });
    const absent = await assay(['validate', join(dir2, 'r.yml')]);
    expect(absent.code).toBe(1);
    expect(absent.stdout).toContain('the corpus file "data/corpus.jsonl" (data/corpus.jsonl) cannot be read');
  });
});
