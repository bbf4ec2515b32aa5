/**
 * The public API against its own OpenAPI document, on data made by a real run: `assay run` (the
 * CLI, as a user runs it) stores a blueprint and its results from a fixtures file, with the fake
 * LLM server as judge. Every answer is validated with Ajv against the document the API serves,
 * its figures are checked against the stored rows they are read from, lists are walked to the end
 * (each item exactly once), and the ETag / 304 and error answers are exercised.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { listBlueprints } from '../db/queries/blueprint-list';
import { spawnAssay, storeBlueprint } from '../runs/runs.testkit';
import { contractOf, getV1, type V1Answer } from './api-v1.testkit';

let t: TestDatabase;
let fake: FakeLlm;
let dir: string;
let runId: string;
let secondRunId: string;
let check: (a: V1Answer) => string[];

const MODELS = ['openai:alpha', 'openai:beta'];
const BLUEPRINT = `title: API contract
tags: [api, contract]
models: [${MODELS.join(', ')}]
---
- id: p1
  prompt: Say hello.
  should:
    - $icontains: hello
    - Greets the user politely
- id: p2
  prompt: Name a colour.
  should: [{$icontains: blue}]
- id: p3
  prompt: Count to three.
  should: [{$contains: "3"}]
- id: p4
  prompt: Name a fruit.
  should: [{$icontains: apple}]
- id: p5
  prompt: Say goodbye.
  should: [{$icontains: bye}]
- id: held-out
  split: test
  prompt: HIDDEN question
  should: [{$icontains: HIDDEN}]
`;

const FIXTURES = {
  responses: {
    p1: { default: 'Hello there!', byModel: { 'openai:beta': 'Go away.' } },
    p2: { default: 'Blue.' },
    p3: { default: '1, 2, 3' },
    p4: { default: 'An apple.', byModel: { 'openai:beta': 'A pear.' } },
    p5: { default: 'Goodbye!' },
    'held-out': { default: 'HIDDEN reply' },
  },
};

/** Answers are checked as they are made: each against the document, on every call. */
async function get(path: string, headers: Record<string, string> = {}): Promise<V1Answer> {
  const a = await getV1(path, headers);
  expect(check(a), path).toEqual([]);
  return a;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assay-api-v1-'));
  await writeFile(join(dir, 'api-contract.yml'), BLUEPRINT);
  await writeFile(join(dir, 'fixtures.json'), JSON.stringify(FIXTURES));
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: [{ model: 'judge', judge: { labels: { E: 1 } } }] });
  // the real `assay run`, as a child process
  const cli = spawnAssay(['run', join(dir, 'api-contract.yml'), '--fixtures', join(dir, 'fixtures.json'), '--judges', 'openai:judge', '--quiet'], {
    DATABASE_URL: t.url,
    ASSAY_LLM_BASE_URL: fake.url,
  });
  expect(await cli.exited, cli.stderr()).toBe(0);
  runId = (await t.db.run.findFirstOrThrow({ where: { status: 'completed' }, select: { id: true } })).id;
  // a second run of the same blueprint, alpha alone, for the comparison
  const again = spawnAssay(['run', join(dir, 'api-contract.yml'), '--fixtures', join(dir, 'fixtures.json'), '--judges', 'openai:judge', '--models', 'openai:alpha', '--quiet'], {
    DATABASE_URL: t.url,
    ASSAY_LLM_BASE_URL: fake.url,
  });
  expect(await again.exited, again.stderr()).toBe(0);
  secondRunId = (await t.db.run.findFirstOrThrow({ where: { status: 'completed', id: { not: runId } }, select: { id: true } })).id;
  // more blueprints for the list to page through, two of them with one title (the order's tie-break is the id)
  for (const [file, title] of [['b-one.yml', 'Same title'], ['b-two.yml', 'Same title'], ['c.yml', 'Another'], ['d.yml', 'Zebra']] as const) {
    await storeBlueprint(t.db, file, `title: ${title}\nmodels: [openai:alpha]\n---\n- prompt: Hi?\n  should: [{$contains: Hi}]\n`);
  }
  process.env.DATABASE_URL = t.url;
  const doc = await getV1('/api/v1/openapi.json');
  expect(doc.status).toBe(200);
  check = contractOf(doc.body as Parameters<typeof contractOf>[0]);
}, 180_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});
// every request here comes from one client (no peer address in tests): each test starts a fresh window
// of the rate limit, which rate-limit.db.test.ts tests on its own
beforeEach(async () => {
  await t.db.rateLimit.deleteMany({});
});

