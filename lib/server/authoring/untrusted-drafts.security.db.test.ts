/**
 * Hostile drafts through the routes a signed-in author reaches (POST /api/author/try and POST
 * /api/author/pull-request, the app's route handlers behind a Node server, a real database): each
 * is refused with a 400 that says what is wrong, and while they are parsed — in the untrusted-work
 * pool (lib/server/untrusted), never on this thread — the server keeps answering: the event loop's
 * delay and the time a light request takes are measured across the whole exchange.
 */
import { createServer, type Server } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileBlueprints } from '@/lib/core';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { createSession, SESSION_COOKIE } from '../auth/sessions';
import { sharedUntrustedPool } from '../untrusted/untrusted-pool';

type Handler = (request: Request) => Promise<Response>;

let t: TestDatabase;
let server: Server;
let base: string;

/** soev's `id_pattern` with nested quantifiers and a 28-character case id: 17 s of backtracking on V8's own engine. */
const SOEV_BACKTRACKING = `name: evil
id_pattern: "((?:a+)+)b"
cases:
  - id: ${'a'.repeat(28)}
    lineage: evil
    category: evil
    turns:
      - prompt: hi
    criteria:
      - kind: refusal.code
`;

/** A `correct:` JSONPath written as jsonpath-plus script: optional calls build a string and run a backtracking regex on it. */
const CORRECT_SCRIPT = `title: Evil check
---
- id: p
  prompt: hi
  correct:
    assertions:
      - type: jsonpath_exists
        path: "$[?@.slice?.(0,0).padEnd?.(26,'a').concat?.('!').match?.('^(a+)+$')]"
`;

/** Within the size limits, yet seconds of parsing (the parser's cost grows faster than the text). */
const HEAVY = hostileBlueprints.manyPoints(60_000);

beforeAll(async () => {
  t = await freshDatabase();
  // the routes read the app's configuration through the composition root; nothing here reaches a provider or GitHub
  Object.assign(process.env, {
    DATABASE_URL: t.url,
    ASSAY_LLM_BASE_URL: 'http://127.0.0.1:9',
    ASSAY_JUDGES: 'openai:judge-a',
    ASSAY_TRY_MODELS: 'openai:model-a',
    ASSAY_TRY_RUNS_PER_HOUR: '100',
    GITHUB_REPOSITORY: 'octo/blueprints',
    GITHUB_API_URL: 'http://127.0.0.1:9',
    ASSAY_TOKEN_KEY: '0f'.repeat(32),
  });
  const tryRoute = (await import('@/app/api/author/try/route')) as { GET: Handler; POST: Handler };
  const prRoute = (await import('@/app/api/author/pull-request/route')) as { POST: Handler };
  const routes: Record<string, Handler> = { 'GET /api/author/try': tryRoute.GET, 'POST /api/author/try': tryRoute.POST, 'POST /api/author/pull-request': prRoute.POST };
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', base);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const handler = routes[`${req.method} ${url.pathname}`];
      const answered = handler ? handler(new Request(url, { method: req.method, headers, ...(body ? { body } : {}) })) : Promise.resolve(new Response('no route', { status: 404 }));
      answered.then(
        async (r) => {
          res.writeHead(r.status, Object.fromEntries(r.headers));
          res.end(Buffer.from(await r.arrayBuffer()));
        },
        (e: unknown) => res.writeHead(500).end(String(e)),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  base = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  // as the server does when it wires the run pipeline (compose/run-deps.ts): a worker's start-up is not a request's
  await sharedUntrustedPool().warm();
}, 60_000);
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await t?.close();
});

async function signedIn(login: string): Promise<string> {
  const user = await t.db.user.create({ data: { githubLogin: login, role: 'author' } });
  return `${SESSION_COOKIE}=${(await createSession(t.db, user.id)).token}`;
}

const post = (path: string, cookie: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base, cookie }, body: JSON.stringify(body) });
const tryDraft = (cookie: string, yaml: string, name: string) => post('/api/author/try', cookie, { yaml, name, models: ['openai:model-a'] });
const openPr = (cookie: string, yaml: string, path: string) => post('/api/author/pull-request', cookie, { yaml, path, title: 'Evil' });

