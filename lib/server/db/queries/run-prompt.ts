/**
 * A prompt within a run: the prompt itself (never a sealed one), every model's cell, the
 * small points × models grid of verdict scores, and the replies with their full verdicts
 * for the models a page shows. Sealed prompts read as missing here, so the page is a 404.
 */
import {
  parseStored,
  parseStoredOrNull,
  StoredDetailSchema,
  StoredDistributionSchema,
  StoredJudgesSchema,
  StoredMessagesSchema,
  StoredPointsSchema,
  StoredRefusalSchema,
  StoredToolCallsSchema,
  StoredTurnsSchema,
  replySourceOf,
} from '@/lib/core';
import type { Db } from '../client';
import { getPromptToolFields } from './prompt-tool-fields';
import { SEALED_SPLIT } from './sealed';
import { redactStored, storedTextRedactor } from './redact-stored';

export async function getVisiblePrompt(db: Db, versionId: string, promptKey: string) {
  const prompt = await db.versionPrompt.findUnique({
    where: { versionId_promptKey: { versionId, promptKey } },
    select: {
      promptKey: true,
      position: true,
      messages: true,
      system: true,
      ideal: true,
      weight: true,
      citation: true,
      category: true,
      points: true,
      pointCount: true,
      repeats: true,
      split: true,
    },
  });
  if (!prompt || prompt.split === SEALED_SPLIT) return null;
  const where = `version_prompts (${versionId}, ${promptKey})`;
  return {
    ...prompt,
    messages: parseStored(StoredMessagesSchema, prompt.messages, `${where}.messages`),
    points: parseStored(StoredPointsSchema, prompt.points, `${where}.points`),
  };
}
export type VisiblePrompt = NonNullable<Awaited<ReturnType<typeof getVisiblePrompt>>>;

export interface GridVerdict {
  modelId: string;
  pointIndex: number;
  status: 'pass' | 'fail' | 'not_applicable' | 'error';
  score: number | null;
  disagreement: boolean;
  gate: boolean;
}

/** A model whose attempts on this prompt had a gate fail (each such attempt scores 0). */
export interface GateFailure {
  modelId: string;
  /** The gate points that failed, in any attempt. */
  pointIndexes: number[];
  failed: number;
  attempts: number;
}

/** The prompt, its neighbours by position, every model's cell and the points × models grid. */
export async function getRunPrompt(db: Db, run: { id: string; versionId: string }, promptKey: string) {
  const prompt = await getVisiblePrompt(db, run.versionId, promptKey);
  if (!prompt) return null;
  const [cells, grid, attempts, previous, next, tools] = await Promise.all([
    db.runCellSummary.findMany({
      where: { runId: run.id, promptKey },
      select: { modelId: true, score: true, attempts: true, errorCount: true },
    }),
    db.verdict.findMany({
      where: { runId: run.id, promptKey },
      select: { modelId: true, pointIndex: true, status: true, score: true, disagreement: true, gate: true },
      take: 20_000,
    }),
    db.attemptScore.findMany({ where: { runId: run.id, promptKey }, select: { modelId: true, gateFailed: true } }),
    db.versionPrompt.findFirst({
      where: { versionId: run.versionId, position: { lt: prompt.position }, split: { not: SEALED_SPLIT } },
      orderBy: { position: 'desc' },
      select: { promptKey: true },
    }),
    db.versionPrompt.findFirst({
      where: { versionId: run.versionId, position: { gt: prompt.position }, split: { not: SEALED_SPLIT } },
      orderBy: { position: 'asc' },
      select: { promptKey: true },
    }),
    getPromptToolFields(db, run.versionId, promptKey),
  ]);
  const gateFailures: GateFailure[] = [];
  for (const modelId of new Set(attempts.filter((a) => a.gateFailed).map((a) => a.modelId))) {
    const mine = attempts.filter((a) => a.modelId === modelId);
    const pointIndexes = [...new Set(grid.filter((v) => v.modelId === modelId && v.gate && v.status === 'fail').map((v) => v.pointIndex))].sort((a, b) => a - b);
    gateFailures.push({ modelId, pointIndexes, failed: mine.filter((a) => a.gateFailed).length, attempts: mine.length });
  }
  return { prompt, cells, grid: grid as GridVerdict[], gateFailures, previousKey: previous?.promptKey ?? null, nextKey: next?.promptKey ?? null, tools };
}
export type RunPrompt = NonNullable<Awaited<ReturnType<typeof getRunPrompt>>>;

const VERDICT_DETAIL = {
  pointIndex: true,
  status: true,
  score: true,
  kind: true,
  pointText: true,
  fn: true,
  args: true,
  weight: true,
  gate: true,
  path: true,
  source: true,
  distribution: true,
  method: true,
  detail: true,
  reasoning: true,
  judges: true,
  spread: true,
  disagreement: true,
} as const;

