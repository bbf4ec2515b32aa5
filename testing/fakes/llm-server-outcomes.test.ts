import type { Message } from '@anthropic-ai/sdk/resources/messages';
import { FinishReason, type GenerateContentResponse } from '@google/genai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { withErrorCode, withOutcome } from './llm-server-outcomes';

const openai = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'No.', refusal: null }, logprobs: null, finish_reason: 'stop' }],
} satisfies ChatCompletion;
const anthropic = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-haiku-4-5',
  content: [{ type: 'text', text: 'No.', citations: null }],
  stop_reason: 'end_turn',
  stop_sequence: null,
} satisfies Partial<Message>;
const gemini = { candidates: [{ content: { role: 'model', parts: [{ text: 'No.' }] }, finishReason: FinishReason.STOP }] } satisfies Partial<GenerateContentResponse>;

describe("the fake's refusals and cut-off replies, in each provider's published shape", () => {
  it('OpenAI: message.refusal holds the text and content is null; a cut-off finishes with length', () => {
    const refused = withOutcome('openai', openai, 'refusal') as unknown as ChatCompletion;
    expect(refused.choices[0]?.message).toMatchObject({ content: null, refusal: 'No.' });
    expect((withOutcome('openai', openai, 'cut_off') as unknown as ChatCompletion).choices[0]?.finish_reason).toBe('length');
  });

  it('Anthropic: stop_reason refusal (with stop_details) or max_tokens, the text kept', () => {
    expect(withOutcome('anthropic', anthropic, 'refusal')).toMatchObject({ stop_reason: 'refusal', stop_details: { type: 'refusal' }, content: anthropic.content });
    expect(withOutcome('anthropic', anthropic, 'cut_off')).toMatchObject({ stop_reason: 'max_tokens' });
  });

  it('Gemini: a SAFETY stop with no content and the blocking rating, or MAX_TOKENS', () => {
    const refused = withOutcome('gemini', gemini, 'refusal') as unknown as GenerateContentResponse;
    expect(refused.candidates?.[0]).toMatchObject({ finishReason: 'SAFETY', safetyRatings: expect.arrayContaining([expect.objectContaining({ blocked: true })]) });
    expect(refused.candidates?.[0]?.content).toBeUndefined();
    expect((withOutcome('gemini', gemini, 'cut_off') as unknown as GenerateContentResponse).candidates?.[0]?.finishReason).toBe('MAX_TOKENS');
  });

  it("puts a scripted error's code where each provider does", () => {
    expect(withErrorCode('openai', { error: { message: 'm', type: 'x', code: null } }, 'insufficient_quota')).toMatchObject({ error: { code: 'insufficient_quota', type: 'insufficient_quota' } });
    expect(withErrorCode('anthropic', { type: 'error', error: { type: 'invalid_request_error', message: 'm' } }, 'billing_error')).toMatchObject({ error: { type: 'billing_error' } });
    expect(withErrorCode('anthropic', { type: 'error', error: { type: 'rate_limit_error', message: 'm' } }, 'enforced_spend_limit_reached')).toMatchObject({ error: { type: 'rate_limit_error', details: { error_code: 'enforced_spend_limit_reached' } } });
  });
});
