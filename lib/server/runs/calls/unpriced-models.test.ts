import { describe, expect, it } from 'vitest';
import type { RunSettings } from '@/lib/core';
import { RunConfigError } from '../engine/errors';
import { refuseUnpricedUnderCostCap, unpricedModels } from './unpriced-models';

const settings = (models: string[], judges: string[], customModels: RunSettings['customModels'] = {}): Pick<RunSettings, 'models' | 'judges' | 'customModels'> => ({
  models,
  judges: judges.map((model) => ({ model, approach: 'standard' as const })),
  customModels,
});

describe('unpricedModels', () => {
  it('names graded models, judges and HTTP systems whose calls cost an unknown amount, once each', () => {
    expect(unpricedModels(settings(['openai:gpt-5', 'groq:llama-3.1-8b-instant', 'my-bot'], ['openai:gpt-5-mini', 'openai:house-judge', 'openai:house-judge'], { 'my-bot': {} }))).toEqual([
      'groq:llama-3.1-8b-instant',
      'my-bot',
      'openai:house-judge',
    ]);
    expect(unpricedModels(settings(['anthropic:claude-haiku-4-5', 'openrouter:meta-llama/llama-3.3-70b-instruct'], ['google:gemini-2.5-flash']))).toEqual([]);
  });
});

describe('refuseUnpricedUnderCostCap', () => {
  it('refuses a capped run with an unpriced model, saying which and how to proceed', () => {
    const s = settings(['openai:gpt-5', 'ollama:llama3'], ['openai:gpt-4o-mini']);
    expect(() => refuseUnpricedUnderCostCap(s, 2)).toThrow(RunConfigError);
    expect(() => refuseUnpricedUnderCostCap(s, 2)).toThrow(/cost cap \(\$2\), but no price is known for ollama:llama3: .*Drop the cost cap \(--max-cost\).*--max-calls/);
  });

  it('lets an uncapped run, or a capped run of priced models, through', () => {
    expect(() => refuseUnpricedUnderCostCap(settings(['ollama:llama3'], []), null)).not.toThrow();
    expect(() => refuseUnpricedUnderCostCap(settings(['openai:gpt-5'], ['anthropic:claude-sonnet-4-5']), 1)).not.toThrow();
  });
});
