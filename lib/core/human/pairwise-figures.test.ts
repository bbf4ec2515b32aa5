import { describe, expect, it } from 'vitest';
import { xoroshiro128plus } from 'pure-rand';
import { pairwiseRanking } from './bradley-terry';
import { pairwiseFigures, type PairPreference } from './pairwise-figures';
import { PairwiseFiguresSchema } from './stored';

// people prefer strong over middling over weak, mostly: strong beats middling 6–1 (and one tie), middling beats weak 6–1, strong beats weak 7–0
function preferences(): PairPreference[] {
  const out: PairPreference[] = [];
  const add = (modelA: string, modelB: string, preferred: string, times: number, blueprintId = 'bp-2') => {
    for (let i = 0; i < times; i++) out.push({ blueprintId, modelA, modelB, preferred, reviewerId: `r${out.length % 3}` });
  };
  add('strong', 'middling', 'strong', 6, 'bp-1');
  add('middling', 'strong', 'middling', 1);
  add('strong', 'middling', 'tie', 1);
  add('weak', 'middling', 'middling', 6);
  add('weak', 'middling', 'weak', 1);
  add('weak', 'strong', 'strong', 7);
  return out;
}

describe('pairwise figures', () => {
  it('rank the models by people\'s preferences and count what they rest on', () => {
    const f = pairwiseFigures({ preferences: preferences(), rubric: [], seed: 3, resamples: 200 });
    expect(PairwiseFiguresSchema.parse(f)).toEqual(f);
    expect(f.ranking.models.map((m) => m.model)).toEqual(['strong', 'middling', 'weak']);
    expect(f.labels).toBe(22);
    expect(f.reviewers).toBe(3);
    expect(f.blueprints).toEqual(['bp-1', 'bp-2']);
    expect(f.correlation).toEqual({ spearman: null, kendall: null, models: 0 });
    // the ranking is bradley-terry's own, on the preferences read as a/b/tie, under the same seed
    const direct = pairwiseRanking(
      preferences().map((p) => ({ a: p.modelA, b: p.modelB, outcome: p.preferred === 'tie' ? 'tie' : p.preferred === p.modelA ? 'a' : 'b' })),
      xoroshiro128plus(3),
      { resamples: 200 },
    );
    expect(f.ranking).toEqual(direct);
  });

  it('correlate with the rubric: +1 when it agrees, −1 when it is reversed, nothing under three models', () => {
    const agreeing = pairwiseFigures({
      preferences: preferences(),
      rubric: [{ modelId: 'strong', score: 0.9 }, { modelId: 'middling', score: 0.6 }, { modelId: 'weak', score: 0.2 }, { modelId: 'unranked', score: 0.5 }],
      seed: 1,
      resamples: 50,
    });
    expect(agreeing.correlation).toEqual({ spearman: expect.closeTo(1, 12), kendall: expect.closeTo(1, 12), models: 3 });
    const reversed = pairwiseFigures({
      preferences: preferences(),
      rubric: [{ modelId: 'strong', score: 0.1 }, { modelId: 'middling', score: 0.6 }, { modelId: 'weak', score: 0.8 }],
      seed: 1,
      resamples: 50,
    });
    expect(reversed.correlation!.spearman).toBeCloseTo(-1, 12);
    expect(reversed.correlation!.kendall).toBeCloseTo(-1, 12);
    const tooFew = pairwiseFigures({
      preferences: preferences(),
      rubric: [{ modelId: 'strong', score: 0.9 }, { modelId: 'middling', score: 0.6 }, { modelId: 'weak', score: null }],
      seed: 1,
      resamples: 50,
    });
    expect(tooFew.correlation).toEqual({ spearman: null, kendall: null, models: 2 });
  });

  it('refuses a preference for a model that was not in the pair', () => {
    expect(() => pairwiseFigures({ preferences: [{ blueprintId: 'b', modelA: 'x', modelB: 'y', preferred: 'z', reviewerId: 'r' }], rubric: [], seed: 1 })).toThrow(/modelA \(x\)/);
  });
});
