import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm, type RuleInput } from './llm-server';
import { AnthropicMessageWire, ChatCompletionWire, GeminiResponseWire, wireViolation } from './llm-server-wire';

type Json = Record<string, unknown>;

const RULES: RuleInput[] = [
  { lastUser: 'plain', reply: 'Paris.' },
  { lastUser: 'tool', toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] },
  { lastUser: 'refuse', reply: 'I can’t help with that.', outcome: 'refusal' },
  { lastUser: 'long', reply: 'It began on a', outcome: 'cut_off' },
  { lastUser: 'judge', judge: { labels: { A: 0.3, B: 0.7 } } },
  { lastUser: 'cached', reply: 'ok', usage: { promptTokens: 100, cachedInputTokens: 60, cacheWriteTokens: 10, completionTokens: 40, reasoningTokens: 30 } },
];
const ASKS = ['plain', 'tool', 'refuse', 'long', 'judge', 'cached'];

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ rules: RULES });
});
afterAll(() => fake.close());

async function post(path: string, body: Json, headers: Record<string, string> = {}): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${fake.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Json };
}

describe('every chat answer the fake sends is its provider’s published shape', () => {
  it('OpenAI chat completions: plain, tool call, refusal, cut off, log-probabilities, cached and reasoning usage', async () => {
    for (const ask of ASKS) {
      const { status, json } = await post('/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: ask }], logprobs: true, top_logprobs: 3 });
      expect(status, ask).toBe(200);
      expect(ChatCompletionWire.safeParse(json).success, ask).toBe(true);
    }
  });

  it('Anthropic messages: the same answers, with the fields the SDK marks as always present', async () => {
    for (const ask of ASKS) {
      const { status, json } = await post('/v1/messages', { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: ask }] });
      expect(status, ask).toBe(200);
      expect(AnthropicMessageWire.safeParse(json).success, ask).toBe(true);
    }
  });

  it('Gemini generateContent: the same answers, a safety stop with its ratings and no content', async () => {
    for (const ask of ASKS) {
      const { status, json } = await post('/v1beta/models/gemini-2.0-flash:generateContent', { contents: [{ role: 'user', parts: [{ text: ask }] }], generationConfig: { responseLogprobs: true, logprobs: 2 } }, { 'x-goog-api-key': 'k' });
      expect(status, ask).toBe(200);
      expect(GeminiResponseWire.safeParse(json).success, ask).toBe(true);
    }
  });
});

describe('the check itself', () => {
  it('names what a body lacks or adds: a Message without `container`, a completion with a tool in Weval’s shape', () => {
    const message = { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', content: [{ type: 'text', text: 'hi', citations: null }], diagnostics: null, stop_reason: 'end_turn', stop_sequence: null, stop_details: null, usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: null, cache_read_input_tokens: null, cache_creation: null, output_tokens_details: null, server_tool_use: null, service_tier: 'standard', inference_geo: null, speed: null } };
    expect(wireViolation('anthropic', message)).toMatch(/container/);
    expect(wireViolation('anthropic', { ...message, container: null })).toBeNull();

    const completion = { id: 'c', object: 'chat.completion', created: 1, model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: null, tool_calls: [{ name: 'search', schema: {} }] }, logprobs: null, finish_reason: 'tool_calls' }] };
    expect(wireViolation('openai', completion)).toMatch(/tool_calls/);
    // The fake's own dialects (custom HTTP systems, soev) have no provider to answer to.
    expect(wireViolation('custom', { anything: true })).toBeNull();
  });
});
