/**
 * Issue 11, finding 8: a token in ASSAY_HTTP_MODEL_ENV was sent to every allow-listed origin,
 * and an endpoint that echoes headers got its reply stored with the token in it. Over real
 * HTTP, with an endpoint that answers with the headers it was sent, through the production path
 * (providerConfigFromEnv → resolveModel, which the run gateway uses for every call).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../env';
import { createRedactor, knownSecrets, REDACTED, redactConsole } from '../secret-redactor';
import { resolveModel } from './resolve';
import { providerConfigFromEnv } from '../compose/provider-config';
import { ProviderError } from './types';

const BOT_TOKEN = 'bot-token-0123456789-abcdef';
const OPENAI_KEY = 'sk-proj-echoed-key-0123456789abcdef';
const GITHUB_TOKEN = 'ghp_should_never_be_echoed_0123456789';
let server: Server;
let port = 0;
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  // an endpoint that echoes the request headers: custom JSON at /echo, OpenAI format at /v1/chat/completions, an error at /fail
  server = createServer((req, res) => {
    seen.push(req.headers);
    const echoed = JSON.stringify(req.headers);
    res.setHeader('content-type', 'application/json');
    if (req.url?.startsWith('/fail')) return void res.writeHead(500).end(JSON.stringify({ error: { message: `upstream saw ${echoed} and ${GITHUB_TOKEN}` } }));
    if (req.url?.startsWith('/v1/chat/completions')) {
      return void res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: `you sent ${echoed}` } }] }));
    }
    res.end(JSON.stringify({ echo: `you sent ${echoed}`, args: { auth: req.headers.authorization ?? null } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  port = typeof a === 'object' && a ? a.port : 0;
});
afterAll(async () => new Promise<void>((r) => server.close(() => r())));

/** One machine, two origins: 127.0.0.1 (the token's) and localhost (another allow-listed team's). */
const ours = () => `http://127.0.0.1:${port}`;
const theirs = () => `http://localhost:${port}`;
const processEnv = () => ({
  ASSAY_HTTP_MODEL_ORIGINS: `${ours()},${theirs()}`,
  ASSAY_HTTP_MODEL_ENV: `BOT_TOKEN@${ours()}`,
  BOT_TOKEN,
  OPENAI_API_KEY: OPENAI_KEY,
  GITHUB_TOKEN,
  ASSAY_LLM_BASE_URL: `${ours()}/v1`,
});
const spec = (origin: string, path = '/echo') => ({ url: `${origin}${path}`, headers: { Authorization: { env: 'BOT_TOKEN', prefix: 'Bearer ' } }, response: { content: '$.echo', tool_calls: '$.calls' } });

describe('exposed variables are bound to their origins', () => {
  it('sends BOT_TOKEN to its own origin and refuses, before any request, to send it to another allow-listed one', async () => {
    const config = providerConfigFromEnv(processEnv());
    const before = seen.length;
    expect(() => resolveModel({ id: 'their-bot', spec: spec(theirs()) }, config)).toThrow(
      new RegExp(`BOT_TOKEN, which may be sent only to http://127\\.0\\.0\\.1:${port}, not to http://localhost:${port}.*BOT_TOKEN@http://localhost:${port} in ASSAY_HTTP_MODEL_ENV`),
    );
    expect(seen.length).toBe(before);
    const { client, model } = resolveModel({ id: 'our-bot', spec: spec(ours()) }, config);
    await client.chat({ model, messages: [{ role: 'user', content: 'hi' }] });
    expect(seen.at(-1)?.authorization).toBe(`Bearer ${BOT_TOKEN}`);
  });

  it('refuses an unbound name at start-up, saying how to bind it', () => {
    expect(() => parseEnv({ ASSAY_HTTP_MODEL_ENV: 'BOT_TOKEN' })).toThrow(/ASSAY_HTTP_MODEL_ENV: "BOT_TOKEN" has no origin: bind it .* BOT_TOKEN@https:\/\/bot\.example\.org/);
    expect(() => parseEnv({ ASSAY_HTTP_MODEL_ENV: 'BOT_TOKEN@ftp://x' })).toThrow(/is not an http\(s\) origin/);
    expect(() => parseEnv({ ASSAY_HTTP_MODEL_ENV: `BOT_TOKEN@${ours()}/path, BOT_TOKEN@https://b.example` })).not.toThrow();
  });
});

describe('known secrets never reach a stored reply, an error or a log', () => {
  it('redacts the echoed token from the reply text an HTTP model returns', async () => {
    const { client, model } = resolveModel({ id: 'our-bot', spec: spec(ours()) }, providerConfigFromEnv(processEnv()));
    const reply = await client.chat({ model, messages: [{ role: 'user', content: 'echo please' }] });
    expect(reply.content).toContain('you sent');
    expect(reply.content).not.toContain(BOT_TOKEN);
    expect(reply.content).toContain(`Bearer ${REDACTED}`);
  });

  it('redacts a provider key echoed by an OpenAI-compatible endpoint', async () => {
    const { client, model } = resolveModel('openai:gpt-4o-mini', providerConfigFromEnv(processEnv()));
    const reply = await client.chat({ model, messages: [{ role: 'user', content: 'echo' }] });
    expect(seen.at(-1)?.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(reply.content).toContain('authorization');
    expect(reply.content).not.toContain(OPENAI_KEY);
  });

  it('redacts every known secret from the error a failing endpoint answers with', async () => {
    const { client, model } = resolveModel({ id: 'our-bot', spec: spec(ours(), '/fail') }, { ...providerConfigFromEnv(processEnv()), defaultTimeoutMs: 5000 });
    const e = await client.chat({ model, messages: [{ role: 'user', content: 'x' }] }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderError);
    expect((e as Error).message).toContain('HTTP 500');
    expect((e as Error).message).not.toContain(GITHUB_TOKEN);
    expect((e as Error).message).not.toContain(BOT_TOKEN);
  });

  it('knows the credentials of the environment, in their other spellings, and leaves short values alone', () => {
    const secrets = knownSecrets({
      ...processEnv(),
      DATABASE_URL: 'postgresql://assay:p%40ss-word-123@db:5432/assay',
      GITHUB_APP_PRIVATE_KEY: `-----BEGIN KEY-----\\n${'A'.repeat(40)}\\n-----END KEY-----`,
      GROQ_API_KEY: 'short',
    });
    expect(secrets).toEqual(expect.arrayContaining([BOT_TOKEN, OPENAI_KEY, GITHUB_TOKEN, 'p@ss-word-123', 'A'.repeat(40)]));
    expect(secrets).not.toContain('short');
    const redact = createRedactor(secrets);
    expect(redact(`x ${'A'.repeat(40)} y p@ss-word-123 z`)).toBe(`x ${REDACTED} y ${REDACTED} z`);
  });

  it('redacts every console line, errors and their stacks included', () => {
    const lines: string[] = [];
    const record = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
    const sink = { log: record, info: record, warn: record, error: record, debug: record, trace: record };
    redactConsole(sink, createRedactor(knownSecrets(processEnv())));
    sink.log('calling with %s', BOT_TOKEN);
    sink.error('failed:', new Error(`bad key ${OPENAI_KEY}`), { token: GITHUB_TOKEN });
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).not.toMatch(new RegExp(`${BOT_TOKEN}|${OPENAI_KEY}|${GITHUB_TOKEN}`));
    expect(lines[1]).toMatch(/failed: Error: bad key \[redacted\]\n\s+at /);
  });
});
