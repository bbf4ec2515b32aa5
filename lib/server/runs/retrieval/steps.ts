/**
 * A retrieval run's steps: the one engine under both schedulers (the in-process runner,
 * execute.ts, and the Inngest functions over the run's units, runs/units/kinds.ts), as
 * runs/chat/steps.ts is for chat runs. A scheduler decides only when and where a step runs:
 *
 *   start → pending → embedBatch (model × documents|queries × batch) × N → scoreModel × models → finish
 *
 * Every step is idempotent: the database is the journal (a batch row per embedded batch, the
 * vector store holding each embedding once per model and text, result rows per model), so a step
 * repeated after a kill, a redelivered event or a retry repeats no stored call and stores
 * nothing twice.
 */
import {
  batchRange,
  displayDepth,
  metricResults,
  planEmbedUnits,
  rankDocuments,
  retrievalFinalStatus,
  retrievalModelStatus,
  scoreRankings,
  StoredQueryMetricsSchema,
  StoredRankingSchema,
  StoredRelevantRanksSchema,
  type EmbedUnit,
  type FinalStatus,
  type RankedDoc,
} from '@/lib/core';
import type { Prisma } from '@/generated/prisma/client';
import { isProviderError, ModelResolutionError, providerOfModel } from '../../providers';
import { intervalColumns } from '../../db/stored-interval';
import { storableText } from '../../db/storable-text';
import { isUniqueViolation } from '../../db/unique-retry';
import { loadVectors, nearest, textHash } from '../../db/vectors';
import type { RunDeps } from '../engine/deps';
import { budgetSpent } from '../calls/budget';
import { embedTexts } from './embed-texts';
import { BudgetExceededError, LeaseLostError, RunConfigError, RunNotFoundError } from '../engine/errors';
import { forgetRetrievalContext, loadRetrievalContext, type RetrievalContext } from './context';
import { meteredClient } from './metered-client';

/** A unit of embedding work with its concurrency key (the model's provider). */
export interface EmbedWork extends EmbedUnit {
  provider: string;
}

export interface RetrievalPending {
  embed: EmbedWork[];
  /** Models whose every batch is embedded and whose rankings are not scored yet. */
  score: string[];
}

// ---------------------------------------------------------------------------------------------
// start and what is pending

/** A completed retrieval run has nothing left: an execution of it does nothing. */
export async function isRetrievalSettled(deps: Pick<RunDeps, 'db'>, runId: string): Promise<boolean> {
  const run = await deps.db.run.findUnique({ where: { id: runId }, select: { status: true } });
  if (!run) throw new RunNotFoundError(runId);
  return run.status === 'completed';
}

/**
 * Marks the run running (first start or resume) and gives batches that failed another chance:
 * their journal rows and counters go, so they are pending again (their texts already in the
 * vector store are not embedded twice: embedTexts reads it first).
 */
export async function startRetrieval(deps: Pick<RunDeps, 'db'>, runId: string): Promise<RetrievalContext> {
  const run = await deps.db.run.findUnique({ where: { id: runId }, select: { startedAt: true } });
  if (!run) throw new RunNotFoundError(runId);
  await deps.db.run.update({ where: { id: runId }, data: { status: 'running', error: null, ...(run.startedAt ? {} : { startedAt: new Date() }) } });
  await deps.db.$executeRaw`
    WITH gone AS (DELETE FROM retrieval_batches WHERE run_id = ${runId} AND error IS NOT NULL RETURNING texts)
    UPDATE runs SET done_calls = done_calls - (SELECT COALESCE(sum(texts), 0) FROM gone)::int, error_calls = error_calls - (SELECT COALESCE(sum(texts), 0) FROM gone)::int
    WHERE id = ${runId}`;
  return loadRetrievalContext(deps.db, runId);
}

/** The one rule of what is left: a batch is done when its journal row exists; a model is scored when its results exist. */
export async function pendingRetrieval(deps: Pick<RunDeps, 'db'>, ctx: RetrievalContext, modelId?: string): Promise<RetrievalPending> {
  const only = modelId ? { modelId } : {};
  const [batches, scored] = await Promise.all([
    deps.db.retrievalBatch.findMany({ where: { runId: ctx.runId, ...only }, select: { modelId: true, kind: true, batchIndex: true, error: true } }),
    deps.db.retrievalMetricResult.findMany({ where: { runId: ctx.runId, ...only }, distinct: ['modelId'], select: { modelId: true } }),
  ]);
  const done = new Set(batches.map((b) => `${b.modelId}|${b.kind}|${b.batchIndex}`));
  const failed = new Set(batches.filter((b) => b.error !== null).map((b) => b.modelId));
  const scoredModels = new Set(scored.map((s) => s.modelId));
  const models = modelId ? [modelId] : ctx.models;
  const units = planEmbedUnits(models, { documents: ctx.data.corpus.length, queries: ctx.data.queries.length }, ctx.settings.batchTexts);
  const embed = units.filter((u) => !done.has(`${u.modelId}|${u.kind}|${u.batchIndex}`)).map((u) => ({ ...u, provider: providerOfModel(u.modelId) }));
  const waiting = new Set(embed.map((u) => u.modelId));
  return { embed, score: models.filter((m) => !waiting.has(m) && !failed.has(m) && !scoredModels.has(m)) };
}

