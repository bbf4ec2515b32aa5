/**
 * The batch adapters (OpenAI Batch, Anthropic Message Batches) against the fake's batch APIs,
 * through the official SDKs: one contract for both. A batch is pending until the fake's delay
 * passed, then every line comes back by its custom id as the ChatResponse a live call gives
 * (the same content, tool calls, usage and log-probabilities), a line the fake fails comes back
 * as a classified ProviderError, and the fake bills the lines at half its live price.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { AnthropicClient } from './anthropic';
import type { BatchApi, BatchLine } from './batch-types';
import { OpenAiCompatibleClient } from './openai-compatible';
import { ProviderError, type LlmClient } from './types';

const KEY = 'sk-batch-contract-0123456789';
let fake: FakeLlm;

beforeAll(async () => {
  fake = await startFakeLlm({
    apiKeys: [KEY],
    rules: [
      { name: 'capital', lastUser: 'capital of France', reply: 'Paris.' },
      { name: 'weather', lastUser: /weather/, toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
    ],
  });
});
afterAll(() => fake?.close());
beforeEach(() => fake.reset());

const WEATHER_TOOL = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };
const lines: BatchLine[] = [
  { customId: 'capital-a0', request: { model: 'fake-model', messages: [{ role: 'user', content: 'What is the capital of France?' }], temperature: 0 } },
  { customId: 'weather-a0', request: { model: 'fake-model', messages: [{ role: 'user', content: 'What is the weather in Paris?' }], tools: [WEATHER_TOOL] } },
  { customId: 'poem-a0', request: { model: 'fake-model', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Write a poem.' }] } },
];

const adapters: { name: string; client: () => LlmClient; logprobs: boolean }[] = [
  { name: 'OpenAI Batch', client: () => new OpenAiCompatibleClient({ provider: 'openai', apiKey: KEY, baseURL: fake.url }), logprobs: true },
  { name: 'Anthropic Message Batches', client: () => new AnthropicClient({ apiKey: KEY, baseURL: fake.origin }), logprobs: false },
];

async function untilEnded(api: BatchApi, id: string): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < 200; i++) {
    const s = await api.retrieve(id);
    seen.push(s.status);
    if (s.ended) return seen;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`batch ${id} never ended: ${seen.join(', ')}`);
}

describe.each(adapters)('the $name adapter against the fake', ({ client, logprobs }) => {
  it('submits, is pending until the batch completes, and reads every line as a live reply', async () => {
    fake.setBatch({ delayMs: 800 });
    const c = client();
    const api = c.batch!;
    expect(api).toBeDefined();
    const submitted = await api.submit(lines);
    expect(submitted.ended).toBe(false);
    const statuses = await untilEnded(api, submitted.id);
    expect(statuses.at(-1)).toBe(c.provider === 'openai' ? 'completed' : 'ended');
    const results = await api.results(submitted.id);
    expect(results.map((r) => r.customId).sort()).toEqual(['capital-a0', 'poem-a0', 'weather-a0']);
    const by = new Map(results.map((r) => [r.customId, r]));

    // the same reply a live call gets for the same request
    for (const line of lines) {
      const live = await c.chat({ ...line.request });
      const batched = by.get(line.customId)!.response!;
      expect(batched.content).toBe(live.content);
      expect(batched.toolCalls.map((t) => [t.name, t.arguments])).toEqual(live.toolCalls.map((t) => [t.name, t.arguments]));
      expect(batched.usage).toEqual(live.usage);
      expect(batched.latencyMs).toBe(0);
    }
    expect(by.get('capital-a0')!.response!.content).toBe('Paris.');
    expect(by.get('weather-a0')!.response!.toolCalls[0]).toMatchObject({ name: 'get_weather', arguments: { city: 'Paris' } });
    // half the fake's price for the batch lines: each line billed as the live call of it, halved
    const bill = fake.billing();
    expect(bill.batchLines).toBe(3);
    expect(bill.liveCalls).toBe(3);
    expect(bill.batchUsd).toBeCloseTo(bill.liveUsd / 2, 12);
    expect(fake.batchStats().created).toEqual(c.provider === 'openai' ? { openai: 1, anthropic: 0 } : { openai: 0, anthropic: 1 });
  });

  it(`returns log-probabilities in a batch line ${logprobs ? 'as a live call does' : 'never (the provider has none)'}`, async () => {
    const api = client().batch!;
    const { id } = await api.submit([{ customId: 'lp-a0', request: { model: 'fake-model', messages: [{ role: 'user', content: 'Answer A or B.' }], topLogprobs: 3 } }]);
    await untilEnded(api, id);
    const [r] = await api.results(id);
    if (logprobs) expect(r!.response!.logprobs?.[0]?.top.length).toBe(3);
    else expect(r!.response!.logprobs).toBeNull();
  });

  it('gives a line that failed in its batch as a retryable ProviderError, and the others as replies', async () => {
    fake.setBatch({ fail: { lastUser: /weather/ } });
    const api = client().batch!;
    const { id } = await api.submit(lines);
    await untilEnded(api, id);
    const results = await api.results(id);
    const failed = results.filter((r) => r.error);
    expect(failed.map((r) => r.customId)).toEqual(['weather-a0']);
    expect(failed[0]!.error).toBeInstanceOf(ProviderError);
    expect(failed[0]!.error!.kind).toBe('retryable');
    expect(results.filter((r) => r.response)).toHaveLength(2);
    expect(fake.billing().batchLines).toBe(2); // a failed line is not billed
  });

  it('gives an expired line as retryable too', async () => {
    fake.setBatch({ fail: { lastUser: /poem/, as: 'expired' } });
    const api = client().batch!;
    const { id } = await api.submit(lines);
    await untilEnded(api, id);
    const expired = (await api.results(id)).find((r) => r.customId === 'poem-a0')!;
    expect(expired.error?.kind).toBe('retryable');
    expect(expired.error?.message).toMatch(/expired/);
  });

  it('cancels a batch in progress: it ends with no line answered', async () => {
    fake.setBatch({ delayMs: 60_000 });
    const api = client().batch!;
    const { id } = await api.submit(lines);
    const cancelled = await api.cancel(id);
    expect(cancelled.ended).toBe(true);
    const results = await api.results(id);
    expect(results).toHaveLength(3);
    expect(results.every((r) => r.error?.kind === 'retryable')).toBe(true);
    expect(fake.billing().batchLines).toBe(0);
  });

  it('classifies a refused key on submission and never echoes the key', async () => {
    const wrong = client().provider === 'openai' ? new OpenAiCompatibleClient({ provider: 'openai', apiKey: 'sk-wrong-key-987654321', baseURL: fake.url }) : new AnthropicClient({ apiKey: 'sk-wrong-key-987654321', baseURL: fake.origin });
    const e = await wrong.batch!.submit(lines).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderError);
    expect((e as ProviderError).kind).toBe('auth');
    expect((e as ProviderError).message).not.toContain('sk-wrong-key-987654321');
  });
});

describe('providers without a batch API', () => {
  it('have no batch adapter (batch mode calls them live)', () => {
    expect(new OpenAiCompatibleClient({ provider: 'openrouter', apiKey: KEY, baseURL: fake.url }).batch).toBeUndefined();
    expect(new AnthropicClient({ apiKey: KEY, baseURL: fake.origin, provider: 'anthropic-proxy' }).batch).toBeUndefined();
  });
});
