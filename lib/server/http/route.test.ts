import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { route } from './route';
import { AppError, BadRequestError, ConflictError, ForbiddenError, NotConfiguredError, NotFoundError, RateLimitedError, UnauthorizedError, UpstreamError } from './errors';
import { RunConfigError, RunNotFoundError } from '../runs/engine/errors';
import { CustomHttpSpecError } from '../providers/custom-http-spec';
import { ModelResolutionError, resolveModel } from '../providers/resolve';
import { readCookie, redirect, serializeCookie } from './responses';

const echo = route(
  {
    params: z.object({ number: z.coerce.number().int().positive() }),
    body: z.object({ name: z.string().min(1) }),
    response: z.object({ number: z.number(), greeting: z.string() }),
    status: 201,
  },
  async ({ params, body }) => ({ number: params.number, greeting: `hello ${body.name}` }),
);

const post = (body: string, type = 'application/json') =>
  new Request('http://x/api/thing/7', { method: 'POST', body, headers: { 'content-type': type } });
const ctx = (params: unknown) => ({ params: Promise.resolve(params) });

describe('route wrapper', () => {
  it('validates params and body, and answers the validated response with its status', async () => {
    const res = await echo(post('{"name":"ada"}'), ctx({ number: '7' }));
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ number: 7, greeting: 'hello ada' });
  });

  it('accepts form-encoded bodies (HTML forms)', async () => {
    const res = await echo(post('name=grace', 'application/x-www-form-urlencoded'), ctx({ number: '1' }));
    expect(await res.json()).toEqual({ number: 1, greeting: 'hello grace' });
  });

  it('answers 400, saying where, for a NUL or a lone surrogate in the body, the query or the path (PostgreSQL refuses both)', async () => {
    const nul = await echo(post(JSON.stringify({ name: 'a\u0000b' })), ctx({ number: '7' }));
    expect(nul.status).toBe(400);
    expect(((await nul.json()) as { error: { message: string } }).error.message).toBe('Invalid body: name: contains a NUL character (U+0000) at position 2, which cannot be stored; remove it.');
    // JSON carries a lone surrogate as an escape; JSON.parse gives it back as half a pair
    const half = await echo(post('{"name":"x\\udc00"}'), ctx({ number: '7' }));
    expect(((await half.json()) as { error: { message: string } }).error.message).toMatch(/^Invalid body: name: contains an unpaired surrogate \(U\+DC00/);
    const key = await echo(post(JSON.stringify({ name: 'a', ['k\u0000']: 1 })), ctx({ number: '7' }));
    expect(key.status).toBe(400);
    const param = await echo(post('{"name":"a"}'), ctx({ number: '7\u0000' }));
    expect(((await param.json()) as { error: { message: string } }).error.message).toMatch(/^Invalid path parameters: number: contains a NUL/);
    const search = route({ query: z.object({ q: z.string() }), response: z.object({ q: z.string() }) }, async ({ query }) => query);
    const q = await search(new Request('http://x/api/search?q=a%00b'));
    expect(q.status).toBe(400);
    expect(((await q.json()) as { error: { message: string } }).error.message).toMatch(/^Invalid query: q: contains a NUL/);
    // a whole surrogate pair is a character like any other
    expect((await echo(post(JSON.stringify({ name: '😀' })), ctx({ number: '7' }))).status).toBe(201);
  });

  it('answers 400 with the failing field for a bad body, bad JSON or bad params', async () => {
    const bad = await echo(post('{"name":""}'), ctx({ number: '7' }));
    expect(bad.status).toBe(400);
    const json = (await bad.json()) as { error: { code: string; message: string } };
    expect(json.error.code).toBe('bad_request');
    expect(json.error.message).toMatch(/^Invalid body: name:/);
    expect((await echo(post('{oops'), ctx({ number: '7' }))).status).toBe(400);
    expect((await echo(post('{"name":"x"}'), ctx({ number: '-1' }))).status).toBe(400);
  });

  it('maps typed errors to their status and code, with Retry-After and WWW-Authenticate', async () => {
    const limited = route({ response: z.null() }, async () => {
      throw new RateLimitedError(30);
    });
    const res = await limited(new Request('http://x/'));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('30');
    const unauth = route({ response: z.null(), authenticate: async () => { throw new UnauthorizedError(); } }, async () => null);
    const r2 = await unauth(new Request('http://x/'));
    expect(r2.status).toBe(401);
    expect(r2.headers.get('www-authenticate')).toBe('Bearer');
    const conflict = route({ response: z.null() }, async () => {
      throw new ConflictError('already approved', { number: 3 });
    });
    expect(await (await conflict(new Request('http://x/'))).json()).toEqual({ error: { code: 'conflict', message: 'already approved', details: { number: 3 } } });
  });

  it('does not read the body when authentication refuses', async () => {
    const handler = vi.fn(async () => null);
    const guarded = route({ body: z.object({}), response: z.null(), authenticate: async () => { throw new UnauthorizedError(); } }, handler);
    const req = post('{}');
    expect((await guarded(req)).status).toBe(401);
    expect(req.bodyUsed).toBe(false);
    expect(handler).not.toHaveBeenCalled();
  });

  it('turns a response that breaks its schema into a 500 without leaking it', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken = route({ response: z.object({ ok: z.literal(true) }) }, async () => ({ ok: false, secret: 'x' }) as never);
    const res = await broken(new Request('http://x/'));
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('secret');
    const crashing = route({ response: z.null() }, async () => {
      throw new Error('db password is hunter2');
    });
    const r2 = await crashing(new Request('http://x/'));
    expect(r2.status).toBe(500);
    expect(await r2.text()).not.toContain('hunter2');
    spy.mockRestore();
  });

  it('keeps the exact body text for signature checks and passes Response results through', async () => {
    const raw = route({ rawBody: true, response: z.null() }, async ({ rawBody }) => redirect(`/done?len=${rawBody.length}`, [serializeCookie('a', 'b c', { sameSite: 'Strict', secure: false })]));
    const res = await raw(post('{ "spaced" :  1 }'));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/done?len=17');
    expect(res.headers.get('set-cookie')).toBe('a=b%20c; Path=/; HttpOnly; SameSite=Strict');
  });

  it('sends a browser that navigated to a route (pageErrorsTo) to a page saying what is wrong, never to JSON', async () => {
    const navigated = route({ query: z.object({ code: z.string({ error: 'GitHub sent no code back' }) }), response: z.never(), pageErrorsTo: '/admin/sign-in' }, async () => {
      throw new NotConfiguredError('GitHub sign-in is not configured: set GITHUB_OAUTH_CLIENT_ID and GITHUB_OAUTH_CLIENT_SECRET.');
    });
    const refused = await navigated(new Request('http://x/api/auth/github?code=1'));
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe(`/admin/sign-in?error=${encodeURIComponent('GitHub sign-in is not configured: set GITHUB_OAUTH_CLIENT_ID and GITHUB_OAUTH_CLIENT_SECRET.')}`);
    const invalid = await navigated(new Request('http://x/api/auth/github'));
    expect(invalid.status).toBe(303);
    expect(new URL(invalid.headers.get('location')!, 'http://x').searchParams.get('error')).toBe('Invalid query: code: GitHub sent no code back');
    // without it, the same refusal is the JSON error every API client reads
    const api = route({ response: z.never() }, async () => {
      throw new NotConfiguredError('not configured');
    });
    expect((await api(new Request('http://x/api/thing'))).status).toBe(503);
  });

  it('rejects bodies over the limit with 413', async () => {
    const small = route({ body: z.object({}).loose(), response: z.null(), maxBodyBytes: 10 }, async () => null);
    expect((await small(post(JSON.stringify({ x: 'y'.repeat(20) })))).status).toBe(413);
  });
});

