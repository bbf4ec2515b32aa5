/**
 * Which pairs of replies to put before people: the informative ones. A comparison of two models
 * far apart in the current ranking tells little (people will mostly prefer the stronger one, as
 * the ranking already says); one of two models close together is where the order is in doubt.
 *
 * So: every pair of models, closest scores first (pairs with a model that has no score last,
 * in the ranking's order), walked round-robin: each pair gets one prompt per round, until
 * `count` pairs are chosen or every pair has been shown on every prompt. A pair's prompts come
 * from a seeded shuffle of the prompts, pair p taking prompt (p + round) in round `round`, so
 * one pair never sees the same prompt twice and the pairs of a round spread over different
 * prompts. Which model's reply is shown first (A) is a seeded coin, so position bias does not
 * line up with the ranking. Randomness comes from the seed alone.
 */
import { unsafeUniformIntDistribution, xoroshiro128plus, type RandomGenerator } from 'pure-rand';

export interface ChosenPair {
  promptKey: string;
  modelA: string;
  modelB: string;
  scoreA: number | null;
  scoreB: number | null;
  /** |scoreA − scoreB|, or null when either model has no score. */
  gap: number | null;
}

type ScoredModel = { modelId: string; score: number | null };

function shuffled<T>(items: readonly T[], g: RandomGenerator): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = unsafeUniformIntDistribution(0, i, g);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Best score first, models without a score last; ties by id, so the order does not depend on the input's. */
function byScore(a: ScoredModel, b: ScoredModel): number {
  if (a.score === null || b.score === null) return a.score === b.score ? a.modelId.localeCompare(b.modelId) : a.score === null ? 1 : -1;
  return b.score - a.score || a.modelId.localeCompare(b.modelId);
}

export function choosePairs(input: { models: ReadonlyArray<ScoredModel>; prompts: readonly string[]; count: number; seed: number }): ChosenPair[] {
  const models = [...new Map(input.models.map((m) => [m.modelId, m])).values()].sort(byScore);
  const prompts = [...new Set(input.prompts)];
  if (models.length < 2 || prompts.length === 0 || input.count <= 0) return [];
  const candidates: Array<{ first: ScoredModel; second: ScoredModel; gap: number | null }> = [];
  for (let i = 0; i < models.length; i++) {
    for (let j = i + 1; j < models.length; j++) {
      const [first, second] = [models[i]!, models[j]!];
      candidates.push({ first, second, gap: first.score === null || second.score === null ? null : Math.abs(first.score - second.score) });
    }
  }
  // a stable sort: equal gaps (and the unscored pairs) keep the ranking's order
  candidates.sort((a, b) => (a.gap === null || b.gap === null ? (a.gap === null ? 1 : 0) - (b.gap === null ? 1 : 0) : a.gap - b.gap));
  const g = xoroshiro128plus(input.seed);
  const order = shuffled(prompts, g);
  const chosen: ChosenPair[] = [];
  for (let round = 0; round < order.length; round++) {
    for (let p = 0; p < candidates.length; p++) {
      if (chosen.length >= input.count) return chosen;
      const { first, second, gap } = candidates[p]!;
      const [a, b] = unsafeUniformIntDistribution(0, 1, g) === 0 ? [first, second] : [second, first];
      chosen.push({ promptKey: order[(p + round) % order.length]!, modelA: a.modelId, modelB: b.modelId, scoreA: a.score, scoreB: b.score, gap });
    }
  }
  return chosen;
}
