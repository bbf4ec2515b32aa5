import { describe, expect, it } from 'vitest';
import { anthropicOutcome, bodyError, choiceError, geminiOutcome, geminiPromptBlock, moderationBlock, openAiOutcome } from './reply-outcome';

const thrown = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
};

describe('reading what a 200 says besides the text', () => {
  it('OpenAI: a refusal keeps its text (after any content); a content filter keeps what text came, or is a block', () => {
    expect(openAiOutcome('openai', { finish_reason: 'stop', message: { content: null, refusal: 'No.' } })).toEqual({ content: 'No.', refusal: 'message.refusal' });
    expect(openAiOutcome('openai', { finish_reason: 'stop', message: { content: 'Partly', refusal: 'No more.' } })).toEqual({ content: 'Partly\n\nNo more.', refusal: 'message.refusal' });
    expect(openAiOutcome('openai', { finish_reason: 'content_filter', message: { content: 'Here is' } })).toEqual({ content: 'Here is', refusal: 'finish_reason: content_filter' });
    expect(thrown(() => openAiOutcome('openai', { finish_reason: 'content_filter', message: { content: '' } }))).toMatchObject({ kind: 'blocked', retryable: false });
    expect(openAiOutcome('openai', { finish_reason: 'stop', message: { content: 'Hi', refusal: null } })).toEqual({ content: 'Hi' });
  });

  it('Anthropic: only stop_reason refusal is one', () => {
    expect(anthropicOutcome('anthropic', { stop_reason: 'end_turn' }, 'Hi')).toEqual({ content: 'Hi' });
    expect(anthropicOutcome('anthropic', { stop_reason: 'refusal', stop_details: null }, 'No.')).toEqual({ content: 'No.', refusal: 'stop_reason: refusal' });
  });

  it('Gemini: a safety finish with text is a refusal, without text a block; RECITATION with text is an ordinary reply', () => {
    expect(geminiOutcome('google', { finishReason: 'SAFETY' }, 'I cannot.')).toEqual({ content: 'I cannot.', refusal: 'finishReason: SAFETY' });
    expect(thrown(() => geminiOutcome('google', { finishReason: 'SPII' }, ''))).toMatchObject({ kind: 'blocked', message: expect.stringContaining('finishReason SPII') });
    expect(geminiOutcome('google', { finishReason: 'RECITATION' }, 'Quoted text')).toEqual({ content: 'Quoted text' });
    expect(thrown(() => geminiOutcome('google', { finishReason: 'RECITATION' }, ''))).toMatchObject({ kind: 'blocked' });
    expect(geminiPromptBlock('google', { blockReason: 'OTHER', blockReasonMessage: 'not allowed' })?.message).toContain('the prompt was blocked (OTHER): not allowed');
    expect(geminiPromptBlock('google', undefined)).toBeNull();
  });

  it('OpenRouter: an error body with no choices is transient (402 excepted); a failed choice is not retried', () => {
    expect(bodyError('openrouter', { error: { code: 502, message: 'down' } })).toMatchObject({ kind: 'retryable', retryable: true });
    expect(bodyError('openrouter', { error: { code: 402, message: 'no credits' } })).toMatchObject({ kind: 'quota', retryable: false });
    expect(bodyError('openrouter', { choices: [{}], error: { code: 502 } })).toBeNull();
    expect(bodyError('openrouter', { choices: [] })).toBeNull();
    expect(choiceError('openrouter', { finish_reason: 'error' })).toMatchObject({ kind: 'generation_failed', message: expect.stringContaining('no error object') });
    expect(choiceError('openrouter', { finish_reason: 'stop' })).toBeNull();
    // keys echoed in a provider's message are redacted
    expect(bodyError('openrouter', { error: { message: 'bad key sk-or-v1-abcdefghijklmnop' } }, ['sk-or-v1-abcdefghijklmnop'])?.message).not.toContain('abcdefghijklmnop');
    expect(moderationBlock('openrouter', 403, { error: { message: 'flagged', metadata: { reasons: ['hate'] } } })).toMatchObject({ kind: 'blocked', message: expect.stringContaining('flagged (hate)') });
    expect(moderationBlock('openrouter', 403, { error: { message: 'Forbidden' } })).toBeNull();
  });
});
