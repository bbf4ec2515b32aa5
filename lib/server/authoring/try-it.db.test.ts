/**
 * "Try it" (issue 16) over real HTTP: the app's route handlers (POST/GET /api/author/try, the
 * progress API) behind a Node server, against a real database and the fake LLM server, with the
 * in-process runner the app uses. Budgets are counted in calls the fake actually received.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { createSession, SESSION_COOKIE } from '../auth/sessions';
import { saveTrySettings } from './try-settings';
import { listRecentRuns } from '../db/queries/recent-runs';
import { getBoard } from '../db/queries/leaderboard';
import { searchReplies } from '../db/queries/search';
import { blueprintVisibleTo } from '../runs/draft-visibility';

type Handler = (request: Request, context?: { params?: Promise<unknown> }) => Promise<Response>;

let t: TestDatabase;
let fake: FakeLlm;
let server: Server;
let base: string;

/** Two prompts with deterministic points only: a run on two models is exactly 4 provider calls. */
const DRAFT = `title: Capitals draft
---
- id: france
  prompt: What is the capital of France?
  should:
    - $icontains: paris
- id: italy
  prompt: What is the capital of Italy?
  should:
    - $icontains: rome
`;
const MODELS = ['openai:model-a', 'openai:model-b'];

beforeAll(async () => {
  [t, fake] = await Promise.all([
    freshDatabase(),
    startFakeLlm({ keepRequests: 10_000, rules: [{ model: 'judge-a', judge: { labels: { E: 1 } } }, { lastUser: 'France', reply: 'Paris.' }, { lastUser: 'Italy', reply: 'Rome.' }] }),
  ]);
  // the routes read the app's configuration through the composition root
  Object.assign(process.env, { DATABASE_URL: t.url, ASSAY_LLM_BASE_URL: fake.url, ASSAY_JUDGES: 'openai:judge-a', ASSAY_TRY_MODELS: MODELS.join(','), ASSAY_TRY_DAILY_CALLS: '6', ASSAY_TRY_DAILY_COST_USD: '1', ASSAY_TRY_RUNS_PER_HOUR: '3' });
  const tryRoute = (await import('@/app/api/author/try/route')) as { GET: Handler; POST: Handler };
  const progress = (await import('@/app/api/runs/[runId]/progress/route')) as { GET: Handler };
  const settingsRoute = (await import('@/app/api/admin/try-settings/route')) as { POST: Handler };
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', base);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const request = new Request(url, { method: req.method, headers, ...(body && req.method !== 'GET' ? { body } : {}) });
      const m = /^\/api\/runs\/([^/]+)\/progress$/.exec(url.pathname);
      const handler =
        url.pathname === '/api/author/try' ? (req.method === 'POST' ? tryRoute.POST : tryRoute.GET) : url.pathname === '/api/admin/try-settings' ? settingsRoute.POST : m ? progress.GET : null;
      const answered = handler ? handler(request, { params: Promise.resolve({ runId: m?.[1] }) }) : Promise.resolve(new Response('no route', { status: 404 }));
      answered.then(async (r) => {
        res.writeHead(r.status, Object.fromEntries(r.headers));
        res.end(Buffer.from(await r.arrayBuffer()));
      }, (e: unknown) => res.writeHead(500).end(String(e)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  base = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await fake?.close();
  await t?.close();
});

async function signedIn(login: string, role: 'reader' | 'author' | 'maintainer' = 'author'): Promise<{ id: string; cookie: string }> {
  const user = await t.db.user.create({ data: { githubLogin: login, role } });
  const { token } = await createSession(t.db, user.id);
  return { id: user.id, cookie: `${SESSION_COOKIE}=${token}` };
}

const post = (cookie: string | null, body: unknown, origin = base) =>
  fetch(`${base}/api/author/try`, { method: 'POST', headers: { 'content-type': 'application/json', origin, ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
const progressOf = (runId: string, cookie: string | null) => fetch(`${base}/api/runs/${runId}/progress`, cookie ? { headers: { cookie } } : {});

async function settled(runId: string): Promise<{ status: string; error: string | null }> {
  for (let i = 0; i < 400; i++) {
    const r = await t.db.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true, error: true } });
    if (!['queued', 'running', 'summarising'].includes(r.status)) return r;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`run ${runId} did not finish`);
}

describe(`try it over HTTP (${process.env.ASSAY_TEST_DB})`, () => {
  it('refuses an invalid draft with a 400 naming file:line:col, and stores nothing', async () => {
    const a = await signedIn('ada');
    const broken = DRAFT.replace('$icontains: paris', '$no_such_function: paris');
    const res = await post(a.cookie, { yaml: broken, name: 'blueprints/capitals.yml', models: MODELS });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string; details: { issues: { file: string; line: number; col: number }[] } } };
    expect(body.error.message).toMatch(/^The draft does not validate \(1 error\): blueprints\/capitals\.yml:6:7: error: /);
    expect(body.error.details.issues[0]).toMatchObject({ file: 'blueprints/capitals.yml', line: 6, col: 7 });
    expect(await t.db.run.count()).toBe(0);
    expect(await t.db.blueprint.count()).toBe(0);
    expect(await t.db.blueprintVersion.count()).toBe(0);
    expect(fake.calls()).toBe(0);
  });

  it('refuses a visitor (401), a cross-site post (403) and a model off the list (400)', async () => {
    const b = await signedIn('babbage');
    expect((await post(null, { yaml: DRAFT, name: 'blueprints/c.yml', models: MODELS })).status).toBe(401);
    expect((await post(b.cookie, { yaml: DRAFT, name: 'blueprints/c.yml', models: MODELS }, 'https://evil.example')).status).toBe(403);
    const off = await post(b.cookie, { yaml: DRAFT, name: 'blueprints/c.yml', models: ['openai:gpt-5-pro'] });
    expect(off.status).toBe(400);
    expect(((await off.json()) as { error: { message: string } }).error.message).toBe('Not on the try-it list: openai:gpt-5-pro. Pick from openai:model-a, openai:model-b (maintainers set the list on /admin).');
    expect(await t.db.run.count()).toBe(0);
  });

  it('runs a draft as a draft run within the budget; a second run over budget is refused saying what was used', async () => {
    const c = await signedIn('curie');
    const before = fake.calls();
    const res = await post(c.cookie, { yaml: DRAFT, name: 'blueprints/capitals.yml', models: MODELS });
    expect(res.status).toBe(201);
    const started = (await res.json()) as { runId: string; progressUrl: string; plannedCalls: number };
    expect(started).toMatchObject({ progressUrl: `/runs/${started.runId}/progress`, plannedCalls: 4 });
    expect(await settled(started.runId)).toEqual({ status: 'completed', error: null });
    // 2 prompts × 2 models, no judged point: 4 calls at the fake, 4 counted on the author's day
    expect(fake.calls() - before).toBe(4);
    const day = await t.db.authorTryDay.findMany({ where: { userId: c.id }, select: { calls: true } });
    expect(day).toEqual([{ calls: 4 }]);
    const run = await t.db.run.findUniqueOrThrow({ where: { id: started.runId }, select: { draft: true, createdById: true, trigger: true, blueprintId: true } });
    expect(run).toEqual({ draft: true, createdById: c.id, trigger: 'try', blueprintId: 'drafts__curie__capitals' });
    expect(await t.db.reply.count({ where: { runId: started.runId } })).toBe(4);

    const allowance = await fetch(`${base}/api/author/try`, { headers: { cookie: c.cookie } });
    expect(await allowance.json()).toMatchObject({ models: MODELS, dailyCalls: 6, usedCalls: 4 });

    // 4 more needed, 2 left: refused before anything starts
    const again = await post(c.cookie, { yaml: DRAFT, name: 'blueprints/capitals.yml', models: MODELS });
    expect(again.status).toBe(429);
    const msg = ((await again.json()) as { error: { code: string; message: string } }).error;
    expect(msg.code).toBe('try_budget_used');
    expect(msg.message).toMatch(/^This draft needs at least 4 calls \(2 prompts × 2 models, before judging\) and 2 are left today: pick fewer models or prompts\. Used so far: 4 of 6 calls and \$0\.0000 of \$1\.00\. It resets at \d{4}-\d\d-\d\d 00:00 UTC \(in \d+ (h \d+ )?min\)\.$/);
    expect(await t.db.run.count({ where: { createdById: c.id } })).toBe(1);
    expect(fake.calls() - before).toBe(4);
  });

  it('keeps a draft run off every public list and shows it only to its author and maintainers (404 for others)', async () => {
    const d = await signedIn('dijkstra');
    const other = await signedIn('eve', 'reader');
    const maintainer = await signedIn('maria', 'maintainer');
    const res = await post(d.cookie, { yaml: DRAFT, name: 'blueprints/visible.yml', models: ['openai:model-a'] });
    expect(res.status).toBe(201);
    const { runId } = (await res.json()) as { runId: string };
    expect((await settled(runId)).status).toBe('completed');

    expect((await progressOf(runId, d.cookie)).status).toBe(200);
    expect((await progressOf(runId, maintainer.cookie)).status).toBe(200);
    expect((await progressOf(runId, other.cookie)).status).toBe(404);
    expect((await progressOf(runId, null)).status).toBe(404);
    // the same 404 body as a run that does not exist: a draft's existence is not disclosed
    expect(await (await progressOf(runId, other.cookie)).json()).toEqual({ error: { code: 'not_found', message: `no run with id ${runId}` } });

    const blueprintId = 'drafts__dijkstra__visible';
    expect(await t.db.blueprint.findUniqueOrThrow({ where: { id: blueprintId }, select: { removedAt: true } })).not.toEqual({ removedAt: null });
    expect(await t.db.runModelSummary.count({ where: { runId } })).toBe(1);
    expect(await t.db.blueprintModelSummary.count({ where: { blueprintId } })).toBe(0);
    expect((await listRecentRuns(t.db, 50)).map((r) => r.id)).not.toContain(runId);
    expect((await getBoard(t.db)).rows.filter((r) => r.blueprintId === blueprintId)).toEqual([]);
    expect((await searchReplies(t.db, 'Paris', { limit: 50, offset: 0 })).hits).toEqual([]);
    // the draft blueprint's pages too: its author and maintainers only
    const viewer = (u: { id: string }, role: 'author' | 'reader' | 'maintainer') => ({ id: u.id, role });
    expect(await blueprintVisibleTo(t.db, blueprintId, viewer(d, 'author'))).toBe(true);
    expect(await blueprintVisibleTo(t.db, blueprintId, viewer(maintainer, 'maintainer'))).toBe(true);
    expect(await blueprintVisibleTo(t.db, blueprintId, viewer(other, 'reader'))).toBe(false);
    expect(await blueprintVisibleTo(t.db, blueprintId, null)).toBe(false);
  });

  it('limits an author to the maintainers\' runs per hour (429 past it), counted in the database', async () => {
    const f = await signedIn('feynman');
    const statuses: number[] = [];
    // invalid drafts cost no budget, but every request counts against the rate limit
    for (let i = 0; i < 4; i++) statuses.push((await post(f.cookie, { yaml: 'title: [', name: 'blueprints/x.yml', models: MODELS })).status);
    expect(statuses).toEqual([400, 400, 400, 429]);
    expect(await t.db.rateLimit.findMany({ where: { key: `try:${f.id}` }, select: { count: true } })).toEqual([{ count: 4 }]);
  });

  it('lets maintainers, and only them, change the models and budgets from the admin form', async () => {
    const reader = await signedIn('randy', 'reader');
    const maintainer = await signedIn('mallory', 'maintainer');
    const form = (cookie: string, fields: Record<string, string>) =>
      fetch(`${base}/api/admin/try-settings`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base, cookie }, body: new URLSearchParams(fields).toString() });
    const fields = { models: 'openai:model-a\nopenai:model-c', dailyCalls: '12', dailyCostUsd: '0.25', runsPerHour: '4' };
    expect((await form(reader.cookie, fields)).status).toBe(303);
    expect(await t.db.tryItSettings.findUniqueOrThrow({ where: { id: 1 }, select: { dailyCalls: true } })).toEqual({ dailyCalls: 6 });
    const saved = await form(maintainer.cookie, fields);
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toMatch(/^\/admin\?notice=/);
    expect(await t.db.tryItSettings.findUniqueOrThrow({ where: { id: 1 }, select: { models: true, dailyCalls: true, dailyCostUsd: true, runsPerHour: true, updatedBy: true } })).toEqual({
      models: ['openai:model-a', 'openai:model-c'], dailyCalls: 12, dailyCostUsd: 0.25, runsPerHour: 4, updatedBy: 'mallory',
    });
    const bad = await form(maintainer.cookie, { ...fields, models: 'not a model id' });
    expect(decodeURIComponent(bad.headers.get('location') ?? '')).toContain('a model id looks like provider:model');
    const allowance = await fetch(`${base}/api/author/try`, { headers: { cookie: reader.cookie } });
    expect(await allowance.json()).toMatchObject({ models: ['openai:model-a', 'openai:model-c'], dailyCalls: 12, dailyCostUsd: 0.25 });
  });

  it('stops a run mid-way at the gateway\'s reservation when the author\'s day runs out, and says why', async () => {
    const g = await signedIn('gauss');
    // 3 calls a day: the draft's 3 generations pass the up-front check, its judge calls do not fit
    await saveTrySettings(t.db, { models: MODELS, dailyCalls: 3, dailyCostUsd: 1, runsPerHour: 10 }, 'test');
    const JUDGED = `title: Judged draft
---
- id: one
  prompt: Name a prime above ten.
  should: [Names a prime number]
- id: two
  prompt: Name a prime above twenty.
  should: [Names a prime number]
- id: three
  prompt: Name a prime above thirty.
  should: [Names a prime number]
`;
    const before = fake.calls();
    const res = await post(g.cookie, { yaml: JUDGED, name: 'blueprints/judged.yml', models: ['openai:model-a'] });
    expect(res.status).toBe(201);
    const { runId } = (await res.json()) as { runId: string };
    const outcome = await settled(runId);
    expect(outcome.status).toBe('budget_exceeded');
    expect(outcome.error).toMatch(/^Your try-it budget for today is used: 3 of 3 calls and \$0\.0000 of \$1\.00\. It resets at .* UTC/);
    // exactly the day's 3 calls reached the provider; the refused ones were never sent
    expect(fake.calls() - before).toBe(3);
    expect(await t.db.authorTryDay.findFirstOrThrow({ where: { userId: g.id }, select: { calls: true } })).toEqual({ calls: 3 });
    expect(await t.db.run.findUniqueOrThrow({ where: { id: runId }, select: { providerCalls: true, reservedCalls: true } })).toEqual({ providerCalls: 3, reservedCalls: 0 });

    // the next request is refused up front, saying what was used and when it resets
    const again = await post(g.cookie, { yaml: JUDGED, name: 'blueprints/judged.yml', models: ['openai:model-a'] });
    expect(again.status).toBe(429);
    expect(((await again.json()) as { error: { message: string } }).error.message).toMatch(/^Your try-it budget for today is used: 3 of 3 calls and \$0\.0000 of \$1\.00\. It resets at \d{4}-\d\d-\d\d 00:00 UTC \(in \d+ (h \d+ )?min\)\.$/);
  });

  it('refuses a NUL or a lone surrogate in the draft or its name with a 400 saying where, and stores nothing (never a 500)', async () => {
    const h = await signedIn('hopper');
    const runsBefore = await t.db.run.count();
    const ONE = 'title: One\n---\n- id: france\n  prompt: What is the capital of France?\n  should:\n    - $icontains: paris\n';
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ yaml: ONE, name: 'blueprints/a\u0000b.yml' }, /^Invalid body: name: contains a NUL character \(U\+0000\) at position 13/],
      [{ yaml: ONE, name: 'blueprints/a\uD800.yml' }, /^Invalid body: name: contains an unpaired surrogate \(U\+D800/],
      [{ yaml: ONE.replace('One', 'O\u0000ne'), name: 'blueprints/b.yml' }, /^Invalid body: yaml: contains a NUL character/],
      [{ yaml: ONE.replace('One', 'O\uDE00ne'), name: 'blueprints/b.yml' }, /^Invalid body: yaml: contains an unpaired surrogate \(U\+DE00/],
    ];
    for (const [body, message] of cases) {
      const res = await post(h.cookie, { ...body, models: ['openai:model-a'] });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(message);
    }
    expect(await t.db.run.count()).toBe(runsBefore);
    expect(await t.db.blueprint.count({ where: { id: { startsWith: 'drafts__hopper__' } } })).toBe(0);
  });
});
