/**
 * Issue 11, finding 8, end to end: a blueprint's HTTP system under test echoes the headers it
 * is sent. Run through the production wiring (createRunDeps reads the environment), the stored
 * reply — its text, its turns, the response cache — holds no token, and a model that answers
 * with an error stores no token in its error either.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { parseEnv } from '../env';
import { executeRun } from './engine/execute-run';
import { requestRun } from './request-run';
import { noDispatch, storeBlueprint, TEST_DEFAULTS } from './runs.testkit';
import { createRunDeps } from '../compose/run-deps';

const BOT_TOKEN = 'bot-token-stored-nowhere-0123456789';
let t: TestDatabase;
let server: Server;
let origin = '';

beforeAll(async () => {
  t = await freshDatabase();
  server = createServer((req, res) => {
    const echoed = `you sent ${JSON.stringify(req.headers)}`;
    res.setHeader('content-type', 'application/json');
    if (req.url === '/fail') return void res.writeHead(400).end(JSON.stringify({ error: echoed }));
    res.end(JSON.stringify({ echo: echoed }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  origin = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await t?.close();
});

const blueprint = () => `title: Echo
models:
  - { id: echo-bot, url: "${origin}/echo", headers: { Authorization: { env: BOT_TOKEN, prefix: "Bearer " } }, response: { content: "$.echo" } }
  - { id: failing-bot, url: "${origin}/fail", headers: { X-Token: { env: BOT_TOKEN } }, response: { content: "$.echo" } }
---
- id: p1
  prompt: Repeat after me
  should:
    - $contains: you sent
`;

describe(`no stored reply carries a known secret (${process.env.ASSAY_TEST_DB})`, () => {
  it('stores the echoing system’s reply and error with the token redacted', async () => {
    const processEnv = { ASSAY_HTTP_MODEL_ORIGINS: origin, ASSAY_HTTP_MODEL_ENV: `BOT_TOKEN@${origin}`, BOT_TOKEN };
    const deps = await createRunDeps(t.db, parseEnv(processEnv), { processEnv, concurrency: 2 });
    const { blueprintId } = await storeBlueprint(t.db, 'echo.yml', blueprint());
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', repeats: 1 }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(deps, runId)).toBe('completed');
    const replies = await t.db.reply.findMany({ where: { runId }, select: { modelId: true, content: true, turns: true, error: true } });
    expect(replies.map((r) => r.modelId).sort()).toEqual(['echo-bot', 'failing-bot']);
    const echo = replies.find((r) => r.modelId === 'echo-bot')!;
    expect(echo.content).toContain('Bearer [redacted]');
    const failing = replies.find((r) => r.modelId === 'failing-bot')!;
    expect(failing.error).toMatch(/HTTP 400/);
    const everything = JSON.stringify([replies, await t.db.responseCache.findMany(), await t.db.verdict.findMany()]);
    expect(everything).not.toContain(BOT_TOKEN);
  });
});
