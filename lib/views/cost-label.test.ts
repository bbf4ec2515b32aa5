import { describe, expect, it } from 'vitest';
import { costLabel } from './cost-label';

describe('costLabel', () => {
  it('shows a priced cost as dollars, and an unknown one as unknown with the models named, never as $0', () => {
    expect(costLabel(0.4, [])).toBe('$0.40');
    expect(costLabel(0, [])).toBe('$0');
    expect(costLabel(0, ['openai:house-model'])).toBe('unknown (no price known for openai:house-model)');
    expect(costLabel(0.004, ['openai:a', 'vllm:b'])).toBe('$0.0040 + unknown (no price known for openai:a, vllm:b)');
  });
});
