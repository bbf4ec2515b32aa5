/**
 * The review API routes through route(): a reviewer's form posts go back to their page (303),
 * with the reason when the answer was refused; JSON callers get JSON; no session is a 401, a
 * signed-in non-reviewer a 403; the admin routes need a maintainer or the admin token and answer a
 * form post with the admin page's notice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { createSession, SESSION_COOKIE } from '../auth/sessions';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { makeUser, REVIEW_RULES, runReviewBlueprint, type ReviewRun } from './human.testkit';
import { grantReviewer, nextPair, nextReviewItem } from './index';

type Handler = (request: Request, context?: { params?: Promise<unknown> }) => Promise<Response>;
let t: TestDatabase;
let fake: FakeLlm;
let run: ReviewRun;
const TOKEN = 'review-routes-admin-token-0123456789';
const routes: Record<string, Handler> = {};
const cookies: Record<string, string> = {};
const users: Record<string, Awaited<ReturnType<typeof makeUser>>> = {};

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: REVIEW_RULES });
  // the routes read the app's database and admin token through the composition root
  Object.assign(process.env, { DATABASE_URL: t.url, ASSAY_ADMIN_TOKEN: TOKEN });
  run = await runReviewBlueprint(t.db, fake.url);
  for (const [login, role] of [['rae', 'reader'], ['mo', 'maintainer'], ['out', 'reader']] as const) {
    users[login] = await makeUser(t.db, login, role);
    cookies[login] = `${SESSION_COOKIE}=${(await createSession(t.db, users[login]!.id)).token}`;
  }
  routes.item = (await import('@/app/api/review/items/[itemId]/route')).POST;
  routes.pair = (await import('@/app/api/review/pairs/[pairId]/route')).POST;
  routes.undo = (await import('@/app/api/review/undo/route')).POST;
  routes.grants = (await import('@/app/api/admin/review/grants/route')).POST;
  routes.draws = (await import('@/app/api/admin/review/draws/route')).POST;
  routes.remove = (await import('@/app/api/admin/review/remove-labels/route')).POST;
}, 120_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

function post(handler: Handler, path: string, body: Record<string, string | number | boolean>, auth: { cookie?: string; bearer?: string; form?: boolean }, params?: Record<string, string>): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': auth.form ? 'application/x-www-form-urlencoded' : 'application/json' };
  if (auth.cookie) headers.cookie = auth.cookie;
  if (auth.bearer) headers.authorization = `Bearer ${auth.bearer}`;
  const text = auth.form ? new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString() : JSON.stringify(body);
  return handler(new Request(`http://x${path}`, { method: 'POST', headers, body: text }), params ? { params: Promise.resolve(params) } : undefined);
}

const location = (res: Response) => res.headers.get('location');

describe(`the admin review routes (${process.env.ASSAY_TEST_DB})`, () => {
  it('grant: a maintainer’s form post, the admin token’s JSON; a reader is refused', async () => {
    const form = await post(routes.grants!, '/api/admin/review/grants', { login: 'rae', scope: run.blueprintId, revoke: '' }, { cookie: cookies.mo, form: true });
    expect(form.status).toBe(303);
    expect(location(form)).toBe(`/admin?notice=${encodeURIComponent(`rae may review ${run.blueprintId}.`)}#review`);
    const json = await post(routes.grants!, '/api/admin/review/grants', { login: 'someone-else', scope: '*' }, { bearer: TOKEN });
    expect(await json.json()).toEqual({ login: 'someone-else', scope: '*', granted: true });
    expect(await t.db.reviewerGrant.count()).toBe(2);
    const revoked = await post(routes.grants!, '/api/admin/review/grants', { login: 'someone-else', scope: '*', revoke: true }, { bearer: TOKEN });
    expect(await revoked.json()).toEqual({ login: 'someone-else', scope: '*', granted: false });
    expect((await post(routes.grants!, '/api/admin/review/grants', { login: 'out', scope: '*' }, { cookie: cookies.out })).status).toBe(403);
    const bad = await post(routes.grants!, '/api/admin/review/grants', { login: 'rae', scope: 'no-such' }, { cookie: cookies.mo, form: true });
    expect(location(bad)).toMatch(/^\/admin\?error=No%20blueprint%20no-such/);
  });

  it('draws verdicts and pairs', async () => {
    const verdicts = await post(routes.draws!, '/api/admin/review/draws', { blueprintId: run.blueprintId, kind: 'verdicts', expectedLabels: 10_000, overlapItems: 2 }, { bearer: TOKEN });
    expect(verdicts.status).toBe(201);
    const drawn = (await verdicts.json()) as { drawn: number; candidates: number; runId: string };
    expect(drawn).toMatchObject({ runId: run.runId, candidates: 24 });
    expect(drawn.drawn).toBeGreaterThan(0);
    expect(await t.db.reviewItem.count()).toBe(drawn.drawn);
    expect(await t.db.reviewItem.count({ where: { position: { lt: 2 }, reviewersWanted: 2 } })).toBe(2);
    const pairs = await post(routes.draws!, '/api/admin/review/draws', { blueprintId: run.blueprintId, kind: 'pairs', count: '2', expectedLabels: '', overlapItems: '', runId: '' }, { cookie: cookies.mo, form: true });
    expect(location(pairs)).toBe(`/admin?notice=${encodeURIComponent(`Drew 2 pair(s) of replies to compare on ${run.blueprintId}.`)}#review`);
    expect((await post(routes.draws!, '/api/admin/review/draws', { blueprintId: 'no-such', kind: 'verdicts' }, { bearer: TOKEN })).status).toBe(404);
    expect((await post(routes.draws!, '/api/admin/review/draws', { blueprintId: run.blueprintId, kind: 'everything' }, { bearer: TOKEN })).status).toBe(400);
    expect((await post(routes.draws!, '/api/admin/review/draws', { blueprintId: run.blueprintId, kind: 'pairs' }, { cookie: cookies.rae })).status).toBe(403);
  });
});

describe(`the reviewer's routes (${process.env.ASSAY_TEST_DB})`, () => {
  it('a form post labels and goes back to the page; a refused one says why', async () => {
    const item = (await nextReviewItem(t.db, { user: users.rae!, blueprintId: run.blueprintId }))!;
    const path = `/api/review/items/${item.itemId}`;
    const wrong = await post(routes.item!, path, { action: 'label', answer: 'CLASS_NOPE', flag: '' }, { cookie: cookies.rae, form: true }, { itemId: item.itemId });
    expect(wrong.status).toBe(303);
    expect(location(wrong)).toBe(`/review/${run.blueprintId}?error=${encodeURIComponent(`"CLASS_NOPE" is not one of this question's options: ${item.options.map((o) => o.label).join(', ')}.`)}`);
    const ok = await post(routes.item!, path, { action: 'label', answer: item.options[2]!.label, flag: '' }, { cookie: cookies.rae, form: true }, { itemId: item.itemId });
    expect(location(ok)).toBe(`/review/${run.blueprintId}`);
    expect(await t.db.reviewLabel.findFirst({ where: { itemId: item.itemId } })).toMatchObject({ reviewerId: users.rae!.id, answer: item.options[2]!.label });
  });

  it('JSON callers get JSON; no session is a 401, a non-reviewer a 403', async () => {
    const item = (await nextReviewItem(t.db, { user: users.rae!, blueprintId: run.blueprintId }))!;
    const path = `/api/review/items/${item.itemId}`;
    const skipped = await post(routes.item!, path, { action: 'skip' }, { cookie: cookies.rae }, { itemId: item.itemId });
    expect(await skipped.json()).toMatchObject({ itemId: item.itemId, blueprintId: run.blueprintId });
    const anonymous = await post(routes.item!, path, { action: 'skip' }, {}, { itemId: item.itemId });
    expect(anonymous.status).toBe(401);
    expect(location(await post(routes.item!, path, { action: 'skip' }, { form: true }, { itemId: item.itemId }))).toMatch(/^\/review\?error=Sign%20in%20with%20GitHub/);
    expect((await post(routes.item!, path, { action: 'skip' }, { cookie: cookies.out }, { itemId: item.itemId })).status).toBe(403);
    expect((await post(routes.item!, path, { action: 'skip' }, { bearer: TOKEN }, { itemId: item.itemId })).status).toBe(403);
  });

  it('pairs and undo go back to their pages', async () => {
    await grantReviewer(t.db, { login: 'rae', scope: run.blueprintId, by: 'mo' });
    const pair = (await nextPair(t.db, { user: users.rae!, blueprintId: run.blueprintId }))!;
    const answered = await post(routes.pair!, `/api/review/pairs/${pair.pairId}`, { action: 'label', answer: 'tie' }, { cookie: cookies.rae, form: true }, { pairId: pair.pairId });
    expect(location(answered)).toBe(`/review/${run.blueprintId}/pairs`);
    expect(await t.db.pairLabel.findFirst({ where: { pairId: pair.pairId } })).toMatchObject({ answer: 'tie', reviewerId: users.rae!.id });
    const undone = await post(routes.undo!, '/api/review/undo', { blueprintId: run.blueprintId, kind: 'pairs' }, { cookie: cookies.rae, form: true });
    expect(location(undone)).toBe(`/review/${run.blueprintId}/pairs`);
    expect(await t.db.pairLabel.findFirst({ where: { pairId: pair.pairId } })).toMatchObject({ undoneAt: expect.any(Date) });
    const json = await post(routes.undo!, '/api/review/undo', { blueprintId: run.blueprintId, kind: 'verdicts' }, { cookie: cookies.rae });
    expect(await json.json()).toEqual({ undone: expect.any(String) });
  });

  it('remove-labels: a maintainer removes a reviewer’s labels', async () => {
    const res = await post(routes.remove!, '/api/admin/review/remove-labels', { login: 'rae' }, { bearer: TOKEN });
    expect(await res.json()).toEqual({ labels: 1, pairs: 0 });
    expect(await t.db.reviewLabel.count({ where: { reviewerId: users.rae!.id, removedAt: { not: null } } })).toBe(1);
  });
});