type VerdictRow = { pointIndex: number; distribution: unknown; detail: string | null; judges: unknown };

/** A verdict's stored evidence parsed with the schemas its writer used; a row that does not parse throws. */
export function parseVerdictEvidence<V extends VerdictRow>(v: V, where: string) {
  const at = `${where}, verdict of point ${v.pointIndex}`;
  return {
    ...v,
    distribution: parseStoredOrNull(StoredDistributionSchema, v.distribution, `${at}: verdicts.distribution`),
    detail: parseStoredOrNull(StoredDetailSchema, v.detail, `${at}: verdicts.detail`),
    judges: parseStoredOrNull(StoredJudgesSchema, v.judges, `${at}: verdicts.judges`),
  };
}

/** The replies (every attempt) of some models to one visible prompt, each with its verdicts. */
export async function getPromptReplies(db: Db, run: { id: string; versionId: string }, promptKey: string, modelIds: string[]) {
  if (modelIds.length === 0 || !(await getVisiblePrompt(db, run.versionId, promptKey))) return [];
  // a rescore grades its parent's replies again: they are stored under the parent run
  const source = await db.run.findUnique({ where: { id: run.id }, select: { trigger: true, parentRunId: true } });
  const replyRunId = source ? replySourceOf({ id: run.id, ...source }) : run.id;
  const rows = await db.reply.findMany({
    where: { runId: replyRunId, promptKey, modelId: { in: modelIds } },
    orderBy: [{ modelId: 'asc' }, { systemIndex: 'asc' }, { temperatureIndex: 'asc' }, { attempt: 'asc' }],
    select: {
      id: true,
      modelId: true,
      systemIndex: true,
      temperatureIndex: true,
      temperature: true,
      attempt: true,
      content: true,
      turns: true,
      toolCalls: true,
      finishReason: true,
      refusal: true,
      promptTokens: true,
      completionTokens: true,
      latencyMs: true,
      costUsd: true,
      error: true,
      errorKind: true,
      fromCache: true,
      attemptScores: { where: { runId: run.id }, select: { score: true, errorCount: true, gateFailed: true, noApplicable: true }, take: 1 },
      verdicts: { where: { runId: run.id }, orderBy: { pointIndex: 'asc' }, select: VERDICT_DETAIL },
    },
  });
  // The prompt's variants (each on its own conversation, stored beside the reply): shown with their attempt.
  const variants = await db.variantReply.findMany({
    where: { runId: replyRunId, promptKey, modelId: { in: modelIds } },
    orderBy: { name: 'asc' },
    select: { modelId: true, systemIndex: true, temperatureIndex: true, attempt: true, name: true, content: true, error: true },
  });
  const variantsOf = (r: { modelId: string; systemIndex: number; temperatureIndex: number; attempt: number }) =>
    variants.filter((v) => v.modelId === r.modelId && v.systemIndex === r.systemIndex && v.temperatureIndex === r.temperatureIndex && v.attempt === r.attempt).map((v) => ({ name: v.name, content: v.content, error: v.error }));
  // reply text, tool calls, errors, explanations and judge reasoning as the page shows them: a row
  // stored before redaction existed must not show a known secret (redact-stored.ts)
  const redact = storedTextRedactor();
  return rows.map((r) => {
    const where = `reply ${r.id} (${promptKey} × ${r.modelId})`;
    return redactStored(
      {
        ...r,
        turns: parseStored(StoredTurnsSchema, r.turns, `${where}: replies.turns`),
        toolCalls: parseStoredOrNull(StoredToolCallsSchema, r.toolCalls, `${where}: replies.tool_calls`),
        refusal: parseStored(StoredRefusalSchema, r.refusal, `${where}: replies.refusal`),
        verdicts: r.verdicts.map((v) => parseVerdictEvidence(v, where)),
        variants: variantsOf(r),
      },
      redact,
    );
  });
}
export type PromptReply = Awaited<ReturnType<typeof getPromptReplies>>[number];
export type VerdictDetail = PromptReply['verdicts'][number];

/** Every model's verdict on one point of one visible prompt (the point view). */
export async function getPointVerdicts(db: Db, run: { id: string; versionId: string }, promptKey: string, pointIndex: number) {
  if (!(await getVisiblePrompt(db, run.versionId, promptKey))) return [];
  const rows = await db.verdict.findMany({
    where: { runId: run.id, promptKey, pointIndex },
    orderBy: [{ modelId: 'asc' }],
    select: { ...VERDICT_DETAIL, modelId: true, reply: { select: { attempt: true, systemIndex: true, temperatureIndex: true } } },
    take: 2_000,
  });
  const redact = storedTextRedactor();
  return rows.map((v) => redactStored(parseVerdictEvidence(v, `run ${run.id}, ${promptKey} × ${v.modelId}`), redact));
}
export type PointVerdict = Awaited<ReturnType<typeof getPointVerdicts>>[number];
