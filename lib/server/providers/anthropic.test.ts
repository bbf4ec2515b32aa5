import { describe, expect, it } from 'vitest';
import { startFakeLlm } from '@/testing/fakes/llm-server';
import { AnthropicClient, fromAnthropicMessage, toAnthropicParams } from './anthropic';
import { anthropicMaxTokens } from './anthropic-limits';
import { runLlmClientContract } from './llm-client-contract.testkit';
import type { Message } from '@anthropic-ai/sdk/resources/messages';

runLlmClientContract('Anthropic adapter', ({ fake, apiKey }) => new AnthropicClient({ apiKey, baseURL: fake.origin }), {
  logprobs: false,
  toolCalls: true,
  usage: true,
  served: { fingerprint: false, requestIdHeader: 'request-id' },
});

describe('Anthropic mapping', () => {
  it('puts system prompts in `system`, requires max_tokens, and translates OpenAI function tools', () => {
    const params = toAnthropicParams({
      model: 'claude-3-5-haiku-latest',
      temperature: 0,
      tools: [{ type: 'function', function: { name: 'f', description: 'does f', parameters: { type: 'object', properties: { a: { type: 'number' } } } } }],
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
    });
    expect(params).toEqual({
      model: 'claude-3-5-haiku-latest',
      max_tokens: 8_192, // Claude Haiku 3.5's own output limit (anthropic-limits.ts)
      system: 'Be brief.',
      temperature: 0,
      messages: [{ role: 'user', content: 'Hi' }],
      tools: [{ name: 'f', description: 'does f', input_schema: { type: 'object', properties: { a: { type: 'number' } } } }],
    });
  });

  it('turns tool calls into tool_use blocks and merges consecutive tool results into one user turn', () => {
    const params = toAnthropicParams({
      model: 'm',
      messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: 'Checking.',
          toolCalls: [
            { id: 't1', name: 'w', arguments: '{"city":"Paris"}' },
            { id: 't2', name: 'w', arguments: { city: 'Rome' } },
          ],
        },
        { role: 'tool', toolCallId: 't1', content: '18' },
        { role: 'tool', toolCallId: 't2', content: '25' },
      ],
    });
    expect(params.messages).toEqual([
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 't1', name: 'w', input: { city: 'Paris' } },
          { type: 'tool_use', id: 't2', name: 'w', input: { city: 'Rome' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: '18' },
          { type: 'tool_result', tool_use_id: 't2', content: '25' },
        ],
      },
    ]);
  });

  it('leaves out an empty assistant turn, merging the user turns around it (the API refuses empty content)', () => {
    const params = toAnthropicParams({
      model: 'claude-haiku-4-5',
      messages: [
        { role: 'user', content: 'First question' },
        { role: 'assistant', content: '' },
        { role: 'user', content: 'Second question' },
      ],
    });
    expect(params.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'First question' },
          { type: 'text', text: 'Second question' },
        ],
      },
    ]);
    // an assistant turn that made only tool calls is not empty: it stays
    const tools = toAnthropicParams({ model: 'm', messages: [{ role: 'user', content: 'Go' }, { role: 'assistant', content: '', toolCalls: [{ id: 't', name: 'f', arguments: {} }] }, { role: 'tool', toolCallId: 't', content: 'ok' }] });
    expect(tools.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('reads text and tool_use blocks, stop reason and usage; never logprobs', () => {
    const message = {
      id: 'm',
      type: 'message',
      role: 'assistant',
      model: 'claude-3-5-haiku-latest',
      content: [
        { type: 'text', text: 'Let me look. ' },
        { type: 'tool_use', id: 'tu', name: 'search', input: { q: 'x' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 1_000_000, output_tokens: 0 },
    } as unknown as Message;
    const res = fromAnthropicMessage(message, { provider: 'anthropic', model: 'claude-3-5-haiku-latest', latencyMs: 1 });
    expect(res).toMatchObject({
      content: 'Let me look. ',
      toolCalls: [{ id: 'tu', name: 'search', arguments: { q: 'x' } }],
      finishReason: 'tool_use',
      usage: { promptTokens: 1_000_000, completionTokens: 0 },
      logprobs: null,
    });
    expect(res.costUsd).toBeCloseTo(0.8);
  });
});

describe('Anthropic adapter against the fake', () => {
  it('answers a multi-turn conversation whose earlier reply was empty (the fake refuses empty turns as the API does)', async () => {
    const fake = await startFakeLlm({ rules: [{ reply: 'second answer' }] });
    try {
      const client = new AnthropicClient({ apiKey: 'sk-ant-test', baseURL: fake.origin });
      const res = await client.chat({
        model: 'claude-haiku-4-5',
        messages: [
          { role: 'user', content: 'First question' },
          { role: 'assistant', content: '' },
          { role: 'user', content: 'Second question' },
        ],
      });
      expect(res.content).toBe('second answer');
      // what the fake refuses: the same turn sent as `content: ''`, as the adapter used to send it
      const raw = await fetch(`${fake.origin}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: '' }, { role: 'user', content: 'b' }] }),
      });
      expect(raw.status).toBe(400);
      expect(await raw.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('non-empty content') } });
    } finally {
      await fake.close();
    }
  });


  it('authenticates with the key and always sends max_tokens', async () => {
    const fake = await startFakeLlm({ apiKeys: ['sk-ant-good'], rules: [{ reply: 'hello from claude' }] });
    try {
      const client = new AnthropicClient({ apiKey: 'sk-ant-good', baseURL: fake.origin });
      const res = await client.chat({ model: 'claude-3-5-haiku-latest', messages: [{ role: 'user', content: 'hi' }] });
      expect(res).toMatchObject({ content: 'hello from claude', finishReason: 'end_turn' });
      expect(fake.requests().at(-1)).toMatchObject({ dialect: 'anthropic', request: { maxTokens: anthropicMaxTokens('claude-3-5-haiku-latest') } });
    } finally {
      await fake.close();
    }
  });
});
