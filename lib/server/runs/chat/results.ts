/**
 * A run's results as one document (`assay run --json`): the run's summary and, per reply,
 * the attempt score and every verdict. Read in pages of replies so a large run is never
 * held in memory twice. Sealed prompts (`split: test`) are scored in the summary but their
 * replies and verdicts are left out, as on every page: the file is an export (CI keeps it as
 * an artifact), and a prompt key, reply or point text would show what the test side asks.
 */
import { replyOutcome, replySourceOf, SEALED_SPLIT, type Interval, type ModelPassCurve } from '@/lib/core';
import type { Db } from '../../db/client';
import { batchSavings, type BatchSavings } from '../../db/queries/batch-savings';
import { getRunJudgeReliability, type RunJudgeReliability } from '../../db/queries/judge-reliability';
import { getRunGroups, type RunGroups } from '../../db/queries/run-groups';
import { unpricedOfStoredRun } from '../../db/queries/run-unpriced';
import { storedInterval, storedModelPassCurve } from '../../db/stored-interval';
import { withLiveVerdictCount } from '../../db/verdict-counts';

export interface RunResultsDocument {
  run: {
    id: string;
    blueprintId: string;
    status: string;
    identityHash: string;
    models: unknown;
    judges: unknown;
    /**
     * `outcomes`: of the answered replies, those the provider marked as a refusal and those cut off
     * at the token limit (reply-outcome.ts): answered, graded, and worth knowing before the scores.
     */
    replies: { done: number; total: number; errors: number; outcomes: { refused: number; cutOff: number } };
    verdicts: { done: number; total: number; errors: number };
    providerCalls: number;
    cacheHits: number;
    /** What the priced calls cost; calls to `unpricedModels` are not in it. */
    costUsd: number;
    /** The run's models and judges with no known price (cost.ts): their cost is unknown, not $0. */
    unpricedModels: string[];
    /** How the run called its providers, and what batch mode saved (batch-store.ts). */
    batch: BatchSavings;
    startedAt: string | null;
    finishedAt: string | null;
    /** Why the run did not complete (null when it did). */
    error: string | null;
    /** For a rescore: the run whose stored replies it re-graded (no model was called). */
    rescoreOf: string | null;
    /** Per model, on a 0–1 scale (the pages show ×100). */
    scores: {
      model: string;
      score: number | null;
      ciLow: number | null;
      ciHigh: number | null;
      errors: number;
      replies: number;
      failedReplies: number;
      /** Prompts with a score: what the interval rests on. */
      scoredPrompts: number;
      coverage: { judgedVerdicts: number; judgedScored: number; deterministicVerdicts: number; deterministicScored: number };
      /** Why the score is withheld (null: it is not). */
      withheld: string | null;
      /** The interval with how it was made: method, level, n attempts, clusters (prompts), resamples. */
      interval: Interval | null;
      /** Scored attempts over the scored prompts. */
      scoredAttempts: number;
      /** The blueprint's pass_threshold and the unbiased pass@k / pass^k for k = 1..n (null without a threshold). */
      passThreshold: number | null;
      passAtK: ModelPassCurve | null;
    }[];
    /**
     * How far the judges agreed on the run's judged verdicts, for the run and per model: pooled
     * Krippendorff's α (interval) with its units and pairs, or `kind: 'not-enough'` below
     * ALPHA_MIN_UNITS pairable verdicts (alpha.ts); coverage, disagreement share, self-judging
     * (judge-reliability.ts). No verdict carries an α of its own.
     */
    judgeReliability: RunJudgeReliability;
    /** How many sealed prompts the run scored; their results are not in `results`. */
    sealedPrompts: number;
    /** Per model: scores per prompt `category` and per `rule` (soev's report), and the per-attempt pass rate. */
    groups: RunGroups['models'];
  };
  results: {
    prompt: string;
    model: string;
    systemIndex: number;
    temperature: number | null;
    attempt: number;
    reply: string;
    error: string | null;
    score: number | null;
    verdicts: { point: string; status: string; score: number | null; detail: string | null }[];
  }[];
}

