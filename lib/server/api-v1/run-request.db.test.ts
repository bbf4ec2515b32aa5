/**
 * The API's one write, `POST /api/v1/runs`, as a maintainer's script uses it: the admin token in
 * `Authorization`, a blueprint and the settings to change. The run is requested and executed by
 * the app's own runner against the fake provider, and polled through `api_url` to completion;
 * asking again for the identical run answers that run (200, deduplicated) and starts nothing.
 * Every answer is checked against the OpenAPI document the API serves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { storeBlueprint } from '../runs/runs.testkit';
import { contractOf, getV1, postV1, type V1Answer } from './api-v1.testkit';

const TOKEN = 'api-v1-write-test-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };

let t: TestDatabase;
let fake: FakeLlm;
let blueprintId: string;
let check: (answer: V1Answer) => string[];

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm();
  // the routes read the configuration once, through the composition root
  process.env.DATABASE_URL = t.url;
  process.env.ASSAY_ADMIN_TOKEN = TOKEN;
  process.env.ASSAY_LLM_BASE_URL = fake.url;
  process.env.OPENAI_API_KEY ??= 'sk-fake';
  ({ blueprintId } = await storeBlueprint(t.db, 'write.yml', 'title: Write API\nmodels: [openai:model-1, openai:model-2]\n---\n- id: one\n  prompt: "Hello, one?"\n  should: [{$contains: one}]\n'));
  const doc = await getV1('/api/v1/openapi.json');
  check = contractOf(doc.body as Parameters<typeof contractOf>[0]);
}, 60_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

async function completed(apiUrl: string): Promise<V1Answer> {
  for (let i = 0; i < 200; i++) {
    const r = await getV1(apiUrl);
    if ((r.body as { status?: string }).status === 'completed') return r;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${apiUrl} did not complete`);
}

describe(`POST /api/v1/runs (${process.env.ASSAY_TEST_DB})`, () => {
  it('requests a run (201), which the runner executes; the same request again answers that run (200) and starts nothing', { timeout: 60_000 }, async () => {
    const body = { blueprint_id: blueprintId, models: ['openai:model-1'], budget: { max_calls: 50 } };
    const first = await postV1('/api/v1/runs', body, auth);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(check(first)).toEqual([]);
    const made = first.body as { run_id: string; api_url: string; url: string; deduplicated: boolean };
    expect(made).toMatchObject({ deduplicated: false, url: `/runs/${made.run_id}`, api_url: `/api/v1/runs/${made.run_id}` });
    expect(first.headers.get('location')).toBe(made.api_url);

    const run = await completed(made.api_url);
    expect(check(run)).toEqual([]);
    expect((run.body as { models: unknown[] }).models).toEqual(['openai:model-1']);

    const again = await postV1('/api/v1/runs', body, auth);
    expect(again.status).toBe(200);
    expect(check(again)).toEqual([]);
    expect(again.body).toMatchObject({ run_id: made.run_id, deduplicated: true });
    expect(await t.db.run.count({ where: { blueprintId } })).toBe(1);

    // another setting is another run
    const other = await postV1('/api/v1/runs', { ...body, models: ['openai:model-2'] }, auth);
    expect(other.status).toBe(201);
    expect((other.body as { run_id: string }).run_id).not.toBe(made.run_id);
    await completed((other.body as { api_url: string }).api_url);
  });

  it('refuses a request without the token (401), with a wrong one (401), for an unknown blueprint (404) and with a bad body (400), in the documented shapes', async () => {
    const body = { blueprint_id: blueprintId };
    const none = await postV1('/api/v1/runs', body);
    expect(none.status).toBe(401);
    expect(check(none)).toEqual([]);
    const wrong = await postV1('/api/v1/runs', body, { authorization: 'Bearer not-the-token' });
    expect(wrong.status).toBe(401);
    const unknown = await postV1('/api/v1/runs', { blueprint_id: 'no-such-blueprint' }, auth);
    expect(unknown.status).toBe(404);
    expect(check(unknown)).toEqual([]);
    const bad = await postV1('/api/v1/runs', { blueprint_id: blueprintId, modells: ['x'] }, auth);
    expect(bad.status).toBe(400);
    expect(check(bad)).toEqual([]);
    expect(JSON.stringify(bad.body)).toContain('modells');
    const zero = await postV1('/api/v1/runs', { blueprint_id: blueprintId, budget: { max_calls: 0 } }, auth);
    expect(zero.status).toBe(400);
    expect(await t.db.run.count({ where: { blueprintId, status: { notIn: ['completed'] } } })).toBe(0);
  });
});
