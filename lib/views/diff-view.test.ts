import { describe, expect, it } from 'vitest';
import { judgeReliability, type JudgedVerdict } from '@/lib/core';
import { diffPageView, formatP } from './diff-view';

describe('run diff view', () => {
  const older = { id: 'r1', createdAt: new Date('2026-11-01T10:00:00Z') };
  const newer = { id: 'r2', createdAt: new Date('2026-11-08T10:00:00Z') };
  const v = diffPageView(
    older,
    newer,
    {
      models: [
        { modelId: 'x:b', paired: 20, meanA: 0.5, meanB: 0.6, meanDelta: 0.1, better: 15, worse: 1, same: 4 },
        { modelId: 'x:a', paired: 20, meanA: 0.7, meanB: 0.69, meanDelta: -0.01, better: 9, worse: 11, same: 0 },
      ],
      cells: [{ promptKey: 'p1', modelId: 'x:b', scoreA: 0.1, scoreB: 0.9, delta: 0.8 }],
      modelsOnlyInA: 0,
      modelsOnlyInB: 1,
    },
    [
      { modelId: 'x:a', displayName: 'A', score: 0.7, ciLow: null, ciHigh: null, promptCount: 20, replyCount: 20, verdictCount: 80, errorCount: 0, costUsd: 0, latencyMsP50: null },
      { modelId: 'x:b', displayName: 'B', score: 0.6, ciLow: null, ciHigh: null, promptCount: 20, replyCount: 20, verdictCount: 80, errorCount: 0, costUsd: 0, latencyMsP50: null },
    ],
  );

  it('orders models as the newer run ranks them and says whether a change is more than noise', () => {
    expect(v.models.map((m) => [m.label, m.deltaLabel, m.tone, m.significant])).toEqual([
      ['A', '−1.0', 'worse', false],
      ['B', '+10.0', 'better', true],
    ]);
    expect(v.models[1]?.pLabel).toBe('p < 0.001');
    expect(v.models[1]?.counts).toBe('15 better, 1 worse, 4 same');
  });

  it('links each moved cell in both runs and notes models present in one run only', () => {
    expect(v.cells[0]).toMatchObject({ deltaLabel: '+80.0', olderHref: '/runs/r1/prompts/p1?model=x%3Ab#cell', newerHref: '/runs/r2/prompts/p1?model=x%3Ab#cell' });
    expect(v.notes.join(' ')).toMatch(/1 model ran only in the newer run/);
  });

  it('gives each run’s pooled judge α when the page has it', () => {
    expect(v.judges).toBeNull();
    const verdict = (a: number, b: number, disagreement = false): JudgedVerdict => ({
      modelId: 'x:b',
      disagreement,
      judges: [
        { judge: 'j:one', approach: null, score: a },
        { judge: 'k:two', approach: null, score: b },
      ],
    });
    // the older run: the pooled example of judge-reliability.test.ts (α = 0.708333); the newer: the judges always agree
    const withJudges = diffPageView(older, newer, { models: [], cells: [], modelsOnlyInA: 0, modelsOnlyInB: 0 }, [{ modelId: 'x:b', displayName: 'B', score: null, ciLow: null, ciHigh: null, promptCount: 0, replyCount: 0, verdictCount: 0, errorCount: 0, costUsd: 0, latencyMsP50: null }], {
      older: judgeReliability([verdict(0, 0.5, true), verdict(1, 1), verdict(0, 0), verdict(1, 0.5, true)]),
      newer: judgeReliability([verdict(1, 1), verdict(0, 0)]),
    });
    expect(withJudges.judges?.older).toMatchObject({ judged: true, alphaLabel: 'α 0.71', reading: 'tentative', disagreementLabel: '50% flagged as disagreement (2 of 4)' });
    expect(withJudges.judges?.newer).toMatchObject({ judged: true, alphaLabel: 'α 1.00', reading: 'reliable', coverageLabel: '2 judged verdicts, 2 with ≥ 2 judges' });
  });

  it('formats p-values readably', () => {
    expect(formatP(null)).toBe('—');
    expect(formatP(0.0004)).toBe('p < 0.001');
    expect(formatP(0.0042)).toBe('p = 0.004');
    expect(formatP(0.5)).toBe('p = 0.50');
  });
});
