import { describe, expect, it } from 'vitest';
import { costUsd, priceFor } from './cost';

describe('cost', () => {
  it('matches dated, -latest and vendor-prefixed ids, longest key first', () => {
    expect(priceFor('gpt-4o-mini-2024-07-18')).toEqual({ input: 0.15, output: 0.6 });
    expect(priceFor('gpt-4o-2024-08-06')).toEqual({ input: 2.5, output: 10 });
    expect(priceFor('openai/gpt-4o-mini')).toEqual({ input: 0.15, output: 0.6 });
    expect(priceFor('claude-3-5-haiku-latest')).toEqual({ input: 0.8, output: 4 });
    expect(priceFor('llama-3.1-8b-instant')).toBeNull();
  });

  it('prefers a reported cost, estimates from the table, and is null when unknown', () => {
    const usage = { promptTokens: 2_000, completionTokens: 1_000 };
    expect(costUsd('gpt-4o-mini', usage, 0.5)).toBe(0.5);
    expect(costUsd('gpt-4o-mini', usage)).toBeCloseTo((2_000 * 0.15 + 1_000 * 0.6) / 1e6, 12);
    expect(costUsd('gpt-4o-mini', null)).toBeNull();
    expect(costUsd('my-local-model', usage)).toBeNull();
  });
});
