import { describe, expect, it } from 'vitest';
import { modelIdentity, selfJudging } from './self-judging';

describe('modelIdentity', () => {
  it('drops the host, release dates, -latest and variants; tells the maker', () => {
    expect(modelIdentity('openrouter:openai/gpt-4o')).toEqual({ model: 'gpt-4o', family: 'openai' });
    expect(modelIdentity('openai:gpt-4o-2024-08-06')).toEqual({ model: 'gpt-4o', family: 'openai' });
    expect(modelIdentity('anthropic:claude-3-5-sonnet-20241022')).toEqual({ model: 'claude-3-5-sonnet', family: 'anthropic' });
    expect(modelIdentity('anthropic:claude-3-5-sonnet-latest')).toEqual({ model: 'claude-3-5-sonnet', family: 'anthropic' });
    expect(modelIdentity('openrouter:meta-llama/llama-3.1-70b-instruct:free')).toEqual({ model: 'llama-3.1-70b-instruct', family: 'meta' });
    expect(modelIdentity('openrouter:google/gemini-2.0-flash-001')).toEqual({ model: 'gemini-2.0-flash-001', family: 'google' });
    expect(modelIdentity('together:Qwen/Qwen2.5-72B-Instruct')).toEqual({ model: 'qwen2.5-72b-instruct', family: 'qwen' });
    expect(modelIdentity('azure:gpt-4o')).toEqual({ model: 'gpt-4o', family: 'openai' });
    expect(modelIdentity('mistral:mistral-large')).toEqual({ model: 'mistral-large', family: 'mistral' });
    expect(modelIdentity('mistral:open-mixtral-8x22b')).toEqual({ model: 'open-mixtral-8x22b', family: 'mistral' });
  });

  it('leaves the family unknown for an id it cannot place: the provider prefix alone tells no maker', () => {
    expect(modelIdentity('openrouter:house-model-7')).toEqual({ model: 'house-model-7', family: null });
    // `openai:` also names OpenAI-compatible endpoints (a local server, the fake provider)
    expect(modelIdentity('openai:judge-a')).toEqual({ model: 'judge-a', family: null });
    expect(modelIdentity('local:my-finetune')).toEqual({ model: 'my-finetune', family: null });
  });

  it('says what to pass when the id is empty', () => {
    expect(() => modelIdentity('  ')).toThrow(/model id is empty/);
  });
});

describe('selfJudging: the rule', () => {
  it('the same provider-model id through two hosts, or two dated releases, is the same model', () => {
    expect(selfJudging('openai:gpt-4o-mini', 'openrouter:openai/gpt-4o-mini')).toBe('same-model');
    expect(selfJudging('openai:gpt-4o-2024-08-06', 'openai:gpt-4o')).toBe('same-model');
    expect(selfJudging('local:my-finetune', 'local:my-finetune')).toBe('same-model');
  });

  it('a sibling from the same maker is the same family', () => {
    expect(selfJudging('openai:gpt-4.1-mini', 'openrouter:openai/gpt-4o')).toBe('same-family');
    expect(selfJudging('anthropic:claude-3-haiku-20240307', 'anthropic:claude-3-5-sonnet-20241022')).toBe('same-family');
    expect(selfJudging('openrouter:qwen/qwen-2.5-72b-instruct', 'together:Qwen/Qwen2.5-7B-Instruct')).toBe('same-family');
  });

  it('other makers, or a family that cannot be told, are not flagged', () => {
    expect(selfJudging('openrouter:qwen/qwen-2.5-72b-instruct', 'openrouter:openai/gpt-4o')).toBeNull();
    expect(selfJudging('openai:gpt-4.1-mini', 'anthropic:claude-3-5-sonnet-20241022')).toBeNull();
    expect(selfJudging('local:judge-a', 'local:model-b')).toBeNull();
    expect(selfJudging('openai:judge-a', 'openai:alpha')).toBeNull();
  });
});
