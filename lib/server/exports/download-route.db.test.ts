/**
 * The run page's Download links (app/api/runs/[runId]/export): a run's records streamed as a
 * file with its name and type, the same bytes `openRunExport` makes; a draft run is the unknown
 * run's 404 to a reader who is not its author; bad parameters are a 400; past the per-client
 * limit, a 429 with Retry-After.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text } from 'node:stream/consumers';
import { gunzipSync } from 'node:zlib';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { poolOf } from '../db/client';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { installPeerAddressHeader } from '../http/client-address';
import { executeRun } from '../runs/engine/execute-run';
import { requestRun } from '../runs/request-run';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from '../runs/runs.testkit';
import { EXPORT_DOWNLOAD_LIMIT } from './download';
import { openRunExport } from './run-export';

let t: TestDatabase;
let fake: FakeLlm;
let runId: string;
let GET: (request: Request, context: { params: Promise<unknown> }) => Promise<Response>;
let client = 0;

beforeAll(async () => {
  t = await freshDatabase();
  process.env.DATABASE_URL = t.url;
  fake = await startFakeLlm();
  const { blueprintId } = await storeBlueprint(t.db, 'download.yml', 'title: Download\nmodels: [openai:model-1, openai:model-2]\n---\n- id: one\n  prompt: "Hello, one?"\n  should: [{$contains: one}]\n- id: two\n  prompt: "Hello, two?"\n  should: [{$contains: two}]\n');
  ({ runId } = await requestRun(t.db, { blueprintId, trigger: 'manual' }, noDispatch, TEST_DEFAULTS));
  expect(await executeRun(await fakeDeps(t.db, fake.url, { sandbox: false }), runId)).toBe('completed');
  ({ GET } = await import('@/app/api/runs/[runId]/export/route'));
  // as the server process does (instrumentation.ts): the stamped peer address is the client the limit counts
  installPeerAddressHeader();
}, 60_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

/** Each request from its own client address unless `from` is given (the limit counts per address). */
const get = (id: string, search: string, from = `10.0.0.${++client}`) =>
  GET(new Request(`http://x/api/runs/${encodeURIComponent(id)}/export${search}`, { headers: { 'x-assay-peer': from } }), { params: Promise.resolve({ runId: encodeURIComponent(id) }) });

describe(`the export download (${process.env.ASSAY_TEST_DB})`, () => {
  it('streams the file with its name and type: the bytes the command writes', async () => {
    const res = await get(runId, '?table=verdicts&format=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${runId}-verdicts.csv"`);
    const body = await res.text();
    expect(body).toBe(await text((await openRunExport(poolOf(t.db), runId, { table: 'verdicts', format: 'csv', gzip: false })).stream));
    expect(body.split('\r\n').filter(Boolean)).toHaveLength(1 + 4);
  });

  it('gzips on request, as a .gz file', async () => {
    const res = await get(runId, '?table=replies&format=jsonl&gzip=1');
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${runId}-replies.jsonl.gz"`);
    const lines = gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8').trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { prompt_key: string }).prompt_key)).toEqual(['one', 'one', 'two', 'two']);
  });

  it('answers a draft run as an unknown one to a reader who is not signed in, and bad parameters with a 400', async () => {
    await t.db.run.update({ where: { id: runId }, data: { draft: true } });
    try {
      const draft = await get(runId, '');
      expect(draft.status).toBe(404);
      expect(await draft.json()).toEqual({ error: { code: 'not_found', message: `no run with id ${runId}` } });
    } finally {
      await t.db.run.update({ where: { id: runId }, data: { draft: false } });
    }
    const bad = await get(runId, '?table=points');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain('table');
  });

  it('redacts a known secret a stored reply quotes, as the pages do', async () => {
    const secret = 'sk-export-test-0123456789abcdef';
    const reply = await t.db.reply.findFirstOrThrow({ where: { runId }, select: { id: true, content: true } });
    await t.db.reply.update({ where: { id: reply.id }, data: { content: `the key is ${secret}` } });
    const before = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = secret;
    try {
      const body = await (await get(runId, '?table=replies&format=jsonl')).text();
      expect(body).toContain('the key is ');
      expect(body).not.toContain(secret);
    } finally {
      if (before === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = before;
      await t.db.reply.update({ where: { id: reply.id }, data: { content: reply.content } });
    }
  });

  it(`allows ${EXPORT_DOWNLOAD_LIMIT.limit} downloads per client address in a window, then 429 with Retry-After`, async () => {
    for (let i = 0; i < EXPORT_DOWNLOAD_LIMIT.limit; i++) {
      const res = await get(runId, '?table=attempts', '10.9.9.9');
      expect(res.status, `download ${i + 1}`).toBe(200);
      await res.text();
    }
    const refused = await get(runId, '?table=attempts', '10.9.9.9');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const other = await get(runId, '?table=attempts', '10.9.9.10');
    expect(other.status).toBe(200);
    await other.text();
  });
});
