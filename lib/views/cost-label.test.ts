import { describe, expect, it } from 'vitest';
import { costLabel } from './cost-label';

describe('costLabel', () => {
  it('shows a priced cost as dollars, and an unknown one as unknown with the models named, never as $0', () => {
    expect(costLabel(0.4, [])).toBe('$0.40');
    expect(costLabel(0, [])).toBe('$0');
    expect(costLabel(0, ['openai:house-model'])).toBe('unknown (no price known for openai:house-model)');
    expect(costLabel(0.004, ['openai:a', 'vllm:b'])).toBe('$0.0040 + unknown (no price known for openai:a, vllm:b)');
  });

  it('tells an unknown price, a true zero and a tiny positive cost apart', () => {
    // unknown: a call's cost is null (no price reported or listed), with or without the models named
    expect(costLabel(null)).toBe('unknown (no price known)');
    expect(costLabel(null, ['openrouter:meta-llama/llama-3.1-70b-instruct'])).toBe('unknown (no price known for openrouter:meta-llama/llama-3.1-70b-instruct)');
    // a true zero: nothing was called (the response cache)
    expect(costLabel(0)).toBe('$0');
    // a tiny positive is never rounded down to $0
    expect(costLabel(0.00003)).toBe('<$0.0001');
    expect(costLabel(0.00003, ['openai:house-judge'])).toBe('<$0.0001 + unknown (no price known for openai:house-judge)');
  });
});