interface ErrorBody {
  error: { message: string; details: { issues: Array<{ line: number; col: number; message: string }> } };
}

/**
 * While `work` runs: the event loop's largest delay, and the slowest of light requests sent every
 * 25 ms (a visitor's GET /api/author/try, answered 401 by the route without the database).
 */
async function whileServing<T>(work: () => Promise<T>): Promise<{ result: T; loopMaxMs: number; lightMaxMs: number; lightCount: number }> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const light: number[] = [];
  let done = false;
  const prober = (async () => {
    while (!done) {
      const t0 = performance.now();
      const r = await fetch(`${base}/api/author/try`);
      expect(r.status).toBe(401);
      await r.arrayBuffer();
      light.push(performance.now() - t0);
      await new Promise((res) => setTimeout(res, 25));
    }
  })();
  const result = await work();
  done = true;
  await prober;
  loop.disable();
  return { result, loopMaxMs: loop.max / 1e6, lightMaxMs: Math.max(...light), lightCount: light.length };
}

describe(`hostile drafts through the author routes (${process.env.ASSAY_TEST_DB})`, () => {
  it('refuses each with a 400 that says what is wrong, and the event loop is never held 200 ms meanwhile', async () => {
    const cookie = await signedIn('mallory');
    // the try-it settings row is written on first use; concurrent first uses race on its insert (a separate bug), so one request goes first
    expect((await fetch(`${base}/api/author/try`, { headers: { cookie } })).status).toBe(200);
    const m = await whileServing(() =>
      Promise.all([
        tryDraft(cookie, SOEV_BACKTRACKING, 'blueprints/evil-suite.yml'),
        openPr(cookie, SOEV_BACKTRACKING, 'blueprints/community/evil-suite.yml'),
        tryDraft(cookie, CORRECT_SCRIPT, 'blueprints/evil-check.yml'),
        openPr(cookie, CORRECT_SCRIPT, 'blueprints/community/evil-check.yml'),
        tryDraft(cookie, HEAVY, 'blueprints/heavy.yml'),
      ]),
    );
    const read = async (r: Response) => ({ status: r.status, body: (await r.json()) as ErrorBody });
    const [trySoev, prSoev, tryCorrect, prCorrect, tryHeavy] = await Promise.all([read(m.result[0]), read(m.result[1]), read(m.result[2]), read(m.result[3]), read(m.result[4])]);
    console.info(`hostile drafts: event-loop delay max ${m.loopMaxMs.toFixed(0)} ms; ${m.lightCount} light requests meanwhile, slowest ${m.lightMaxMs.toFixed(0)} ms`);

    // the suite's id is checked against id_pattern without backtracking: a clear mismatch, at the case id
    for (const r of [trySoev, prSoev]) {
      expect(r.status).toBe(400);
      expect(r.body.error.details.issues).toContainEqual(expect.objectContaining({ line: 4, col: 9, message: expect.stringContaining(`the case id "${'a'.repeat(28)}" does not match the suite's \`id_pattern\``) }));
    }
    // a script where an RFC 9535 JSONPath is expected is refused at its path, before any reply is graded
    for (const r of [tryCorrect, prCorrect]) {
      expect(r.status).toBe(400);
      expect(r.body.error.details.issues).toContainEqual(expect.objectContaining({ line: 8, col: 15, message: expect.stringContaining('JSONPath') }));
    }
    expect(tryHeavy.status).toBe(400);
    expect(trySoev.body.error.message).toMatch(/^The draft does not validate \(\d+ errors?\): blueprints\/evil-suite\.yml:/);
    expect(prSoev.body.error.message).toMatch(/^blueprints\/community\/evil-suite\.yml:\d+:\d+: .*Fix the draft first; nothing was sent to GitHub\.$/);
    expect(await t.db.run.count()).toBe(0);

    // the event loop is never held for 200 ms; a light request's round trip also waits on the OS
    // scheduler, which on a 2-core machine running other test files added up to ~250 ms (measured)
    expect(m.lightCount).toBeGreaterThan(0);
    expect(m.loopMaxMs).toBeLessThan(200);
    expect(m.lightMaxMs).toBeLessThan(400);
  }, 60_000);
});
