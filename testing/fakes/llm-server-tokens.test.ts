import { describe, expect, it } from 'vitest';
import { candidateTokens, encodingForModel, MAX_TOP_LOGPROBS, tokenStrings } from './llm-server-tokens';

describe('the fake’s OpenAI tokens', () => {
  it('picks each model’s tokenizer as tiktoken’s tables do (exact names, then prefixes), o200k_base otherwise', () => {
    const table = Object.fromEntries(
      ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1-mini', 'gpt-5', 'o3-mini', 'o4-mini', 'gpt-4', 'gpt-4-0613', 'gpt-4-turbo', 'gpt-3.5-turbo', 'gpt-3.5-turbo-0125', 'gpt-4-2099-01-01', 'openai/gpt-4', 'fake-judge', 'judge-a'].map((m) => [m, encodingForModel(m)]),
    );
    expect(table).toEqual({
      'gpt-4o': 'o200k_base',
      'gpt-4o-mini': 'o200k_base',
      'gpt-4.1-mini': 'o200k_base',
      'gpt-5': 'o200k_base',
      'o3-mini': 'o200k_base',
      'o4-mini': 'o200k_base',
      'gpt-4': 'cl100k_base',
      'gpt-4-0613': 'cl100k_base',
      'gpt-4-turbo': 'cl100k_base',
      'gpt-3.5-turbo': 'cl100k_base',
      'gpt-3.5-turbo-0125': 'cl100k_base',
      'gpt-4-2099-01-01': 'cl100k_base',
      'openai/gpt-4': 'cl100k_base',
      'fake-judge': 'o200k_base',
      'judge-a': 'o200k_base',
    });
  });

  it('gives each position the alternatives of the candidates still agreeing, conditional on the tokens before', () => {
    const candidates = [
      { text: '<answer>D</answer>', p: 0.5 },
      { text: '<answer>F</answer>', p: 0.3 },
      { text: '<answer>G</answer>', p: 0.2 },
    ];
    const tokens = candidateTokens(candidates, 1, 5, 'o200k_base');
    expect(tokens.map((t) => t.token)).toEqual(['<', 'answer', '>', 'F', '</', 'answer', '>']);
    const p = (i: number) => tokens[i]!.top.map((t) => [t.token, Math.exp(t.logprob)]);
    expect(p(2)).toEqual([['>D', expect.closeTo(0.5, 12)], ['>', expect.closeTo(0.5, 12)]]);
    expect(tokens[2]!.logprob).toBeCloseTo(Math.log(0.5), 12);
    expect(p(3)).toEqual([['F', expect.closeTo(0.6, 12)], ['G', expect.closeTo(0.4, 12)]]);
    expect(p(4)).toEqual([['</', 1]]);
    // k cuts the list (OpenAI sends at most 20); k = 0 sends none.
    expect(candidateTokens(candidates, 0, 1, 'o200k_base')[2]!.top.map((t) => t.token)).toEqual(['>D']);
    expect(candidateTokens(candidates, 0, 0, 'o200k_base').every((t) => t.top.length === 0)).toBe(true);
    expect(MAX_TOP_LOGPROBS).toBe(20);
  });

  it('splits numbers into digits when asked (option 10 as "1" + "0"), the rest as the tokenizer writes it', () => {
    expect(tokenStrings('A: 10\nB: 4', 'o200k_base')).toEqual(['A', ':', ' ', '10', '\n', 'B', ':', ' ', '4']);
    expect(tokenStrings('A: 10\nB: 4', 'o200k_base', true)).toEqual(['A', ':', ' ', '1', '0', '\n', 'B', ':', ' ', '4']);
  });
});
