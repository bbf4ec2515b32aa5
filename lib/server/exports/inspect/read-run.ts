/**
 * The reads behind an Inspect export: the run's header, each model's stored summary and
 * totals, and the model's replies in pages. Sealed prompts (`split: test`) are left out here,
 * in the queries, as every reader of replies and verdicts does (db/queries/sealed.ts); only
 * their number is read. Text that may quote a secret passes the stored-text redactor, as on
 * the pages (db/queries/redact-stored.ts).
 */
import { z } from 'zod';
import { parseStored, replySourceOf, SEALED_SPLIT } from '@/lib/core';
import type { Db } from '../../db/client';
import { ConflictError } from '../../http/errors';
import { RunNotFoundError } from '../../runs/engine/errors';
import { redactStored, storedTextRedactor } from '../../db/queries/redact-stored';
import { storedInterval } from '../../db/stored-interval';
import type { ModelForExport, RunForExport } from './log-header';
import type { PromptForExport, ReplyForExport } from './log-sample';

/** `runs.models`: the run's models in the order it was asked for (request-run.ts writes it). */
const StoredRunModelsSchema = z.array(z.string().min(1));

/** Replies per page: with their verdicts, a page stays a few megabytes even for long replies. */
export const REPLY_PAGE = 200;

/** A run that is not a chat run (a retrieval run has no prompts, replies or verdicts to log): the user's to see, one line (409). */
export class RunNotExportableError extends ConflictError {
  override name = 'RunNotExportableError';
}

export interface ExportSource {
  run: RunForExport;
  models: string[];
  /** Whose replies this run grades (a rescore grades its parent's). */
  replyRunId: string;
  sealedKeys: string[];
}

export async function readRunHeader(db: Db, runId: string): Promise<ExportSource> {
  const run = await db.run.findUnique({
    where: { id: runId },
    include: { blueprint: { select: { id: true, title: true, description: true, path: true, tags: true, source: { select: { kind: true, owner: true, repo: true } } } }, version: { select: { id: true, contentHash: true } } },
  });
  if (!run) throw new RunNotFoundError(runId);
  if (run.kind !== 'chat') throw new RunNotExportableError(`run ${runId} is a ${run.kind} run; only chat runs (prompts, replies, verdicts) export as Inspect logs`);
  const sealedKeys = (await db.versionPrompt.findMany({ where: { versionId: run.versionId, split: SEALED_SPLIT }, select: { promptKey: true } })).map((p) => p.promptKey);
  const redact = storedTextRedactor();
  return {
    run: {
      id: run.id,
      status: run.status,
      trigger: run.trigger,
      parentRunId: run.parentRunId,
      createdAt: run.createdAt,
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
      error: redactStored(run.error, redact),
      sourceCommit: run.sourceCommit,
      judges: run.judges,
      blueprint: { id: run.blueprint.id, title: run.blueprint.title, description: run.blueprint.description, path: run.blueprint.path, tags: run.blueprint.tags },
      version: run.version,
      source: run.blueprint.source,
      sealedPrompts: sealedKeys.length,
    },
    models: parseStored(StoredRunModelsSchema, run.models, `runs.models of run ${run.id}`),
    replyRunId: replySourceOf(run),
    sealedKeys,
  };
}

/** The model's stored summary and the database's counts over its exported replies. */
export async function readModel(db: Db, src: ExportSource, modelId: string): Promise<ModelForExport> {
  const where = replyWhere(src, modelId);
  const [summary, totals, failed, variants] = await Promise.all([
    db.runModelSummary.findUnique({ where: { runId_modelId: { runId: src.run.id, modelId } } }),
    db.reply.aggregate({ where, _count: { _all: true }, _sum: { promptTokens: true, completionTokens: true, costUsd: true }, _max: { attempt: true } }),
    db.reply.count({ where: { ...where, error: { not: null } } }),
    db.reply.count({ where: { ...where, OR: [{ systemIndex: { gt: 0 } }, { temperatureIndex: { gt: 0 } }] } }),
  ]);
  return {
    modelId,
    summary: summary && {
      score: summary.score,
      interval: storedInterval(summary),
      attemptCount: summary.attemptCount,
      promptCount: summary.promptCount,
      errorCount: summary.errorCount,
      withheldReason: summary.withheldReason,
    },
    totals: {
      samples: totals._count._all,
      completed: totals._count._all - failed,
      inputTokens: totals._sum.promptTokens ?? 0,
      outputTokens: totals._sum.completionTokens ?? 0,
      costUsd: totals._sum.costUsd,
      epochs: totals._max.attempt === null ? null : totals._max.attempt + 1,
      variants: variants > 0,
    },
  };
}

/**
 * The model's replies with this run's verdicts and attempt scores, a page at a time in reply
 * id order (keyset: each page starts after the last id of the one before), with the prompts
 * the page needs. Memory holds one page, however large the run.
 */
export async function* readReplyPages(db: Db, src: ExportSource, modelId: string, pageSize = REPLY_PAGE): AsyncGenerator<{ replies: ReplyForExport[]; prompts: Map<string, PromptForExport> }> {
  const redact = storedTextRedactor();
  for (let after: string | null = null; ; ) {
    const replies: ReplyForExport[] = await readReplyPage(db, src, modelId, after, pageSize);
    if (replies.length === 0) return;
    const keys = [...new Set(replies.map((r) => r.promptKey))];
    const prompts = await db.versionPrompt.findMany({
      where: { versionId: src.run.version.id, promptKey: { in: keys }, split: { not: SEALED_SPLIT } },
      select: { promptKey: true, position: true, messages: true, ideal: true, category: true },
    });
    yield redactStored({ replies, prompts: new Map(prompts.map((p) => [p.promptKey, p])) }, redact);
    if (replies.length < pageSize) return;
    after = replies.at(-1)!.id;
  }
}

async function readReplyPage(db: Db, src: ExportSource, modelId: string, after: string | null, pageSize: number): Promise<ReplyForExport[]> {
  const rows = await db.reply.findMany({
    where: { ...replyWhere(src, modelId), ...(after ? { id: { gt: after } } : {}) },
    orderBy: { id: 'asc' },
    take: pageSize,
    omit: { structured: true, providerMeta: true, cacheKey: true, systemFingerprint: true, fromCache: true, runId: true },
    include: {
      attemptScores: { where: { runId: src.run.id }, select: { score: true, errorCount: true, gateFailed: true, noApplicable: true, passed: true } },
      verdicts: { where: { runId: src.run.id }, orderBy: { pointIndex: 'asc' }, omit: { id: true, runId: true, replyId: true, promptKey: true, modelId: true, createdAt: true, regexEngine: true, data: true } },
    },
  });
  return rows.map(({ attemptScores, ...r }) => ({ ...r, attemptScore: attemptScores[0] ?? null }));
}

function replyWhere(src: ExportSource, modelId: string) {
  return { runId: src.replyRunId, modelId, ...(src.sealedKeys.length > 0 ? { promptKey: { notIn: src.sealedKeys } } : {}) };
}
