/**
 * Tied bands on simulated leaderboards (simulate.testkit.ts): 8 models of known, distinct true
 * abilities on 3 blueprints of 40–100 prompts. A band is wrong when it reverses a true order:
 * a model placed clearly ahead (its band entirely above) of a model that is truly better. Holm
 * over the 28 pairs holds the chance of any such reversal on a board at 5% or less; the bands
 * must also separate what is clearly apart (the best from the worst), or they would say nothing.
 */
import { describe, expect, it } from 'vitest';
import { boardBands, type BoardPromptRow } from './leaderboard';
import { Rng, simulateBlueprint, simulateScores } from './simulate.testkit';

// Logit-scale abilities, best first: two near-ties (0.05 apart), one clear gap.
const ABILITIES = [1.2, 1.15, 0.9, 0.6, 0.55, 0.3, 0.0, -0.5];

describe('tied bands on 400 simulated leaderboards', () => {
  it('reverse a true order in ≤ 5% of boards, and separate the best model from the worst in nearly all', () => {
    const rng = new Rng(8);
    const N = 400;
    let wrong = 0;
    let separated = 0;
    let singleRank = 0;
    for (let s = 0; s < N; s++) {
      const prompts: BoardPromptRow[] = [];
      for (let b = 0; b < 3; b++) {
        const bp = simulateBlueprint(rng, rng.int(40, 100));
        ABILITIES.forEach((ability, m) => {
          simulateScores(rng, bp, ability).forEach((score, i) => prompts.push({ blueprintId: `bp${b}`, promptKey: `q${i}`, modelId: `m${m}`, weight: 1, score }));
        });
      }
      // the board's order is the observed one (by mean score), as on the page
      const means = ABILITIES.map((_a, m) => {
        const mine = prompts.filter((p) => p.modelId === `m${m}`);
        return { m, mean: mine.reduce((t, p) => t + (p.score as number), 0) / mine.length };
      }).sort((x, y) => y.mean - x.mean);
      const order = means.map((x) => x.m);
      const bands = boardBands(order.map((m) => `m${m}`), prompts);
      // true index m: smaller is better. Wrong: i truly better than j, yet j's band is wholly above i's.
      let reversed = false;
      for (let x = 0; x < order.length; x++) {
        for (let y = 0; y < order.length; y++) {
          const [i, j] = [order[x]!, order[y]!];
          if (i < j && bands[y]!.worst < bands[x]!.best) reversed = true;
        }
      }
      if (reversed) wrong++;
      const best = order.indexOf(0);
      const worst = order.indexOf(ABILITIES.length - 1);
      if (bands[best]!.worst < bands[worst]!.best) separated++;
      singleRank += bands.filter((b) => b.best === b.worst).length / bands.length / N;
    }
    if (process.env.ASSAY_PRINT_SIMULATION) console.log(`boards with a reversed order: ${wrong}/${N}; best separated from worst: ${separated}/${N}; share of single-rank bands: ${singleRank.toFixed(3)}`);
    expect(wrong / N).toBeLessThanOrEqual(0.05);
    expect(separated / N).toBeGreaterThanOrEqual(0.95);
  });
});
