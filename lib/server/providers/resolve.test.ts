import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startFakeLlm } from '@/testing/fakes/llm-server';
import { AnthropicClient } from './anthropic';
import { GoogleClient } from './google';
import { OpenAiCompatibleClient } from './openai-compatible';
import { ModelResolutionError, resolveModel, type ProviderConfig } from './resolve';
import { providerConfigFromEnv } from '../compose/provider-config';

const keys: ProviderConfig['keys'] = {
  openai: 'sk-openai-SECRET-1111111111',
  openrouter: 'sk-or-SECRET-2222222222',
  anthropic: 'sk-ant-SECRET-3333333333',
  google: 'AIza-SECRET-4444444444',
  together: 'tg-SECRET-5555555555',
  groq: 'gsk-SECRET-6666666666',
};

function resolutionError(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ModelResolutionError);
    return (e as Error).message;
  }
  throw new Error('expected a ModelResolutionError');
}

describe('resolveModel', () => {
  it.each([
    ['openai:gpt-4o-mini', 'openai', 'gpt-4o-mini', OpenAiCompatibleClient],
    ['openrouter:openai/gpt-4o', 'openrouter', 'openai/gpt-4o', OpenAiCompatibleClient],
    ['together:meta-llama/Llama-3.3-70B-Instruct-Turbo', 'together', 'meta-llama/Llama-3.3-70B-Instruct-Turbo', OpenAiCompatibleClient],
    ['groq:llama-3.1-8b-instant', 'groq', 'llama-3.1-8b-instant', OpenAiCompatibleClient],
    ['ollama:llama3.2:3b', 'ollama', 'llama3.2:3b', OpenAiCompatibleClient],
    ['vllm:Qwen/Qwen2.5-7B-Instruct', 'vllm', 'Qwen/Qwen2.5-7B-Instruct', OpenAiCompatibleClient],
    ['lmstudio:qwen2.5-7b-instruct', 'lmstudio', 'qwen2.5-7b-instruct', OpenAiCompatibleClient],
    ['anthropic:claude-3-5-haiku-latest', 'anthropic', 'claude-3-5-haiku-latest', AnthropicClient],
    ['google:gemini-2.0-flash', 'google', 'gemini-2.0-flash', GoogleClient],
  ])('%s → %s adapter, model %s', (id, provider, model, type) => {
    const resolved = resolveModel(id, { keys });
    expect(resolved.model).toBe(model);
    expect(resolved.client.provider).toBe(provider);
    expect(resolved.client).toBeInstanceOf(type);
  });

  it('reuses one client per provider for the same configuration', () => {
    const config = { keys };
    expect(resolveModel('openai:a', config).client).toBe(resolveModel('openai:b', config).client);
    expect(resolveModel('openai:a', config).client).not.toBe(resolveModel('openai:a', { keys }).client);
  });

  it('names the variable to set when a key is missing (local servers need none)', () => {
    expect(resolutionError(() => resolveModel('openai:gpt-4o', { keys: {} }))).toBe(
      'openai:gpt-4o needs an API key for openai: set OPENAI_API_KEY in the environment (see .env.example).',
    );
    expect(resolutionError(() => resolveModel('anthropic:claude-3-5-haiku-latest', { keys: {} }))).toContain('set ANTHROPIC_API_KEY');
    expect(resolutionError(() => resolveModel('openrouter:x/y', { keys: {} }))).toContain('set OPENROUTER_API_KEY');
    expect(resolutionError(() => resolveModel('google:gemini-2.0-flash', { keys: {} }))).toContain('set GOOGLE_API_KEY');
    expect(resolveModel('ollama:llama3', { keys: {} }).model).toBe('llama3');
  });

  it('explains unknown prefixes, missing prefixes and empty model names', () => {
    expect(resolutionError(() => resolveModel('mistrall:large', { keys }))).toMatch(/unknown provider "mistrall" \(providers: openai, openrouter, .*google\)/);
    expect(resolutionError(() => resolveModel('gpt-4o', { keys }))).toMatch(/no provider prefix: write it as provider:model, e.g. openai:gpt-4o-mini/);
    expect(resolutionError(() => resolveModel('openai:', { keys }))).toContain('names no model');
  });

  it('never shows a key: not in errors, not when the client is logged or serialised', () => {
    const secrets = Object.values(keys);
    const messages = [
      resolutionError(() => resolveModel('nope:x', { keys })),
      resolutionError(() => resolveModel('openai:', { keys })),
      resolutionError(() => resolveModel('openai:gpt-4o', { keys: { anthropic: keys.anthropic } })),
    ];
    for (const id of ['openai:gpt-4o', 'anthropic:claude-3-5-haiku-latest', 'google:gemini-2.0-flash', 'groq:x']) {
      const { client } = resolveModel(id, { keys });
      messages.push(JSON.stringify(client), inspect(client, { depth: 10, showHidden: true }), String(client));
    }
    for (const text of messages) for (const s of secrets) expect(text).not.toContain(s!);
  });

  it('sends every OpenAI-compatible and the Anthropic provider to ASSAY_LLM_BASE_URL, keys optional', async () => {
    const fake = await startFakeLlm({ rules: [{ model: 'claude', reply: 'from the anthropic dialect' }] });
    try {
      const config: ProviderConfig = { keys: {}, baseUrlOverride: fake.url };
      for (const id of ['openai:gpt-4o-mini', 'openrouter:openai/gpt-4o', 'together:x', 'groq:y', 'vllm:z', 'ollama:w', 'lmstudio:v']) {
        const { client, model } = resolveModel(id, config);
        const res = await client.chat({ model, messages: [{ role: 'user', content: 'ping' }] });
        expect(res.content).toBe(`Fake reply from ${model} to: ping`);
      }
      const { client, model } = resolveModel('anthropic:claude-3-5-haiku-latest', config);
      expect((await client.chat({ model, messages: [{ role: 'user', content: 'ping' }] })).content).toBe('from the anthropic dialect');
      expect(fake.requests().map((r) => r.dialect)).toEqual([...Array(7).fill('openai'), 'anthropic']);
    } finally {
      await fake.close();
    }
  });

  it('resolves custom model objects against the maintainer allow-lists', async () => {
    const fake = await startFakeLlm({ apiKeys: ['bot-token-xyz'], rules: [{ reply: 'custom says hi' }] });
    try {
      const config: ProviderConfig = { keys: {}, custom: { allowedOrigins: [fake.origin], env: { BOT_TOKEN: { value: 'bot-token-xyz', origins: [fake.origin] } } } };
      const spec = {
        url: `${fake.origin}/custom/chat`,
        headers: { Authorization: { env: 'BOT_TOKEN', prefix: 'Bearer ' } },
        body: { input: '{{last_user}}' },
        response: { content: '$.output.text' },
      };
      const { client, model } = resolveModel({ id: 'team-bot', spec }, config);
      expect(model).toBe('team-bot');
      expect((await client.chat({ model, messages: [{ role: 'user', content: 'hello' }] })).content).toBe('custom says hi');
      expect(() => resolveModel({ id: 'team-bot', spec }, { keys: {} })).toThrow(/not an allowed endpoint.*ASSAY_HTTP_MODEL_ORIGINS/);
    } finally {
      await fake.close();
    }
  });
});