describe('route() maps every domain error once', () => {
  const throwing = (e: unknown) => route({ response: z.null() }, async () => { throw e; });
  const answer = async (e: unknown) => {
    const res = await throwing(e)(new Request('http://x/api/thing'));
    return { status: res.status, body: (await res.json()) as { error: { code: string; message: string; details?: unknown } } };
  };

  // what a use case or adapter throws → the status and code a client sees
  const table: [string, () => unknown, number, string][] = [
    ['a failed validation', () => new BadRequestError('Invalid body: name: too short', { issues: [] }), 400, 'bad_request'],
    ['no credentials', () => new UnauthorizedError(), 401, 'unauthorized'],
    ['a role that may not act', () => new ForbiddenError('viewers cannot approve'), 403, 'forbidden'],
    ['an unknown thing', () => new NotFoundError('No pull request 7.'), 404, 'not_found'],
    ['an unknown run', () => new RunNotFoundError('r-404'), 404, 'not_found'],
    ['a state conflict', () => new ConflictError('already approved'), 409, 'conflict'],
    ['a run that cannot be configured', () => new RunConfigError('blueprint b has no models'), 409, 'conflict'],
    ['a model id that does not resolve', () => new ModelResolutionError('acme:x', 'Model id "acme:x": unknown provider "acme"'), 422, 'model_unresolved'],
    ['an invalid HTTP model spec', () => new CustomHttpSpecError('HTTP model "bot": invalid endpoint spec'), 422, 'invalid_model_spec'],
    ['too many requests', () => new RateLimitedError(12), 429, 'rate_limited'],
    ['missing configuration', () => new NotConfiguredError('set GITHUB_WEBHOOK_SECRET'), 503, 'not_configured'],
    ['a failing upstream', () => new UpstreamError('GitHub answered 500'), 502, 'upstream_error'],
  ];

  it.each(table)('%s → its status, code and message', async (_what, make, status, code) => {
    const e = make() as AppError;
    expect(e).toBeInstanceOf(AppError);
    const { status: got, body } = await answer(e);
    expect(got).toBe(status);
    expect(body.error.code).toBe(code);
    expect(body.error.message).toBe(e.message);
  });

  it('names the model of a ModelResolutionError, as resolveModel throws it', async () => {
    let thrown: unknown;
    try {
      resolveModel('acme:gpt', { keys: {} });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ModelResolutionError);
    const { status, body } = await answer(thrown);
    expect(status).toBe(422);
    expect(body.error).toMatchObject({ code: 'model_unresolved', details: { model: 'acme:gpt' } });
    expect(body.error.message).toContain('acme:gpt');
  });

  it('an unknown run names its id; a plain error is a 500 that says nothing of itself', async () => {
    expect((await answer(new RunNotFoundError('r-404'))).body.error.message).toContain('r-404');
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const plain = await answer(new Error('RunConfigError lookalike: not an AppError'));
    spy.mockRestore();
    expect(plain.status).toBe(500);
    expect(plain.body.error.code).toBe('internal');
    expect(plain.body.error.message).not.toContain('lookalike');
  });

  it("puts the route's headers on its replies, errors included", async () => {
    const polled = route({ response: z.object({ ok: z.boolean() }), headers: { 'cache-control': 'no-store' } }, async ({ request }) => {
      if (request.url.endsWith('/missing')) throw new RunNotFoundError('missing');
      return { ok: true };
    });
    const ok = await polled(new Request('http://x/api/ok'));
    const missing = await polled(new Request('http://x/api/missing'));
    expect([ok.status, missing.status]).toEqual([200, 404]);
    expect([ok.headers.get('cache-control'), missing.headers.get('cache-control')]).toEqual(['no-store', 'no-store']);
  });
});

describe('cookies', () => {
  it('reads a cookie by name from the Cookie header', () => {
    const req = new Request('http://x/', { headers: { cookie: 'a=1; assay_session=abc%3D; b=2' } });
    expect(readCookie(req, 'assay_session')).toBe('abc=');
    expect(readCookie(req, 'missing')).toBeNull();
    // a value that does not percent-decode is read as sent, not a 500
    expect(readCookie(new Request('http://x/', { headers: { cookie: 'assay_session=%E0%A4%A' } }), 'assay_session')).toBe('%E0%A4%A');
  });

  it('writes httpOnly cookies with their path, SameSite, Secure and Max-Age', () => {
    expect(serializeCookie('s', 'a;b', { sameSite: 'Lax', secure: true, maxAgeSeconds: 599.9, path: '/api/auth/github' })).toBe('s=a%3Bb; Max-Age=599; Path=/api/auth/github; HttpOnly; Secure; SameSite=Lax');
    expect(serializeCookie('s', '', { sameSite: 'Strict', secure: false, maxAgeSeconds: -5 })).toBe('s=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict');
  });
});
