/**
 * The figures made from people's pair preferences (`human_figures` under the key 'pairs'):
 * the Bradley–Terry ranking over every preference (bradley-terry.ts), and how far it agrees with
 * the rubric leaderboard, as rank correlations (Spearman's ρ and Kendall's τ-b) between a
 * model's Bradley–Terry strength and its rubric score, over the models both rank. Under three
 * such models the correlation is null: two points always agree or disagree perfectly.
 */
import { xoroshiro128plus } from 'pure-rand';
import { pairwiseRanking, type Preference } from './bradley-terry';
import { kendallTauB, spearman } from './rank-correlation';
import type { PairwiseFigures } from './stored';

export interface PairPreference {
  blueprintId: string;
  modelA: string;
  modelB: string;
  /** a model id (modelA or modelB) or 'tie' */
  preferred: string;
  reviewerId: string;
}

function outcomeOf(p: PairPreference): Preference['outcome'] {
  if (p.preferred === 'tie') return 'tie';
  if (p.preferred === p.modelA) return 'a';
  if (p.preferred === p.modelB) return 'b';
  throw new RangeError(`a preference names modelA (${p.modelA}), modelB (${p.modelB}) or 'tie'; got ${p.preferred}`);
}

export function pairwiseFigures(input: {
  preferences: readonly PairPreference[];
  rubric: ReadonlyArray<{ modelId: string; score: number | null }>;
  seed: number;
  resamples?: number;
}): PairwiseFigures {
  const { preferences, seed } = input;
  const ranking = pairwiseRanking(
    preferences.map((p) => ({ a: p.modelA, b: p.modelB, outcome: outcomeOf(p) })),
    xoroshiro128plus(seed),
    { resamples: input.resamples ?? 1000 },
  );
  const rubric = new Map<string, number>();
  for (const r of input.rubric) if (r.score !== null && Number.isFinite(r.score)) rubric.set(r.modelId, r.score);
  const both = ranking.models.filter((m) => rubric.has(m.model));
  const strengths = both.map((m) => m.strength);
  const scores = both.map((m) => rubric.get(m.model)!);
  return {
    kind: 'pairwise',
    ranking,
    labels: preferences.length,
    reviewers: new Set(preferences.map((p) => p.reviewerId)).size,
    blueprints: [...new Set(preferences.map((p) => p.blueprintId))].sort(),
    correlation: { spearman: spearman(strengths, scores), kendall: kendallTauB(strengths, scores), models: both.length },
    seed,
  };
}
