import { describe, expect, it } from 'vitest';
import { isCutOff, replyOutcome, StoredRefusalSchema } from './reply-outcome';

describe('a stored reply’s outcome', () => {
  it('is refused when the provider said so, cut off at any provider’s token-limit finish, else complete', () => {
    expect(replyOutcome({ refusal: 'stop_reason: refusal', finishReason: 'refusal' })).toBe('refused');
    expect(replyOutcome({ refusal: 'message.refusal', finishReason: 'length' })).toBe('refused');
    for (const f of ['length', 'max_tokens', 'model_context_window_exceeded', 'MAX_TOKENS']) expect(isCutOff(f), f).toBe(true);
    for (const f of ['stop', 'end_turn', 'STOP', 'tool_calls', null, undefined]) expect(replyOutcome({ refusal: null, finishReason: f }), String(f)).toBe('complete');
  });

  it('stores a refusal as its signal or null, never an empty string', () => {
    expect(StoredRefusalSchema.parse(null)).toBeNull();
    expect(StoredRefusalSchema.safeParse('').success).toBe(false);
    expect(StoredRefusalSchema.safeParse('x'.repeat(201)).success).toBe(false);
  });
});
