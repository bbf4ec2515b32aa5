import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startFakeLlm } from '@/testing/fakes/llm-server';
import { runLlmClientContract } from './llm-client-contract.testkit';
import { createCustomHttpClient, mapCustomResponse, templateVariables } from './custom-http';
import { CustomHttpSpecError, parseCustomHttpSpec, renderTemplate } from './custom-http-spec';

const auth = { Authorization: { env: 'BOT_TOKEN', prefix: 'Bearer ' } };

runLlmClientContract(
  'custom HTTP, format: openai',
  ({ fake, apiKey }) =>
    createCustomHttpClient('team-bot', { format: 'openai', url: `${fake.url}/chat/completions`, model: 'fake-model', headers: auth }, {
      allowedOrigins: [fake.origin],
      env: { BOT_TOKEN: { value: apiKey, origins: [fake.origin] } },
    }).client,
  { logprobs: true, toolCalls: true, usage: true, served: { fingerprint: true, requestIdHeader: 'x-request-id' } },
);

runLlmClientContract(
  'custom HTTP, JSON mapping',
  ({ fake, apiKey }) =>
    createCustomHttpClient(
      'team-bot',
      {
        url: `${fake.origin}/custom/chat`,
        headers: { 'X-Api-Key': { env: 'BOT_TOKEN' } },
        body: { model: '{{model}}', messages: '{{messages}}', temperature: '{{temperature}}', note: 'attempt {{attempt}}' },
        response: { content: '$.output.text', tool_calls: '$.output.tool_calls', prompt_tokens: '$.usage.input', completion_tokens: '$.usage.output' },
      },
      { allowedOrigins: [fake.origin], env: { BOT_TOKEN: { value: apiKey, origins: [fake.origin] } } },
    ).client,
  { logprobs: false, toolCalls: true, usage: true, served: { fingerprint: true, requestIdHeader: 'x-request-id' } },
);

const bot = ['https://bot.example.org'];
const ctx = { allowedOrigins: bot, env: { BOT_TOKEN: { value: 'secret-value-123', origins: bot }, UNSET_TOKEN: { value: undefined, origins: bot } } };
const mapping = { url: 'https://bot.example.org/chat', response: { content: '$.reply' } };

function specError(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(CustomHttpSpecError);
    return (e as Error).message;
  }
  throw new Error('expected a CustomHttpSpecError');
}

describe('custom HTTP spec validation', () => {
  it('accepts a minimal mapping, with `endpoint` as a synonym of `url`', () => {
    expect(parseCustomHttpSpec({ endpoint: 'https://bot.example.org/chat', response: { content: '$.reply' } }, 'bot')).toMatchObject({
      format: 'custom',
      method: 'POST',
      url: 'https://bot.example.org/chat',
    });
  });

  it('refuses a literal header value, saying to name an environment variable instead', () => {
    const msg = specError(() => parseCustomHttpSpec({ ...mapping, headers: { Authorization: 'Bearer sk-live-abc' } }, 'bot'));
    expect(msg).toContain('headers.Authorization');
    expect(msg).toContain('{ env: MY_SERVICE_TOKEN }');
    expect(msg).not.toContain('sk-live-abc');
  });

  it('lists every problem with a hint: missing response, bad JSONPath, unknown keys, bad URL', () => {
    expect(specError(() => parseCustomHttpSpec({ url: 'https://bot.example.org' }, 'bot'))).toMatch(/response: required for a custom mapping.*format: openai/);
    const msg = specError(() => parseCustomHttpSpec({ url: 'ftp://x', respons: {}, response: { content: 'reply' } }, 'bot'));
    expect(msg).toContain('HTTP model "bot"');
    expect(msg).toContain('url: must be an http:// or https:// URL');
    expect(msg).toContain('unknown key(s) respons');
    expect(msg).toContain('response.content: must be a JSONPath starting with $');
  });

  it('names an unknown format and unknown placeholders', () => {
    expect(specError(() => parseCustomHttpSpec({ ...mapping, format: 'grpc' }, 'bot'))).toContain("format: must be 'openai'");
    expect(specError(() => parseCustomHttpSpec({ ...mapping, body: { q: '{{question}}' } }, 'bot'))).toMatch(/body\.q: unknown placeholder \{\{question\}\}; known: \{\{messages\}\}/);
  });

  it('refuses hosts the maintainer has not allowed, and header variables not exposed or not set', () => {
    expect(specError(() => createCustomHttpClient('bot', { ...mapping, url: 'http://169.254.169.254/latest' }, ctx))).toMatch(
      /http:\/\/169\.254\.169\.254 is not an allowed endpoint.*ASSAY_HTTP_MODEL_ORIGINS/,
    );
    expect(specError(() => createCustomHttpClient('bot', { ...mapping, headers: { Authorization: { env: 'DATABASE_URL' } } }, ctx))).toMatch(
      /DATABASE_URL, which is not exposed.*ASSAY_HTTP_MODEL_ENV/,
    );
    expect(specError(() => createCustomHttpClient('bot', { ...mapping, headers: { Authorization: { env: 'UNSET_TOKEN' } } }, ctx))).toContain('Set UNSET_TOKEN');
    expect(createCustomHttpClient('bot', { ...mapping, headers: { Authorization: { env: 'BOT_TOKEN' } } }, ctx).model).toBe('bot');
  });
});

