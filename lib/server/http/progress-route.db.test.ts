/**
 * The progress API (app/api/runs/[runId]/progress) goes through route() like every API route:
 * a run's counters as the page's schema says, `cache-control: no-store` on every reply, and an
 * unknown run the RunNotFoundError's 404 in route()'s one error shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { noDispatch, storeBlueprint, TEST_DEFAULTS } from '../runs/runs.testkit';
import { requestRun } from '../runs/request-run';
import { RunProgressSchema } from '@/lib/views/progress-view';

let t: TestDatabase;
let GET: (request: Request, context: { params: Promise<unknown> }) => Promise<Response>;

beforeAll(async () => {
  t = await freshDatabase();
  // the route reads the app's database through the composition root (compose/database.ts)
  process.env.DATABASE_URL = t.url;
  ({ GET } = await import('@/app/api/runs/[runId]/progress/route'));
});
afterAll(async () => {
  await t?.close();
});

const get = (runId: string) => GET(new Request(`http://x/api/runs/${encodeURIComponent(runId)}/progress`), { params: Promise.resolve({ runId: encodeURIComponent(runId) }) });

describe(`the progress API (${process.env.ASSAY_TEST_DB})`, () => {
  it('answers a queued run with its counters', async () => {
    const { blueprintId } = await storeBlueprint(t.db, 'progress.yml', 'title: Progress\nmodels: [openai:model-1]\n---\n- prompt: "Hello?"\n  should: [{$contains: Fake}]\n');
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'manual' }, noDispatch, TEST_DEFAULTS);
    const res = await get(runId);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = RunProgressSchema.parse(await res.json());
    expect(body).toMatchObject({ runId, status: 'queued' });
  });

  it('answers an unknown run with a 404 through route(): its error shape and headers', async () => {
    const res = await get('no-such-run');
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: 'no run with id no-such-run' } });
  });

  it('answers a run id that is too long with a 400 in the same shape', async () => {
    const res = await get('r'.repeat(201));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('bad_request');
  });
});
