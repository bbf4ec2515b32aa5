/**
 * GET /api/v1/runs/{runId} and /api/v1/runs/{runId}/prompts: a run's header and stored per-model
 * summaries (as its page's ranking shows them), and its visible prompts with their stored cell
 * scores (as its heatmap shows them), a page at a time. A draft (try-it) run answers 404 like an
 * unknown id, so the API does not even tell that it exists; sealed prompts are left out by the
 * queries themselves (db/queries/sealed.ts), and only counted.
 */
import { z } from 'zod';
import { competitionRanks } from '@/lib/core';
import type { Db } from '../db/client';
import { getHeatmapPage } from '../db/queries/run-heatmap';
import { getRunHeader, type RunHeader } from '../db/queries/run-header';
import { getRunRanking } from '../db/queries/run-ranking';
import { RunNotFoundError } from '../runs/engine/errors';
import { decodeCursor, encodeCursor, PromptCursor } from './cursor';
import { coverageOf } from './leaderboard';
import type { RunAnswer, RunPromptsAnswer } from './schemas';

/** What the run row stores of its models and judges (judges carry their template beside the model). */
const StoredModels = z.array(z.string()).catch([]);
const StoredJudges = z.array(z.object({ model: z.string() }).loose()).catch([]);

async function publicRun(db: Db, runId: string): Promise<RunHeader> {
  const header = await getRunHeader(db, runId);
  if (!header || header.draft) throw new RunNotFoundError(runId);
  return header;
}

export async function readRun(db: Db, runId: string): Promise<z.infer<typeof RunAnswer>> {
  const h = await publicRun(db, runId);
  const ranking = await getRunRanking(db, runId);
  // the ranks the run page shows: the same function over the same stored scores, in the same order
  const ranks = competitionRanks(ranking.map((r) => r.score));
  return {
    id: h.id,
    kind: h.kind,
    status: h.status,
    trigger: h.trigger,
    blueprint: { id: h.blueprint.id, title: h.blueprint.title },
    version: { id: h.versionId, source_commit: h.sourceCommit },
    parent_run_id: h.parentRunId,
    models: StoredModels.parse(h.models),
    judges: StoredJudges.parse(h.judges).map((j) => j.model),
    counts: {
      total_calls: h.totalCalls,
      done_calls: h.doneCalls,
      error_calls: h.errorCalls,
      total_verdicts: h.totalVerdicts,
      done_verdicts: h.doneVerdicts,
      error_verdicts: h.errorVerdicts,
    },
    coverage: coverageOf(h.coverage),
    cost_usd: h.costUsd,
    unpriced_models: h.unpricedModels,
    created_at: h.createdAt.toISOString(),
    started_at: h.startedAt?.toISOString() ?? null,
    finished_at: h.finishedAt?.toISOString() ?? null,
    results: ranking.map((r, i) => ({
      rank: ranks[i] ?? null,
      model_id: r.modelId,
      display_name: r.displayName,
      score: r.score,
      ci_low: r.ciLow,
      ci_high: r.ciHigh,
      interval: r.interval ?? null,
      withheld_reason: r.withheldReason,
      prompt_count: r.promptCount,
      reply_count: r.replyCount,
      verdict_count: r.verdictCount,
      error_count: r.errorCount,
      coverage: coverageOf(r),
      cost_usd: r.costUsd,
      cost_complete: !h.unpricedModels.includes(r.modelId),
      latency_ms_p50: r.latencyMsP50,
    })),
  };
}

export async function readRunPrompts(db: Db, runId: string, page: { limit: number; cursor?: string }): Promise<z.infer<typeof RunPromptsAnswer>> {
  const h = await publicRun(db, runId);
  // a cursor names its run: one walked from another run's list is refused, not misread
  const list = `prompts:${runId}`;
  const offset = decodeCursor(list, PromptCursor, page.cursor)?.offset ?? 0;
  const heat = await getHeatmapPage(db, { id: h.id, versionId: h.versionId }, { page: 1, pageSize: page.limit, sort: 'position', offset });
  const cellsOf = new Map<string, typeof heat.cells>();
  for (const c of heat.cells) (cellsOf.get(c.promptKey) ?? cellsOf.set(c.promptKey, []).get(c.promptKey)!).push(c);
  const next = offset + heat.prompts.length;
  return {
    run_id: h.id,
    run_status: h.status,
    total: heat.total,
    sealed_count: heat.sealedCount,
    items: heat.prompts.map((p) => ({
      prompt_key: p.promptKey,
      position: p.position,
      weight: p.weight,
      snippet: p.snippet,
      cells: (cellsOf.get(p.promptKey) ?? [])
        .sort((a, b) => (a.modelId < b.modelId ? -1 : a.modelId > b.modelId ? 1 : 0))
        .map((c) => ({ model_id: c.modelId, score: c.score, attempts: c.attempts, error_count: c.errorCount, gate_failed: c.gateFailed })),
    })),
    next_cursor: heat.prompts.length === page.limit && next < heat.total ? encodeCursor(list, { offset: next }) : null,
  };
}
