import { describe, expect, it } from 'vitest';
import { startFakeLlm } from '@/testing/fakes/llm-server';
import { AnthropicClient, ANTHROPIC_DEFAULT_MAX_TOKENS, fromAnthropicMessage, toAnthropicParams } from './anthropic';
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
      max_tokens: ANTHROPIC_DEFAULT_MAX_TOKENS,
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
  it('authenticates with the key and always sends max_tokens', async () => {
    const fake = await startFakeLlm({ apiKeys: ['sk-ant-good'], rules: [{ reply: 'hello from claude' }] });
    try {
      const client = new AnthropicClient({ apiKey: 'sk-ant-good', baseURL: fake.origin });
      const res = await client.chat({ model: 'claude-3-5-haiku-latest', messages: [{ role: 'user', content: 'hi' }] });
      expect(res).toMatchObject({ content: 'hello from claude', finishReason: 'end_turn' });
      expect(fake.requests().at(-1)).toMatchObject({ dialect: 'anthropic', request: { maxTokens: ANTHROPIC_DEFAULT_MAX_TOKENS } });
    } finally {
      await fake.close();
    }
  });
});
