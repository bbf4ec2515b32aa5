import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { createSession, SESSION_COOKIE } from '../auth/sessions';
import { deleteDraft, DraftBodySchema, draftOwner, getDraft, listDrafts, MAX_DRAFTS_PER_AUTHOR, saveDraft } from './drafts';

let t: TestDatabase;
let ana: string;
let bo: string;

beforeAll(async () => {
  t = await freshDatabase();
  ana = (await t.db.user.create({ data: { githubLogin: 'ana' } })).id;
  bo = (await t.db.user.create({ data: { githubLogin: 'bo' } })).id;
});
afterAll(() => t.close());

describe('author drafts', () => {
  it('saves, replaces and lists a draft per author and name', async () => {
    await saveDraft(t.db, ana, { name: 'blueprints/a.yml', yaml: 'title: one\n' });
    const second = await saveDraft(t.db, ana, { name: 'blueprints/a.yml', yaml: 'title: twö\n' });
    expect((await getDraft(t.db, ana, 'blueprints/a.yml')).yaml).toBe('title: twö\n');
    // 'title: twö\n' is 12 bytes in UTF-8: 10 ASCII characters and ö, which takes two
    expect(await listDrafts(t.db, ana)).toEqual([{ name: 'blueprints/a.yml', updatedAt: second.updatedAt, bytes: 12 }]);
    // another author sees none of it
    expect(await listDrafts(t.db, bo)).toEqual([]);
    await expect(getDraft(t.db, bo, 'blueprints/a.yml')).rejects.toMatchObject({ status: 404 });
  });

  it('deletes only an existing draft', async () => {
    await saveDraft(t.db, bo, { name: 'x.yml', yaml: 'a: 1' });
    await deleteDraft(t.db, bo, 'x.yml');
    await expect(deleteDraft(t.db, bo, 'x.yml')).rejects.toMatchObject({ status: 404 });
  });

  it(`refuses a new draft past ${MAX_DRAFTS_PER_AUTHOR} and says what to do, but still replaces an old one`, async () => {
    const u = (await t.db.user.create({ data: { githubLogin: 'many' } })).id;
    await t.db.authorDraft.createMany({ data: Array.from({ length: MAX_DRAFTS_PER_AUTHOR }, (_, i) => ({ userId: u, name: `d${i}.yml`, yaml: '', updatedAt: new Date() })) });
    await expect(saveDraft(t.db, u, { name: 'one-more.yml', yaml: '' })).rejects.toThrow(/delete one you no longer need/);
    await expect(saveDraft(t.db, u, { name: 'd3.yml', yaml: 'kept' })).resolves.toMatchObject({ yaml: 'kept' });
  });

  it('rate limits writes per author (120 a minute)', async () => {
    const u = (await t.db.user.create({ data: { githubLogin: 'fast' } })).id;
    // One instant for all 121 writes: on a slow machine they took long enough to straddle a
    // minute, and the 121st then counted in a fresh window (it failed so once, in a 24-minute suite).
    const now = new Date();
    for (let i = 0; i < 120; i++) await saveDraft(t.db, u, { name: 'f.yml', yaml: String(i) }, now);
    await expect(saveDraft(t.db, u, { name: 'f.yml', yaml: 'x' }, now)).rejects.toMatchObject({ status: 429 });
    expect((await getDraft(t.db, u, 'f.yml')).yaml).toBe('119');
    // The next window takes writes again.
    await expect(saveDraft(t.db, u, { name: 'f.yml', yaml: 'later' }, new Date(now.getTime() + 60_000))).resolves.toMatchObject({ yaml: 'later' });
  });

  it('stores a draft holding a NUL or a lone surrogate, visibly replaced, instead of failing the write', async () => {
    const u = (await t.db.user.create({ data: { githubLogin: 'nul' } })).id;
    await saveDraft(t.db, u, { name: 'blueprints/nul.yml', yaml: 'title: a\u0000b\n' });
    expect((await getDraft(t.db, u, 'blueprints/nul.yml')).yaml).toBe('title: a\u2400b\n');
    // a high surrogate without its low half, and a low one alone; a whole pair (😀) is kept
    await saveDraft(t.db, u, { name: 'blueprints/nul.yml', yaml: 'title: \uD83D x \uDE00 😀\n' });
    expect((await getDraft(t.db, u, 'blueprints/nul.yml')).yaml).toBe('title: \uFFFD x \uFFFD 😀\n');
    // the name cannot hold either: the schema refuses it (a 400 at the route)
    expect(DraftBodySchema.safeParse({ name: 'blueprints/a\u0000.yml', yaml: '' }).success).toBe(false);
    expect(DraftBodySchema.safeParse({ name: 'blueprints/\uD800.yml', yaml: '' }).success).toBe(false);
  });

  it('validates the name and the size, and needs a signed-in user', () => {
    expect(DraftBodySchema.safeParse({ name: '../etc/passwd.yml', yaml: '' }).success).toBe(false);
    expect(DraftBodySchema.safeParse({ name: 'notes.txt', yaml: '' }).success).toBe(false);
    expect(DraftBodySchema.safeParse({ name: 'blueprints/ok.yml', yaml: 'x'.repeat(1024 * 1024 + 1) }).success).toBe(false);
    expect(DraftBodySchema.safeParse({ name: 'blueprints/ok.yml', yaml: 'x'.repeat(1024 * 1024) }).success).toBe(true);
    expect(() => draftOwner(null)).toThrow(/Sign in with GitHub/);
    expect(() => draftOwner({ kind: 'admin-token' })).toThrow(/Sign in/);
  });

  it('answers the editor\'s autosave with a 400 saying where, never a 500, for a NUL or a lone surrogate (PUT /api/author/drafts)', async () => {
    // the route reads the database through the composition root
    process.env.DATABASE_URL = t.url;
    const { PUT } = (await import('@/app/api/author/drafts/route')) as { PUT: (r: Request) => Promise<Response> };
    const u = (await t.db.user.create({ data: { githubLogin: 'autosave' } })).id;
    const { token } = await createSession(t.db, u);
    const put = (body: unknown) =>
      PUT(new Request('http://assay.test/api/author/drafts', { method: 'PUT', headers: { 'content-type': 'application/json', origin: 'http://assay.test', cookie: `${SESSION_COOKIE}=${token}` }, body: JSON.stringify(body) }));
    expect((await put({ name: 'blueprints/ok.yml', yaml: 'title: ok\n' })).status).toBe(200);
    for (const [yaml, what] of [['title: a\u0000\n', 'a NUL character'], ['title: \uD83D\n', 'an unpaired surrogate']] as const) {
      const res = await put({ name: 'blueprints/ok.yml', yaml });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain(`Invalid body: yaml: contains ${what}`);
    }
    expect((await getDraft(t.db, u, 'blueprints/ok.yml')).yaml).toBe('title: ok\n');
  });
});
