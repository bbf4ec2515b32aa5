import { describe, expect, it } from 'vitest';
import { startFakeLlm } from '@/testing/fakes/llm-server';
import { runLlmClientContract } from './llm-client-contract.testkit';
import { fromOpenAiCompletion, OpenAiCompatibleClient, toOpenAiParams } from './openai-compatible';
import type { ChatCompletion } from 'openai/resources/chat/completions';

runLlmClientContract('OpenAI-compatible adapter', ({ fake, apiKey }) => new OpenAiCompatibleClient({ provider: 'openai', baseURL: fake.url, apiKey }), {
  logprobs: true,
  toolCalls: true,
  usage: true,
  served: { fingerprint: true, requestIdHeader: 'x-request-id' },
});

const ctx = { provider: 'openai', model: 'gpt-4o-mini', latencyMs: 5 };

function completion(message: Record<string, unknown>, extra: Record<string, unknown> = {}): ChatCompletion {
  return { id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message, finish_reason: 'stop', logprobs: null }], ...extra } as unknown as ChatCompletion;
}

describe('OpenAI mapping', () => {
  it('asks for top-k log-probabilities only when topLogprobs is set', () => {
    expect(toOpenAiParams({ model: 'm', messages: [{ role: 'user', content: 'x' }] })).not.toHaveProperty('logprobs');
    expect(toOpenAiParams({ model: 'm', topLogprobs: 3, messages: [{ role: 'user', content: 'x' }] })).toMatchObject({ logprobs: true, top_logprobs: 3 });
  });

  it('sends assistant tool calls with string arguments and tool results with their call id', () => {
    const params = toOpenAiParams({
      model: 'm',
      messages: [
        { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'f', arguments: { a: 1 } }] },
        { role: 'tool', toolCallId: 'c1', content: 'done' },
      ],
    });
    expect(params.messages).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'done' },
    ]);
  });

  it('keeps tool arguments that are not JSON as the raw string', () => {
    const res = fromOpenAiCompletion(
      completion({ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{broken' } }] }),
      ctx,
    );
    expect(res.toolCalls).toEqual([{ id: 'c', name: 'f', arguments: '{broken' }]);
    expect(res.content).toBe('');
  });

  it('prefers the cost OpenRouter reports, else estimates from the price table, else null', () => {
    const usage = { prompt_tokens: 1_000_000, completion_tokens: 1_000_000, total_tokens: 2_000_000 };
    expect(fromOpenAiCompletion(completion({ role: 'assistant', content: 'x' }, { usage: { ...usage, cost: 0.42 } }), ctx).costUsd).toBe(0.42);
    expect(fromOpenAiCompletion(completion({ role: 'assistant', content: 'x' }, { usage }), ctx).costUsd).toBeCloseTo(0.75);
    expect(fromOpenAiCompletion(completion({ role: 'assistant', content: 'x' }, { usage }), { ...ctx, model: 'mystery-7b' }).costUsd).toBeNull();
  });

  it('calls a reply without choices malformed', () => {
    expect(() => fromOpenAiCompletion({ id: 'x' } as unknown as ChatCompletion, ctx)).toThrow(expect.objectContaining({ kind: 'malformed' }));
  });
});

describe('OpenAI-compatible adapter against the fake', () => {
  it('reports OpenRouter’s usage.cost as the call’s cost', async () => {
    const fake = await startFakeLlm({ rules: [{ reply: 'ok', costUsd: 0.0123 }] });
    try {
      const client = new OpenAiCompatibleClient({ provider: 'openrouter', baseURL: fake.url, apiKey: 'k' });
      const res = await client.chat({ model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
      expect(res.costUsd).toBe(0.0123);
    } finally {
      await fake.close();
    }
  });

  it('classifies a refused connection as retryable', async () => {
    const fake = await startFakeLlm();
    const url = fake.url;
    await fake.close();
    const client = new OpenAiCompatibleClient({ provider: 'vllm', baseURL: url, apiKey: 'k' });
    await expect(client.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ kind: 'retryable' });
  });

  it('classifies other 4xx as bad_request and keeps the provider’s reason', async () => {
    const fake = await startFakeLlm({ rules: [{ error: { status: 400, message: 'context length exceeded' } }] });
    try {
      const client = new OpenAiCompatibleClient({ provider: 'openai', baseURL: fake.url, apiKey: 'k' });
      await expect(client.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({
        kind: 'bad_request',
        status: 400,
        message: expect.stringContaining('context length exceeded'),
      });
    } finally {
      await fake.close();
    }
  });
});
