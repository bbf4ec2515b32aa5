import { describe, expect, it } from 'vitest';
import { distributionBars, judgeViews, labelName, verdictView } from './verdict-view';

const base = {
  pointIndex: 2,
  status: 'pass' as const,
  score: 0.8125,
  kind: 'text',
  pointText: 'Mentions the dose',
  fn: null,
  args: null,
  weight: 1,
  gate: false,
  path: null,
  source: 'should',
  distribution: null,
  method: 'logprobs',
  reasoning: 'It does.',
  judges: null,
  spread: null,
  alpha: null,
  disagreement: false,
};

describe('verdicts as readers see them', () => {
  it('orders a judge-scale distribution from absent to fully present, whatever the stored order', () => {
    const bars = distributionBars({ CLASS_FULLY_PRESENT: 0.6, CLASS_ABSENT: 0.1, CLASS_MAJORLY_PRESENT: 0.3 });
    expect(bars?.map((b) => [b.label, b.percentLabel])).toEqual([
      ['Absent', '10%'],
      ['Majorly present', '30%'],
      ['Fully present', '60%'],
    ]);
  });

  it('reads both stored shapes, and ignores a malformed one', () => {
    expect(distributionBars({ probs: { yes: 0.7, no: 0.3 }, method: 'samples' })?.map((b) => b.label)).toEqual(['yes', 'no']);
    expect(distributionBars({ yes: 'high' })).toBeNull();
    expect(distributionBars(null)).toBeNull();
    expect(distributionBars({})).toBeNull();
    expect(labelName('CLASS_SLIGHTLY_PRESENT')).toBe('Slightly present');
  });

  it('reads each judge of a panel, keeping failures as errors', () => {
    const judges = judgeViews([
      { judge: 'a', score: 0.75, distribution: { CLASS_MAJORLY_PRESENT: 0.9, CLASS_FULLY_PRESENT: 0.1 }, reasoning: 'ok', error: null },
      { judge: 'b', score: null, distribution: null, reasoning: null, error: 'timed out' },
      { nonsense: true },
    ]);
    expect(judges).toEqual([
      { judge: 'a', scoreLabel: '75.0', topLabel: 'Majorly present (90%)', reasoning: 'ok', error: null },
      { judge: 'b', scoreLabel: '—', topLabel: null, reasoning: null, error: 'timed out' },
    ]);
    expect(judgeViews('not a list')).toEqual([]);
  });

  it('shows an error as an error and not-applicable as n/a, never as a 0', () => {
    const err = verdictView({ ...base, status: 'error', score: null, reasoning: 'Every judge failed.' });
    expect(err).toMatchObject({ statusLabel: 'Error', scoreLabel: 'error', reasoning: 'Every judge failed.' });
    expect(verdictView({ ...base, status: 'not_applicable', score: null }).scoreLabel).toBe('n/a');
    const ok = verdictView({ ...base, spread: 0.1234, alpha: 0.876, weight: 2, gate: true });
    expect(ok).toMatchObject({ anchor: 'point-2', scoreLabel: '81.3', weightLabel: 'weight 2', gate: true, alphaLabel: 'agreement α = 0.88' });
    expect(ok.spreadLabel).toMatch(/12\.3 points/);
  });
});
