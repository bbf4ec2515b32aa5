import { describe, expect, it } from 'vitest';
import { judgeReliability, type JudgedVerdict } from '@/lib/core';
import { judgePanelView, modelReliabilityRows, pooledReliabilityRows, reliabilityLine } from './judge-reliability-view';

const J1 = 'openai:gpt-4.1-mini';
const J2 = 'openrouter:qwen/qwen-2.5-72b-instruct';
const verdict = (modelId: string, a: number | null, b: number | null, disagreement = false): JudgedVerdict => ({
  modelId,
  disagreement,
  judges: [
    { judge: J1, approach: 'standard', score: a },
    { judge: J2, approach: 'prompt-aware', score: b },
  ],
});
// the pooled example of judge-reliability.test.ts (α = 0.708333), graded model gpt-4o
const FOUR = [verdict('openrouter:openai/gpt-4o', 0, 0.5, true), verdict('openrouter:openai/gpt-4o', 1, 1), verdict('openrouter:openai/gpt-4o', 0, 0), verdict('openrouter:openai/gpt-4o', 1, 0.5, true)];
const NAMES = new Map([['openrouter:openai/gpt-4o', 'GPT-4o']]);

describe('reliabilityLine', () => {
  it('words α with Krippendorff’s reading, the coverage, the disagreement share and self-judging', () => {
    expect(reliabilityLine(judgeReliability(FOUR), NAMES)).toEqual({
      judged: true,
      alphaLabel: 'α 0.71',
      reading: 'tentative',
      readingLabel: 'tentative (0.667 ≤ α < 0.80)',
      coverageLabel: '4 judged verdicts, 4 with ≥ 2 judges',
      assessmentsLabel: 'gpt-4.1-mini 4 · qwen-2.5-72b-instruct (prompt-aware) 4 assessments',
      disagreementLabel: '50% flagged as disagreement (2 of 4)',
      selfJudging: ['Self-judging: gpt-4.1-mini judges GPT-4o, a model of the same maker.'],
      methodologyHref: '/methodology#alpha',
    });
  });

  it('says why there is no α, and hides itself where nothing was judged', () => {
    const one = reliabilityLine(judgeReliability([{ modelId: 'm:x', disagreement: false, judges: [{ judge: 'j:a', approach: null, score: 1 }] }]));
    expect(one).toMatchObject({ judged: true, alphaLabel: 'α —', reading: null, readingLabel: 'no α: one judge', disagreementLabel: null });
    expect(reliabilityLine(judgeReliability([verdict('m:x', 1, null)])).readingLabel).toBe('no α: fewer than two verdicts with two judges');
    expect(reliabilityLine(judgeReliability([])).judged).toBe(false);
  });
});

describe('judgePanelView', () => {
  it('one row per judge: assessments, leniency and distance from the others on the 0–100 scale, self-judging', () => {
    const v = judgePanelView(judgeReliability([...FOUR, verdict('anthropic:claude-3-5-sonnet-20241022', 1, null)]), 'run-1', NAMES);
    expect(v.runHref).toBe('/runs/run-1?view=models');
    expect(v.rows).toEqual([
      { id: `${J1}#standard`, label: 'gpt-4.1-mini', model: J1, approach: 'standard', assessments: '5', missing: '0', meanScore: '60.0', deviation: '25.0', deviationTitle: 'over 4 verdicts shared with another judge', selfJudging: 'judges GPT-4o (same maker)' },
      { id: `${J2}#prompt-aware`, label: 'qwen-2.5-72b-instruct (prompt-aware)', model: J2, approach: 'prompt-aware', assessments: '4', missing: '1', meanScore: '50.0', deviation: '25.0', deviationTitle: 'over 4 verdicts shared with another judge', selfJudging: null },
    ]);
  });
});

describe('modelReliabilityRows', () => {
  it('links each model to its page in the run', () => {
    const rows = modelReliabilityRows('run-1', [{ modelId: 'openrouter:openai/gpt-4o', reliability: judgeReliability(FOUR) }], NAMES);
    expect(rows.map((r) => [r.label, r.href, r.line.alphaLabel])).toEqual([['GPT-4o', '/runs/run-1/models/openrouter%3Aopenai/gpt-4o', 'α 0.71']]);
  });
});

describe('pooledReliabilityRows (the leaderboard)', () => {
  it('words the summed figures like a level’s own, with the self-judging rule applied to each judge', () => {
    const rows = pooledReliabilityRows(
      [
        {
          modelId: 'openai:gpt-4o-mini',
          verdicts: 10,
          pairable: 8,
          disagreements: 2,
          alpha: 0.9,
          stats: { n: 16, sum: 8, sumSq: 6, within: 0.5 },
          judges: [
            { id: 'openai:gpt-4o-mini#standard', model: 'openai:gpt-4o-mini', approach: 'standard', assessments: 9 },
            { id: 'openai:gpt-4.1-mini#standard', model: 'openai:gpt-4.1-mini', approach: 'standard', assessments: 10 },
          ],
        },
      ],
      new Map(),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.href).toBe('/models/openai%3Agpt-4o-mini');
    expect(rows[0]!.line).toMatchObject({
      alphaLabel: 'α 0.90',
      reading: 'reliable',
      coverageLabel: '10 judged verdicts, 8 with ≥ 2 judges',
      disagreementLabel: '25% flagged as disagreement (2 of 8)',
      selfJudging: ['Self-judging: gpt-4o-mini judges gpt-4o-mini, the same model.', 'Self-judging: gpt-4.1-mini judges gpt-4o-mini, a model of the same maker.'],
    });
  });
});