describe('providerConfigFromEnv', () => {
  it('reads keys, the override, local base URLs and the HTTP-model allow-lists', () => {
    const config = providerConfigFromEnv({
      OPENAI_API_KEY: 'sk-1',
      ANTHROPIC_API_KEY: '',
      GROQ_API_KEY: 'g',
      ASSAY_LLM_BASE_URL: 'http://127.0.0.1:4010/v1',
      OLLAMA_BASE_URL: 'http://gpu-box:11434/v1',
      ASSAY_HTTP_MODEL_ORIGINS: 'https://bot.example.org, http://127.0.0.1:4010',
      ASSAY_HTTP_MODEL_ENV: 'BOT_TOKEN@https://bot.example.org,MISSING_ONE@http://127.0.0.1:4010, BOT_TOKEN@http://127.0.0.1:4010/v1',
      BOT_TOKEN: 't',
      DATABASE_URL: 'postgresql://never-exposed',
    });
    expect(config).toEqual({
      keys: { openai: 'sk-1', groq: 'g' },
      baseUrls: { ollama: 'http://gpu-box:11434/v1' },
      baseUrlOverride: 'http://127.0.0.1:4010/v1',
      custom: {
        allowedOrigins: ['https://bot.example.org', 'http://127.0.0.1:4010'],
        env: { BOT_TOKEN: { value: 't', origins: ['https://bot.example.org', 'http://127.0.0.1:4010'] }, MISSING_ONE: { value: undefined, origins: ['http://127.0.0.1:4010'] } },
      },
      // sk-1, g and t are too short to be redacted without garbling replies

    });
  });
});