describe(`/api/v1 on a real run (${process.env.ASSAY_TEST_DB})`, () => {
  it('serves an OpenAPI 3.1 document with every endpoint, valid against itself', async () => {
    const doc = await get('/api/v1/openapi.json');
    const body = doc.body as { openapi: string; paths: Record<string, unknown> };
    expect(body.openapi).toBe('3.1.0');
    // the check is a real one: a wrong type, a missing field or a field the document does not name all fail
    const run = await getV1(`/api/v1/runs/${runId}`);
    const good = run.body as Record<string, unknown>;
    expect(check({ ...run, body: { ...good, cost_usd: 'free' } })).not.toEqual([]);
    expect(check({ ...run, body: { ...good, counts: undefined } })).not.toEqual([]);
    expect(check({ ...run, body: { ...good, secret: 1 } })).not.toEqual([]);
    expect(check({ ...run, body: { ...good, created_at: 'yesterday' } })).not.toEqual([]);
    expect(Object.keys(body.paths).sort()).toEqual(
      [
        '/api/v1/blueprints',
        '/api/v1/blueprints/{id}',
        '/api/v1/drift',
        '/api/v1/leaderboard',
        '/api/v1/models/{modelId}',
        '/api/v1/openapi.json',
        '/api/v1/retrieval/leaderboard',
        '/api/v1/runs',
        '/api/v1/runs/{runId}',
        '/api/v1/runs/{runId}/prompts',
        '/api/v1/runs/{runId}/compare/{otherRunId}',
      ].sort(),
    );
  });

  it('answers the run with its stored summaries, ranks and intervals', async () => {
    const a = await get(`/api/v1/runs/${runId}`);
    expect(a.status).toBe(200);
    const run = a.body as { status: string; models: string[]; judges: string[]; results: { model_id: string; score: number | null; ci_low: number | null; interval: { method: string } | null; rank: number | null }[]; blueprint: { title: string }; counts: { total_calls: number } };
    expect(run).toMatchObject({ status: 'completed', models: MODELS, judges: ['openai:judge'], blueprint: { title: 'API contract' } });
    const stored = await t.db.runModelSummary.findMany({ where: { runId } });
    expect(run.results).toHaveLength(MODELS.length);
    for (const r of run.results) {
      const s = stored.find((x) => x.modelId === r.model_id)!;
      expect(r.score).toBe(s.score);
      expect(r.ci_low).toBe(s.ciLow);
      expect(r.interval?.method ?? null).toBe(s.ciMethod);
    }
    // alpha answered every visible prompt right, beta missed two: alpha first, rank 1
    expect(run.results.map((r) => [r.model_id, r.rank])).toEqual([
      ['openai:alpha', 1],
      ['openai:beta', 2],
    ]);
  });

  it('answers the run’s prompts a page at a time, each exactly once, the sealed one only counted', async () => {
    const keys: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const a: V1Answer = await get(`/api/v1/runs/${runId}/prompts?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(a.status).toBe(200);
      const page = a.body as { total: number; sealed_count: number; items: { prompt_key: string; cells: { model_id: string; score: number | null }[] }[]; next_cursor: string | null };
      expect(page).toMatchObject({ total: 5, sealed_count: 1 });
      for (const item of page.items) {
        keys.push(item.prompt_key);
        const cells = await t.db.runCellSummary.findMany({ where: { runId, promptKey: item.prompt_key }, orderBy: { modelId: 'asc' } });
        expect(item.cells.map((c) => [c.model_id, c.score])).toEqual(cells.map((c) => [c.modelId, c.score]));
      }
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(keys).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    expect(pages).toBe(3);
  });

  it('walks the blueprints to the end in the list’s order, each exactly once, whatever the page size', async () => {
    const all = (await listBlueprints(t.db)).map((b) => b.id);
    expect(all).toHaveLength(5);
    for (const limit of [1, 2, 3, 100]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const a: V1Answer = await get(`/api/v1/blueprints?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        const page = a.body as { items: { id: string }[]; next_cursor: string | null };
        expect(page.items.length).toBeLessThanOrEqual(limit);
        seen.push(...page.items.map((i) => i.id));
        cursor = page.next_cursor;
      } while (cursor && seen.length <= all.length);
      expect(seen, `limit ${limit}`).toEqual(all);
    }
  });

  it('answers a blueprint with its versions and runs, and the leaderboard and model as stored', async () => {
    const { blueprintId, versionId } = await t.db.run.findUniqueOrThrow({ where: { id: runId }, select: { blueprintId: true, versionId: true } });
    const bp = (await get(`/api/v1/blueprints/${encodeURIComponent(blueprintId)}`)).body as { versions: { id: string }[]; runs: { id: string }[]; latest_completed_run_id: string; latest_version: { sealed_prompt_count: number; visible_prompt_count: number } };
    expect(bp.versions.map((v) => v.id)).toEqual([versionId]);
    expect(bp.runs.map((r) => r.id)).toEqual([secondRunId, runId]);
    expect(bp).toMatchObject({ latest_completed_run_id: secondRunId, latest_version: { sealed_prompt_count: 1, visible_prompt_count: 5 } });

    const board = (await get('/api/v1/leaderboard')).body as { blueprint_count: number; ranked: { model_id: string; score: number; rank: number }[] };
    const snapshot = await t.db.boardSnapshot.findUniqueOrThrow({ where: { key: 'all' } });
    const stored = snapshot.body as { ranked: { modelId: string; score: number; rank: number }[] };
    expect(board.blueprint_count).toBe(1);
    expect(board.ranked.map((r) => [r.model_id, r.score, r.rank])).toEqual(stored.ranked.map((r) => [r.modelId, r.score, r.rank]));
    expect((await get('/api/v1/leaderboard?tag=api')).status).toBe(200);

    for (const path of ['/api/v1/models/openai:alpha', `/api/v1/models/${encodeURIComponent('openai:alpha')}`]) {
      const model = (await get(path)).body as { model_id: string; boards: { tag: string | null; score: number }[]; blueprints: { run_id: string; score: number }[]; history: { run_id: string }[] };
      expect(model.model_id).toBe('openai:alpha');
      expect(model.boards.map((b) => b.tag)).toEqual([null, 'api', 'contract']);
      expect(model.boards[0]!.score).toBe(stored.ranked.find((r) => r.modelId === 'openai:alpha')!.score);
      expect(model.blueprints.map((b) => b.run_id)).toEqual([secondRunId]);
      expect(model.history.map((h) => h.run_id)).toEqual([secondRunId, runId]);
    }
  });

  it('compares two runs of the blueprint in either order, with each run’s stored scores', async () => {
    const forward = await get(`/api/v1/runs/${runId}/compare/${secondRunId}`);
    const backward = await get(`/api/v1/runs/${secondRunId}/compare/${runId}`);
    expect(forward.status).toBe(200);
    expect(backward.body).toEqual(forward.body);
    const c = forward.body as { older: { id: string }; newer: { id: string }; models: { model_id: string; older_score: number | null; newer_score: number | null; paired: number }[]; models_only_in_older: number; models_only_in_newer: number };
    expect([c.older.id, c.newer.id]).toEqual([runId, secondRunId]);
    expect(c.models.map((m) => m.model_id)).toEqual(['openai:alpha']);
    const score = async (id: string) => (await t.db.runModelSummary.findUniqueOrThrow({ where: { runId_modelId: { runId: id, modelId: 'openai:alpha' } } })).score;
    expect(c.models[0]).toMatchObject({ older_score: await score(runId), newer_score: await score(secondRunId), paired: 6 });
    expect([c.models_only_in_older, c.models_only_in_newer]).toEqual([1, 0]);
    expect(forward.headers.get('cache-control')).toBe('public, max-age=3600');
    expect((await get(`/api/v1/runs/${runId}/compare/${runId}`)).status).toBe(404);
  });

  it('tags each answer, answers 304 to its own tag, and lets caches keep a completed run', async () => {
    const first = await get(`/api/v1/runs/${runId}`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=3600');
    const again = await get(`/api/v1/runs/${runId}`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    expect(again.headers.get('etag')).toBe(etag);
    expect((await get(`/api/v1/runs/${runId}`, { 'if-none-match': '"stale"' })).status).toBe(200);
    const list = await get('/api/v1/blueprints');
    expect(list.headers.get('cache-control')).toBe('public, max-age=60');
    expect((await get('/api/v1/blueprints', { 'if-none-match': list.headers.get('etag')! })).status).toBe(304);
  });

  it('answers bad requests and unknown ids in the documented error shape, never cached', async () => {
    for (const [path, status] of [
      ['/api/v1/runs/no-such-run', 404],
      ['/api/v1/runs/no-such-run/prompts', 404],
      [`/api/v1/runs/${runId}/compare/no-such-run`, 404],
      ['/api/v1/blueprints/no-such-blueprint', 404],
      ['/api/v1/models/openai:nobody', 404],
      ['/api/v1/blueprints?limit=101', 400],
      ['/api/v1/blueprints?limit=0', 400],
      ['/api/v1/blueprints?cursor=garbage', 400],
      [`/api/v1/runs/${runId}/prompts?cursor=${encodeURIComponent(Buffer.from('{"l":"blueprints","v":{"title":"a","id":"b"}}').toString('base64url'))}`, 400],
    ] as const) {
      const a = await get(path);
      expect(a.status, path).toBe(status);
      expect(a.headers.get('cache-control'), path).toBe('no-store');
      expect((a.body as { error: { message: string } }).error.message.length, path).toBeGreaterThan(10);
    }
  });
});
