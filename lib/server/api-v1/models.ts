/**
 * GET /api/v1/models/{modelId}: a model as its page shows it. Its place on the overall board and
 * on each of its tags' boards is read from the stored boards (the ones the leaderboards show), its
 * result per blueprint from the stored per-blueprint summaries, its history from its completed,
 * public runs (db/queries/model-profile.ts).
 */
import type { z } from 'zod';
import type { Leaderboard } from '@/lib/core';
import type { Db } from '../db/client';
import { boardKeyName, boardsFor, type BoardKey } from '../db/commands/board-snapshots';
import { getModelProfile } from '../db/queries/model-profile';
import { NotFoundError } from '../http/errors';
import { boardEntry, coverageOf } from './leaderboard';
import type { ModelAnswer } from './schemas';

export async function readModel(db: Db, modelId: string, opts: { minCoverage: number }): Promise<z.infer<typeof ModelAnswer>> {
  const profile = await getModelProfile(db, modelId);
  if (!profile) throw new NotFoundError(`No model ${modelId} has results: GET /api/v1/leaderboard lists the models.`);
  const mine = profile.scores.filter((r) => r.modelId === modelId).sort((a, b) => (a.blueprintId < b.blueprintId ? -1 : a.blueprintId > b.blueprintId ? 1 : 0));
  const tags = [...new Set(mine.flatMap((r) => r.tags))].sort();
  const keys: BoardKey[] = mine.length ? [{ kind: 'all' }, ...tags.map((tag) => ({ kind: 'tag', tag }) as const)] : [];
  const boards: Map<string, Leaderboard> = keys.length ? await boardsFor(db, keys, profile.scores, opts) : new Map();
  const names = new Map(profile.model?.displayName ? [[modelId, profile.model.displayName]] : []);
  const places = keys.flatMap((key) => {
    const board = boards.get(boardKeyName(key));
    if (!board) return [];
    const tag = key.kind === 'tag' ? key.tag : null;
    const ranked = board.ranked.find((a) => a.modelId === modelId);
    if (ranked) {
      const { model_id: _m, display_name: _d, ...entry } = boardEntry(ranked, names);
      return [{ tag, ranked: true, rank: ranked.rank, band: ranked.band, ...entry }];
    }
    const unranked = board.unranked.find((a) => a.modelId === modelId);
    if (!unranked) return [];
    const { model_id: _m, display_name: _d, ...entry } = boardEntry(unranked, names);
    return [{ tag, ranked: false, rank: null, band: null, ...entry }];
  });
  return {
    model_id: modelId,
    display_name: profile.model?.displayName ?? null,
    provider: profile.model?.provider ?? null,
    boards: places,
    blueprints: mine.map((r) => ({
      blueprint_id: r.blueprintId,
      blueprint_title: r.blueprintTitle,
      tags: r.tags,
      run_id: r.runId,
      score: r.score,
      ci_low: r.ciLow,
      ci_high: r.ciHigh,
      error_count: r.errorCount,
      coverage: coverageOf(r),
      cost_usd: r.costUsd ?? null,
      prompt_count: r.promptCount ?? null,
      latency_ms_p50: r.latencyMsP50 ?? null,
    })),
    history: profile.history.map((h) => ({
      run_id: h.runId,
      blueprint_id: h.run.blueprint.id,
      blueprint_title: h.run.blueprint.title,
      created_at: h.run.createdAt.toISOString(),
      score: h.score,
      ci_low: h.ciLow,
      ci_high: h.ciHigh,
      error_count: h.errorCount,
    })),
  };
}
