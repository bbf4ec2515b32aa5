/**
 * GET /api/v1/leaderboard: the stored board (db/commands/board-snapshots.ts) the home page shows,
 * renamed field by field. Nothing is computed here: the scores, intervals, ranks and bands are
 * the stored board's, so the API and the page always say the same.
 */
import type { z } from 'zod';
import type { ModelAggregate, RankedAggregate } from '@/lib/core';
import type { Db } from '../db/client';
import { boardKeyName, boardsFor, type BoardKey } from '../db/commands/board-snapshots';
import { getLeaderboardRows, getModelNames } from '../db/queries/leaderboard';
import type { LeaderboardAnswer, RankedEntrySchema } from './schemas';

type Entry = Omit<z.infer<typeof RankedEntrySchema>, 'rank' | 'band'>;

export function boardEntry(a: ModelAggregate, names: Map<string, string>): Entry {
  return {
    model_id: a.modelId,
    display_name: names.get(a.modelId) ?? null,
    score: a.score,
    ci_low: a.ciLow,
    ci_high: a.ciHigh,
    interval_method: a.intervalMethod,
    interval_prompts: a.intervalPrompts,
    blueprints: a.blueprints,
    scored_blueprints: a.scoredBlueprints,
    errors: a.errors,
    coverage: coverageOf(a.coverage),
    cost_per_prompt_usd: a.costPerPromptUsd,
    latency_ms_p50: a.latencyMsP50,
  };
}

export function rankedEntry(a: RankedAggregate, names: Map<string, string>): z.infer<typeof RankedEntrySchema> {
  return { rank: a.rank, band: a.band, ...boardEntry(a, names) };
}

export function coverageOf(c: { judgedVerdicts: number; judgedScored: number; deterministicVerdicts: number; deterministicScored: number }) {
  return { judged_verdicts: c.judgedVerdicts, judged_scored: c.judgedScored, deterministic_verdicts: c.deterministicVerdicts, deterministic_scored: c.deterministicScored };
}

export async function readLeaderboard(db: Db, opts: { tag?: string; minCoverage: number }): Promise<z.infer<typeof LeaderboardAnswer>> {
  const rows = await getLeaderboardRows(db);
  const key: BoardKey = opts.tag === undefined ? { kind: 'all' } : { kind: 'tag', tag: opts.tag };
  const board = (await boardsFor(db, [key], rows, { minCoverage: opts.minCoverage })).get(boardKeyName(key))!;
  const names = await getModelNames(db, [...board.ranked, ...board.unranked].map((a) => a.modelId));
  return {
    tag: board.tag,
    blueprint_count: board.blueprintCount,
    min_coverage: board.minCoverage,
    required_blueprints: board.requiredBlueprints,
    ranked: board.ranked.map((a) => rankedEntry(a, names)),
    unranked: board.unranked.map((a) => boardEntry(a, names)),
  };
}