// ---------------------------------------------------------------------------------------------
// embedding

function embeddingsOf(deps: RunDeps) {
  if (!deps.embeddings) throw new RunConfigError('no embedding providers are wired into this worker (RunDeps.embeddings)');
  return deps.embeddings;
}

/** The texts of a unit: its slice of the corpus or of the queries. */
function unitTexts(ctx: RetrievalContext, unit: EmbedUnit): string[] {
  const items = unit.kind === 'document' ? ctx.data.corpus : ctx.data.queries;
  const { start, end } = batchRange(unit.batchIndex, ctx.settings.batchTexts, items.length);
  return items.slice(start, end).map((i) => i.text);
}

/**
 * Embeds one batch (through embedTexts: the vector store first, then the provider in its own
 * request sizes, retrying what may pass) and journals it with the run's counters in one
 * statement. A provider error after the retries is journalled as the batch's error (its model
 * stays unscored, a resume tries again); a budget stop or a lost lease leaves the batch pending.
 */
export async function embedBatch(deps: RunDeps, ctx: RetrievalContext, unit: EmbedUnit): Promise<{ texts: number; calls: number }> {
  const texts = unitTexts(ctx, unit);
  const exists = await deps.db.retrievalBatch.findUnique({ where: { runId_modelId_kind_batchIndex: { runId: ctx.runId, modelId: unit.modelId, kind: unit.kind, batchIndex: unit.batchIndex } }, select: { id: true } });
  if (exists) return { texts: texts.length, calls: 0 };
  let outcome: { calls: number; cached: number; costUsd: number; error: string | null };
  try {
    const e = embeddingsOf(deps);
    const client = meteredClient(deps.db, ctx, e.client(unit.modelId));
    const r = await embedTexts(
      { db: deps.db, client, ...(ctx.signal ? { signal: ctx.signal } : {}), ...(e.limiters ? { limiters: e.limiters } : {}), ...(e.retry ? { retry: e.retry } : {}) },
      { modelId: unit.modelId, texts, kind: unit.kind },
    );
    outcome = { calls: r.calls, cached: r.cached, costUsd: r.costUsd, error: null };
  } catch (e) {
    if (e instanceof BudgetExceededError || e instanceof LeaseLostError || !(isProviderError(e) || e instanceof ModelResolutionError)) throw e;
    outcome = { calls: 0, cached: 0, costUsd: 0, error: storableText((e as Error).message) };
  }
  const failed = outcome.error === null ? 0 : texts.length;
  await deps.db.$executeRaw`
    WITH j AS (
      INSERT INTO retrieval_batches (id, run_id, model_id, kind, batch_index, texts, calls, cached, cost_usd, error, created_at)
      VALUES (${`${ctx.runId}:${unit.modelId}:${unit.kind}:${unit.batchIndex}`}, ${ctx.runId}, ${unit.modelId}, ${unit.kind}, ${unit.batchIndex}, ${texts.length}, ${outcome.calls}, ${outcome.cached}, ${outcome.costUsd}, ${outcome.error}, now())
      ON CONFLICT (run_id, model_id, kind, batch_index) DO NOTHING
      RETURNING texts
    )
    UPDATE runs SET done_calls = done_calls + (SELECT COALESCE(sum(texts), 0) FROM j)::int, error_calls = error_calls + ${failed}::int * (SELECT count(*) FROM j)::int
    WHERE id = ${ctx.runId}`;
  return { texts: texts.length, calls: outcome.calls };
}

// ---------------------------------------------------------------------------------------------
// search and score

/**
 * The ranking of every query for one model: its `depth` nearest documents by cosine similarity
 * (`nearest`: pgvector where the server has it, exact otherwise, the same order either way).
 * Documents with the same text share one embedding, so each hash found stands for every
 * document with that text.
 */
export async function rankQueries(deps: Pick<RunDeps, 'db'>, ctx: RetrievalContext, modelId: string): Promise<Record<string, RankedDoc[]>> {
  const docsByHash = new Map<string, string[]>();
  for (const d of ctx.data.corpus) {
    const h = textHash(d.text, 'document');
    docsByHash.set(h, [...(docsByHash.get(h) ?? []), d.id]);
  }
  const queryHashes = ctx.data.queries.map((q) => textHash(q.text, 'query'));
  const vectors = await loadVectors(deps.db, modelId, [...new Set(queryHashes)]);
  const queries = ctx.data.queries.map((q, i) => {
    const vector = vectors.get(queryHashes[i]!);
    if (!vector) throw new Error(`run ${ctx.runId}: query "${q.id}" has no stored ${modelId} embedding although its batch is journalled`);
    return { key: q.id, vector };
  });
  const found = await nearest(deps.db, { modelId, corpusHashes: [...docsByHash.keys()], queries, k: ctx.settings.depth });
  const rankings: Record<string, RankedDoc[]> = {};
  for (const q of ctx.data.queries) {
    rankings[q.id] = (found[q.id] ?? []).flatMap((hit) => (docsByHash.get(hit.textHash) ?? []).map((docId) => ({ docId, score: hit.score })));
  }
  return rankings;
}