export async function runResults(db: Db, runId: string): Promise<RunResultsDocument> {
  const run = await withLiveVerdictCount(db, await db.run.findUniqueOrThrow({ where: { id: runId }, include: { modelSummaries: { orderBy: [{ score: { sort: 'desc', nulls: 'last' } }, { modelId: 'asc' }] } } }));
  const replyRun = replySourceOf(run);
  const sealed = (await db.versionPrompt.findMany({ where: { versionId: run.versionId, split: SEALED_SPLIT }, select: { promptKey: true } })).map((p) => p.promptKey);
  const results: RunResultsDocument['results'] = [];
  const PAGE = 500;
  for (let cursor: string | undefined; ; ) {
    const replies = await db.reply.findMany({
      where: { runId: replyRun, ...(sealed.length > 0 ? { promptKey: { notIn: sealed } } : {}) },
      orderBy: { id: 'asc' },
      take: PAGE,
      ...(cursor ? { skip: 1, cursor: { id: cursor } } : {}),
      select: {
        id: true,
        promptKey: true,
        modelId: true,
        systemIndex: true,
        temperature: true,
        attempt: true,
        content: true,
        error: true,
        attemptScores: { where: { runId }, select: { score: true } },
        verdicts: { where: { runId }, orderBy: { pointIndex: 'asc' }, select: { pointText: true, status: true, score: true, detail: true, reasoning: true } },
      },
    });
    for (const r of replies) {
      results.push({
        prompt: r.promptKey,
        model: r.modelId,
        systemIndex: r.systemIndex,
        temperature: r.temperature,
        attempt: r.attempt,
        reply: r.content,
        error: r.error,
        score: r.attemptScores[0]?.score ?? null,
        verdicts: r.verdicts.map((v) => ({ point: v.pointText, status: v.status, score: v.score, detail: v.detail ?? v.reasoning })),
      });
    }
    if (replies.length < PAGE) break;
    cursor = replies.at(-1)!.id;
  }
  const [failed, outcomeGroups, scoredCells, judgeReliability, groups] = await Promise.all([
    db.reply.groupBy({ by: ['modelId'], where: { runId: replyRun, error: { not: null } }, _count: { _all: true } }),
    db.reply.groupBy({ by: ['refusal', 'finishReason'], where: { runId: replyRun, error: null, OR: [{ refusal: { not: null } }, { finishReason: { not: null } }] }, _count: { _all: true } }),
    db.runCellSummary.groupBy({ by: ['modelId'], where: { runId, score: { not: null } }, _count: { _all: true } }),
    getRunJudgeReliability(db, runId),
    getRunGroups(db, runId),
  ]);
  const failedBy = new Map(failed.map((f) => [f.modelId, f._count._all]));
  const scoredBy = new Map(scoredCells.map((c) => [c.modelId, c._count._all]));
  results.sort((a, b) => a.prompt.localeCompare(b.prompt) || a.model.localeCompare(b.model) || a.systemIndex - b.systemIndex || (a.temperature ?? -1) - (b.temperature ?? -1) || a.attempt - b.attempt);
  return {
    run: {
      id: run.id,
      blueprintId: run.blueprintId,
      status: run.status,
      identityHash: run.identityHash,
      models: run.models,
      judges: run.judges,
      replies: { done: run.doneCalls, total: run.totalCalls, errors: run.errorCalls, outcomes: countOutcomes(outcomeGroups) },
      verdicts: { done: run.doneVerdicts, total: run.totalVerdicts, errors: run.errorVerdicts },
      providerCalls: run.providerCalls,
      cacheHits: run.cacheHits,
      costUsd: run.costUsd,
      unpricedModels: await unpricedOfStoredRun(db, run),
      batch: await batchSavings(db, runId, run.config),
      startedAt: run.startedAt?.toISOString() ?? null,
      finishedAt: run.finishedAt?.toISOString() ?? null,
      error: run.error,
      rescoreOf: run.trigger === 'rescore' ? run.parentRunId : null,
      scores: run.modelSummaries.map((m) => ({
        model: m.modelId,
        score: m.score,
        ciLow: m.ciLow,
        ciHigh: m.ciHigh,
        errors: m.errorCount,
        replies: m.replyCount,
        failedReplies: failedBy.get(m.modelId) ?? 0,
        scoredPrompts: scoredBy.get(m.modelId) ?? 0,
        coverage: { judgedVerdicts: m.judgedVerdicts, judgedScored: m.judgedScored, deterministicVerdicts: m.deterministicVerdicts, deterministicScored: m.deterministicScored },
        withheld: m.withheldReason,
        interval: storedInterval(m),
        scoredAttempts: m.attemptCount,
        passThreshold: m.passThreshold,
        passAtK: storedModelPassCurve(m.passCurve),
      })),
      judgeReliability,
      sealedPrompts: sealed.length,
      groups: groups.models,
    },
    results,
  };
}

/** Refused and cut-off replies, from the replies grouped by their refusal signal and finish reason. */
function countOutcomes(groups: readonly { refusal: string | null; finishReason: string | null; _count: { _all: number } }[]): { refused: number; cutOff: number } {
  const out = { refused: 0, cutOff: 0 };
  for (const g of groups) {
    const outcome = replyOutcome(g);
    if (outcome === 'refused') out.refused += g._count._all;
    else if (outcome === 'cut_off') out.cutOff += g._count._all;
  }
  return out;
}
