/**
 * Anthropic's documented Messages bodies and errors through the Anthropic adapter: the reading
 * function (fromAnthropicMessage), the classifier (classifyAnthropicError) and the real client
 * over HTTP. Each example's source is in its fixture file.
 */
import { APIError } from '@anthropic-ai/sdk';
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import { AnthropicClient, classifyAnthropicError, fromAnthropicMessage } from '../anthropic';
import { runContract } from './contract.testkit';

runContract({
  provider: 'anthropic',
  model: 'claude-haiku-4-5',
  then: 'text',
  read: (example) => {
    if (example.status < 300) return fromAnthropicMessage(example.body as Message, { provider: 'anthropic', model: 'claude-haiku-4-5', latencyMs: 1 });
    throw classifyAnthropicError(APIError.generate(example.status, example.body as object, undefined, new Headers(example.headers)), 'anthropic');
  },
  client: (origin) => new AnthropicClient({ apiKey: 'sk-ant-contract', baseURL: origin }),
  cases: {
    text: { reply: { content: 'Hi! My name is Claude.', finishReason: 'end_turn', usage: { promptTokens: 2095, completionTokens: 503 } } },
    'tool-use': {
      reply: {
        content: "I'll check the current weather in San Francisco for you.",
        finishReason: 'tool_use',
        toolCalls: [{ id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', arguments: { location: 'San Francisco, CA', unit: 'celsius' } }],
      },
    },
    refusal: { reply: { content: "I can't help with synthesizing that compound.", finishReason: 'refusal', refusal: 'stop_reason: refusal (category bio)' } },
    'refusal-no-text': { permanent: 'blocked', message: /stop_reason "refusal" \(category cyber\)/ },
    'max-tokens': { reply: { content: 'Here is the first part of a very long essay', finishReason: 'max_tokens' } },
    'error-overloaded': { transient: 'retryable', message: /HTTP 529: .*Overloaded/ },
    'error-rate-limit': { transient: 'rate_limited', message: /per-minute rate limit/ },
    'error-invalid-request': { permanent: 'bad_request', message: /HTTP 400: .*non-empty content/ },
    'error-billing': { permanent: 'quota', message: /credit balance is too low/ },
    // a 429 that is no rate limit: the spend limit holds until the month ends
    'error-spend-limit': { permanent: 'quota', message: /usage limits/ },
  },
});
