/**
 * `assay run` on the example retrieval blueprint (blueprints/retrieval/kitchen-search.yml), as a
 * user runs it: a child process on a real database against the fake provider's embeddings. On
 * the PostgreSQL server the search is exact, on PGlite it is pgvector's: the rankings it stores
 * are held to one file both projects check, and the --json document to what the pages read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoredRankingSchema } from '@/lib/core';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { assay as runAssay, REPO_ROOT } from '@/lib/cli/cli.testkit';
import { freshDatabase, type TestDatabase } from '@/lib/server/db/db.testkit';

let t: TestDatabase;
let fake: FakeLlm;
let dir: string;

const EXAMPLE = 'blueprints/retrieval/kitchen-search.yml';
const assay = (args: string[]) => runAssay(args, undefined, { DATABASE_URL: t.url, ASSAY_LLM_BASE_URL: fake.url, ASSAY_PUBLIC_URL: 'http://assay.test' });

beforeAll(async () => {
  [t, fake] = await Promise.all([freshDatabase(), startFakeLlm()]);
  dir = await mkdtemp(join(tmpdir(), 'assay-retrieval-'));
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

describe(`assay run on a retrieval blueprint (${process.env.ASSAY_TEST_DB})`, () => {
  it('embeds, ranks and scores the example, prints each model’s metrics with intervals and ladder, and writes --json', { timeout: 120_000 }, async () => {
    const r = await assay(['run', EXAMPLE, '--json', '-', '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { run: { id: string; kind: string; status: string; texts: { done: number; total: number }; costUsd: number }; primaryMetric: string; models: { modelId: string; ladder: string | null; metrics: { metric: string; value: number; interval: { low: number; high: number; method: string } | null; status: string | null; primary: boolean }[] }[] };
    expect(doc.run).toMatchObject({ kind: 'retrieval', status: 'completed' });
    expect(doc.run.texts.done).toBe(doc.run.texts.total);
    expect(doc.run.costUsd).toBeGreaterThan(0);
    expect(doc.primaryMetric).toBe('ndcg@10');
    expect(doc.models.map((m) => m.modelId)).toEqual(['openai:fake-embed-large', 'openai:fake-embed-small']);
    for (const m of doc.models) {
      expect(m.metrics.map((x) => x.metric)).toEqual(['ndcg@10', 'recall@5', 'precision@5', 'mrr', 'map']);
      for (const x of m.metrics) expect(x.interval?.method).toBe('bca-bootstrap');
      // what the report prints (on stderr: with --json -, stdout is the JSON alone) is the document's figures, to 3 decimals
      const ndcg = m.metrics[0]!;
      expect(r.stderr).toContain(`ndcg@10        ${ndcg.value.toFixed(3)}  ${ndcg.interval!.low.toFixed(3)}–${ndcg.interval!.high.toFixed(3)}`);
    }
    const [large, small] = doc.models;
    expect(large!.metrics[0]!.value).toBeGreaterThan(small!.metrics[0]!.value);
    expect(r.stderr).toMatch(/metrics \(trec_eval, 0–1; 95% interval over queries; ladder; primary: ndcg@10\)/);
    expect(r.stderr).toContain(`see http://assay.test/runs/${doc.run.id}`);

    // the stored rankings: one file for both engines (exact search on the server, pgvector on PGlite)
    const rows = await t.db.retrievalQueryResult.findMany({ where: { runId: doc.run.id }, orderBy: [{ modelId: 'asc' }, { queryId: 'asc' }], select: { modelId: true, queryId: true, ranking: true } });
    expect(rows).toHaveLength(2 * 20);
    const top10 = rows.map((q) => `${q.modelId} ${q.queryId}: ${StoredRankingSchema.parse(q.ranking).slice(0, 10).map((d) => `${d.docId}@${d.score.toFixed(6)}`).join(' ')}`);
    await expect(`${top10.join('\n')}\n`).toMatchFileSnapshot('./__snapshots__/kitchen-search-rankings.txt');
  });

  it('a qrel naming an unknown document is an error at the qrels file’s line, and nothing is stored', { timeout: 60_000 }, async () => {
    await cp(join(REPO_ROOT, 'blueprints/retrieval'), join(dir, 'retrieval'), { recursive: true });
    const qrels = join(dir, 'retrieval/kitchen-search/qrels.jsonl');
    await writeFile(qrels, `${await readFile(qrels, 'utf8')}{"query_id": "q-pasta-time", "doc_id": "no-such-note", "relevance": 1}\n`);
    const [runs, versions] = await Promise.all([t.db.run.count(), t.db.blueprintVersion.count()]);
    const r = await assay(['run', join(dir, 'retrieval/kitchen-search.yml'), '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/its retrieval files do not load:\n.*kitchen-search\/qrels\.jsonl:\d+:\d+: .*no-such-note/);
    expect([await t.db.run.count(), await t.db.blueprintVersion.count()]).toEqual([runs, versions]);
  });
});
