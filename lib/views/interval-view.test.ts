import { describe, expect, it } from 'vitest';
import { modelPassCurve, wilsonInterval } from '@/lib/core';
import { intervalNote, passAtKView } from './interval-view';

describe('intervalNote', () => {
  it('says level, ends, prompts and attempts, clustered and the method', () => {
    const v = intervalNote({ low: 0.61, high: 0.74, level: 0.95, method: 'bca-bootstrap', n: 120, clusters: 40, resamples: 1000 })!;
    expect(v.label).toBe('95% CI 61.0–74.0');
    expect(v.basis).toBe('40 prompts, 120 attempts · clustered · BCa bootstrap');
    expect(v.text).toBe('95% confidence interval 61.0 to 74.0, over 40 prompts, 120 attempts, clustered by prompt, by BCa bootstrap (1,000 resamples).');
    expect(v.clustered).toBe(true);
  });

  it('one attempt per prompt is not clustered; closed-form methods have no resamples', () => {
    const v = intervalNote(wilsonInterval(5, 5, 0.95))!;
    expect(v).toMatchObject({ label: '95% CI 56.6–100.0', basis: '5 prompts · Wilson score', clustered: false });
    expect(v.text).not.toMatch(/resample/);
    expect(intervalNote(null)).toBeNull();
  });
});

describe('passAtKView', () => {
  const curve = modelPassCurve([{ weight: 1, n: 4, passes: 3 }, { weight: 1, n: 4, passes: 1 }]);

  it('a table per model for k = 1..n, as percentages', () => {
    const v = passAtKView([{ modelId: 'openai:gpt-4o', passThreshold: 0.75, passCurve: curve }])!;
    expect(v.maxK).toBe(4);
    expect(v.thresholdText).toMatch(/0\.75 or more/);
    // k=1: (3/4 + 1/4)/2 = 50%; k=4: pass@4 (1 + 1)/2 = 100%, pass^4 (0 + 0)/2 = 0%
    expect(v.models[0]!.rows[0]).toEqual({ k: 1, passAt: '50%', passHat: '50%', prompts: 2 });
    expect(v.models[0]!.rows[3]).toEqual({ k: 4, passAt: '100%', passHat: '0%', prompts: 2 });
    expect(v.models[0]!.label).toBe('gpt-4o');
  });

  it('nothing to show with one attempt per prompt or no threshold', () => {
    expect(passAtKView([{ modelId: 'm', passThreshold: 0.5, passCurve: modelPassCurve([{ weight: 1, n: 1, passes: 1 }]) }])).toBeNull();
    expect(passAtKView([{ modelId: 'm', passThreshold: null, passCurve: null }])).toBeNull();
  });
});
