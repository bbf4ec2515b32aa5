import { describe, expect, it } from 'vitest';
import { contrastRatio, heatmapLegend, luminance, NO_SCORE, scoreColour, STEPS } from './colour-scale';

describe('heatmap colour scale', () => {
  it('computes WCAG luminance and contrast', () => {
    expect(luminance('#ffffff')).toBeCloseTo(1, 5);
    expect(luminance('#000000')).toBe(0);
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#777777')).toBe(1);
  });

  it('gives every score a text colour with at least 4.5:1 contrast (WCAG AA)', () => {
    for (let i = 0; i <= 1000; i++) {
      const c = scoreColour(i / 1000);
      expect(contrastRatio(c.background, c.color), `score ${i / 1000}`).toBeGreaterThanOrEqual(4.5);
    }
    expect(contrastRatio(NO_SCORE.background, NO_SCORE.color)).toBeGreaterThanOrEqual(4.5);
    for (const l of heatmapLegend()) expect(contrastRatio(l.background, l.color)).toBeGreaterThanOrEqual(4.5);
  });

  it('quantises to 21 steps, clamps out-of-range scores, and greys out a missing one', () => {
    expect(scoreColour(0).bucket).toBe(0);
    expect(scoreColour(1).bucket).toBe(STEPS);
    expect(scoreColour(0.524).bucket).toBe(10);
    expect(scoreColour(0.526).bucket).toBe(11);
    expect(scoreColour(1.7)).toEqual(scoreColour(1));
    expect(scoreColour(-0.2)).toEqual(scoreColour(0));
    expect(scoreColour(null)).toEqual(NO_SCORE);
    expect(scoreColour(Number.NaN)).toEqual(NO_SCORE);
  });

  it('runs from red (0) to blue (1) through a light middle', () => {
    const [r0, , b0] = [0, 1, 2].map((k) => parseInt(scoreColour(0).background.slice(1 + 2 * k, 3 + 2 * k), 16)) as [number, number, number];
    const [r1, , b1] = [0, 1, 2].map((k) => parseInt(scoreColour(1).background.slice(1 + 2 * k, 3 + 2 * k), 16)) as [number, number, number];
    expect(r0).toBeGreaterThan(b0);
    expect(b1).toBeGreaterThan(r1);
    expect(luminance(scoreColour(0.5).background)).toBeGreaterThan(luminance(scoreColour(0).background));
    expect(luminance(scoreColour(0.5).background)).toBeGreaterThan(luminance(scoreColour(1).background));
  });
});
