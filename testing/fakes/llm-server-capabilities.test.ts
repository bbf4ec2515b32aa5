/**
 * The fake's capability profiles answer as the providers do: the exact error bodies OpenAI and
 * Groq send for a refused parameter, and a reasoning model's usage with its reasoning tokens,
 * the reply checked against openai-node's published ChatCompletion type.
 */
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from './llm-server';
import { capabilityProfile } from './llm-server-capabilities';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(() => fake.close());

async function post(body: Record<string, unknown>): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${fake.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
    body: JSON.stringify({ messages: [{ role: 'user', content: 'hello' }], ...body }),
  });
  return { status: res.status, json: await res.json() };
}

describe('OpenAI reasoning models refuse what OpenAI’s reasoning models refuse', () => {
  it('answers max_tokens with OpenAI’s unsupported_parameter body', async () => {
    expect(await post({ model: 'gpt-5-mini', max_tokens: 100 })).toEqual({
      status: 400,
      json: {
        error: {
          message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
          type: 'invalid_request_error',
          param: 'max_tokens',
          code: 'unsupported_parameter',
        },
      },
    });
  });

  it('answers a temperature other than 1 with unsupported_value, naming the value sent', async () => {
    expect(await post({ model: 'o4-mini', temperature: 0 })).toEqual({
      status: 400,
      json: {
        error: {
          message: "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
          type: 'invalid_request_error',
          param: 'temperature',
          code: 'unsupported_value',
        },
      },
    });
    expect((await post({ model: 'o4-mini', temperature: 1 })).status).toBe(200);
  });

  it('answers logprobs as each family does: GPT-5 with a 400, the o-series with a 403', async () => {
    expect(await post({ model: 'gpt-5', logprobs: true, top_logprobs: 5 })).toEqual({
      status: 400,
      json: { error: { message: "Unsupported parameter: 'logprobs' is not supported with this model.", type: 'invalid_request_error', param: 'logprobs', code: 'unsupported_parameter' } },
    });
    expect(await post({ model: 'o3-mini-2025-01-31', logprobs: true })).toEqual({
      status: 403,
      json: { error: { message: 'You are not allowed to request logprobs from this model', type: 'invalid_request_error', param: null, code: null } },
    });
  });

  it('sends the reasoning tokens inside completion_tokens, as openai-node types them', async () => {
    const { status, json } = await post({ model: 'gpt-5-nano', max_completion_tokens: 100 });
    expect(status).toBe(200);
    const reply = json as ChatCompletion;
    // The field as openai-node's CompletionUsage names it: a renamed field would not compile here.
    const details: CompletionUsage.CompletionTokensDetails | undefined = reply.usage?.completion_tokens_details;
    expect(details?.reasoning_tokens).toBeGreaterThan(0);
    expect(reply.usage!.completion_tokens).toBeGreaterThan(details!.reasoning_tokens!);
    expect(reply.usage!.total_tokens).toBe(reply.usage!.prompt_tokens + reply.usage!.completion_tokens);
  });

  it('leaves other models as they were: gpt-4o-mini takes logprobs, temperature 0 and max_tokens', async () => {
    const { status, json } = await post({ model: 'gpt-4o-mini', logprobs: true, top_logprobs: 2, temperature: 0, max_tokens: 50 });
    expect(status).toBe(200);
    expect((json as ChatCompletion).usage?.completion_tokens_details?.reasoning_tokens ?? 0).toBe(0);
    expect(capabilityProfile('openai', 'gpt-4o-mini')).toBeUndefined();
  });
});

describe('Groq refuses log-probabilities on every model', () => {
  it('with its documented 400, a body without param or code', async () => {
    expect(await post({ model: 'llama-3.3-70b-versatile', logprobs: true, top_logprobs: 5 })).toEqual({
      status: 400,
      json: { error: { message: '`logprobs` is not supported with this model', type: 'invalid_request_error' } },
    });
    expect((await post({ model: 'llama-3.3-70b-versatile', temperature: 0 })).status).toBe(200);
  });
});

it('records which parameter a refused request carried', async () => {
  fake.reset();
  await post({ model: 'gpt-5', logprobs: true });
  expect(fake.requests().map((r) => [r.status, r.refused])).toEqual([[400, 'logprobs']]);
});