describe('custom HTTP templates and mapping', () => {
  it('substitutes whole-value placeholders as values and inline ones as text, dropping undefined', () => {
    const vars = templateVariables({
      model: 'bot',
      temperature: 0.5,
      messages: [
        { role: 'system', content: 'Be kind.' },
        { role: 'user', content: 'Hi' },
      ],
    });
    expect(renderTemplate({ q: '{{last_user}}', ctx: 'sys={{system}}; t={{temperature}}', t: '{{temperature}}', n: '{{max_tokens}}', list: ['{{model}}'] }, vars)).toEqual({
      q: 'Hi',
      ctx: 'sys=Be kind.; t=0.5',
      t: 0.5,
      list: ['bot'],
    });
    expect(renderTemplate('{{messages}}', vars)).toEqual([
      { role: 'system', content: 'Be kind.' },
      { role: 'user', content: 'Hi' },
    ]);
  });

  it('reads content, tool calls (any common shape) and usage through JSONPaths', () => {
    const res = mapCustomResponse(
      { data: { answer: { text: 'Done.' }, actions: [{ tool: 'book', args: { day: 'Mon' } }, { function: { name: 'pay', arguments: '{"eur":5}' } }] }, n: { i: 7, o: 2 } },
      { content: '$.data.answer.text', tool_calls: '$.data.actions', prompt_tokens: '$.n.i', completion_tokens: '$.n.o' },
      { provider: 'custom', model: 'bot', latencyMs: 1 },
    );
    expect(res).toMatchObject({
      content: 'Done.',
      toolCalls: [
        { name: 'book', arguments: { day: 'Mon' } },
        { name: 'pay', arguments: { eur: 5 } },
      ],
      usage: { promptTokens: 7, completionTokens: 2 },
      logprobs: null,
    });
  });

  it('calls a reply without the content path malformed, and reads paths as RFC 9535 (filters, never scripts)', () => {
    const meta = { provider: 'custom', model: 'bot', latencyMs: 1 };
    expect(() => mapCustomResponse({ other: 1 }, { content: '$.reply' }, meta)).toThrow(expect.objectContaining({ kind: 'malformed' }));
    expect(mapCustomResponse({ a: [{ x: 1, t: 'no' }, { t: 'yes' }] }, { content: '$.a[?!@.x].t' }, meta).content).toBe('yes');
    expect(() => mapCustomResponse({ a: [{ x: 'b' }] }, { content: "$.a[?(@.x.padEnd?.(1e8, 'a'))]" }, meta)).toThrow(/cannot call methods/);
  });

  it('does not follow redirects (an allowed URL must not lead elsewhere)', async () => {
    const fake = await startFakeLlm();
    // An allowed host that redirects to another one (the fake stands in for "elsewhere").
    const redirector = createServer((_req, res) => res.writeHead(302, { location: `${fake.origin}/custom/chat` }).end());
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
    try {
      const { client } = createCustomHttpClient('bot', { url: `${origin}/chat`, response: { content: '$.output.text' } }, { allowedOrigins: [origin], env: {} });
      await expect(client.chat({ model: 'bot', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ kind: 'bad_request', status: 302 });
      const openaiFormat = createCustomHttpClient('bot', { format: 'openai', url: `${origin}/v1` }, { allowedOrigins: [origin], env: {} }).client;
      await expect(openaiFormat.chat({ model: 'bot', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ kind: 'bad_request', status: 302 });
      expect(fake.calls()).toBe(0);
    } finally {
      await new Promise((r) => redirector.close(r));
      await fake.close();
    }
  });
});