/**
 * Searches and scores one model and stores its results: per metric (value, interval over
 * queries, ladder status) and per query (the top of its ranking, its metrics), in one
 * transaction with the run's verdict counter, once (a repeat finds the rows and stops).
 */
export async function scoreModel(deps: Pick<RunDeps, 'db'>, ctx: RetrievalContext, modelId: string): Promise<{ queries: number }> {
  if ((await deps.db.retrievalMetricResult.count({ where: { runId: ctx.runId, modelId } })) > 0) return { queries: 0 };
  const rankings = await rankQueries(deps, ctx, modelId);
  const scores = scoreRankings(ctx.data.qrels, rankings, ctx.block.metrics);
  const results = metricResults(scores, ctx.block, `${ctx.identityHash}|${modelId}`);
  // the model's status on the run, decided once here and stored with each of its rows: every page reads it
  const modelStatus = retrievalModelStatus(results);
  const shown = displayDepth(ctx.block.metrics);
  const relevant = new Map<string, Set<string>>();
  for (const r of ctx.data.qrels) if (r.relevance >= 1) relevant.set(r.queryId, (relevant.get(r.queryId) ?? new Set()).add(r.docId));
  const queryRows = ctx.data.queries.map((q) => {
    // in the order the metrics read it (score, then trec_eval's tie rule); only the top is stored
    const ranked = rankDocuments(rankings[q.id] ?? []);
    const mine = relevant.get(q.id);
    const below = mine ? Object.fromEntries(ranked.flatMap((d, i) => (i >= shown && mine.has(d.docId) ? [[d.docId, i + 1]] : []))) : {};
    return {
      runId: ctx.runId,
      modelId,
      queryId: q.id,
      ranking: StoredRankingSchema.parse(ranked.slice(0, shown)) as unknown as Prisma.InputJsonValue,
      relevantRanks: StoredRelevantRanksSchema.parse(below) as unknown as Prisma.InputJsonValue,
      metrics: StoredQueryMetricsSchema.parse(scores.queries[q.id] ?? {}) as unknown as Prisma.InputJsonValue,
    };
  });
  try {
    await deps.db.$transaction([
      deps.db.retrievalMetricResult.createMany({
        data: results.map((r) => ({ runId: ctx.runId, modelId, metric: r.metric, value: r.value, ...intervalColumns(r.interval), status: r.status, threshold: r.threshold, modelStatus, primary: r.primary, queryCount: r.queryCount })),
      }),
      deps.db.retrievalQueryResult.createMany({ data: queryRows }),
      deps.db.run.update({ where: { id: ctx.runId }, data: { doneVerdicts: { increment: queryRows.length } } }),
    ]);
  } catch (e) {
    // a concurrent repeat of this step stored them first
    if (isUniqueViolation(e)) return { queries: 0 };
    throw e;
  }
  return { queries: queryRows.length };
}

// ---------------------------------------------------------------------------------------------
// finish

/**
 * The one place a retrieval run's end is decided (retrievalFinalStatus in lib/core), from what
 * it stored. Idempotent. `budgetStop`: why a scheduler saw the budget stop it; without one, a run
 * with work left is budget-stopped when its budget is spent, else failed.
 */
export async function finishRetrieval(deps: RunDeps, runId: string, opts: { budgetStop?: string | null } = {}): Promise<FinalStatus> {
  const ctx = await loadRetrievalContext(deps.db, runId);
  const pending = await pendingRetrieval(deps, ctx);
  const unitsLeft = pending.embed.length + pending.score.length;
  const budgetStop = opts.budgetStop ?? (unitsLeft > 0 && (await budgetSpent(deps, runId)) ? 'stopped by its budget' : null);
  const [scored, failures] = await Promise.all([
    deps.db.retrievalMetricResult.findMany({ where: { runId }, distinct: ['modelId'], select: { modelId: true } }),
    deps.db.retrievalBatch.findMany({ where: { runId, error: { not: null } }, distinct: ['modelId'], orderBy: { modelId: 'asc' }, select: { modelId: true, error: true } }),
  ]);
  const decision = retrievalFinalStatus({
    unitsLeft,
    budgetStop,
    models: ctx.models.length,
    scoredModels: scored.length,
    failures: failures.map((f) => ({ modelId: f.modelId, message: f.error ?? '' })),
  });
  const recorded = await deps.db.run.findUniqueOrThrow({ where: { id: runId }, select: { error: true } });
  const error = decision.status === 'failed' && unitsLeft > 0 && recorded.error ? `${decision.error} (${recorded.error})` : decision.error;
  await deps.db.run.update({ where: { id: runId }, data: { status: decision.status, error, finishedAt: new Date() } });
  forgetRetrievalContext(runId);
  await deps.onFinished?.(runId);
  return decision.status;
}
