/**
 * A prompt's `variants:` (docs/criteria-judged.md, "Variants"): each runs on its own conversation
 * with its cell's model, system prompt, temperature and attempt, and is stored in `variant_replies`
 * under the cell's natural key and its name — never in `replies`, so summaries, heatmaps and
 * attempt counts see exactly the attempts they saw before. Grading reads them back as
 * `CriterionEvidence.variants`.
 */
import { randomUUID } from 'node:crypto';
import { parseStored, StoredTurnsSchema, type ConversationEvidence, type GenerationCell } from '@/lib/core';
import { Prisma } from '@/generated/prisma/client';
import { isProviderError, ModelResolutionError } from '../../providers';
import { storable, storableText } from '../../db/storable-text';
import type { RunDeps } from '../engine/deps';
import { BudgetExceededError } from '../engine/errors';
import type { converse as Converse, Generated } from './generate';
import type { RunContext } from '../engine/run-context';

/**
 * The JSON body an HTTP system answered the variant's last turn with, for `compare.structured`.
 * Read by presence: a conversation carries `structured` where the provider port returns it.
 */
function structuredOf(g: Generated | null): Prisma.InputJsonValue | typeof Prisma.DbNull {
  const body = g && 'structured' in g ? g.structured : null;
  if (body === null || body === undefined) return Prisma.DbNull;
  const json = storable(body) as Prisma.InputJsonValue;
  return JSON.stringify(json).length > MAX_VARIANT_CHARS ? Prisma.DbNull : json;
}

/** Longer variant replies are not stored (as MAX_REPLY_CHARS for replies): an error row says so. */
const MAX_VARIANT_CHARS = 1_000_000;

/**
 * Generates every variant of the cell that is not stored yet and stores them (a retried cell
 * keeps the first rows: the insert skips the unique key). A provider error is that variant's
 * error row, so `compare.*` says which variant failed; the run's budget still stops the run.
 */
export async function generateVariants(deps: RunDeps, ctx: RunContext, cell: GenerationCell, converse: typeof Converse): Promise<void> {
  const key = { runId: ctx.runId, promptKey: cell.promptKey, modelId: cell.modelId, systemIndex: cell.systemIndex, temperatureIndex: cell.temperatureIndex, attempt: cell.attempt };
  const stored = new Set((await deps.db.variantReply.findMany({ where: key, select: { name: true } })).map((r) => r.name));
  const todo = cell.variants.filter((v) => !stored.has(v.name));
  if (todo.length === 0) return;
  const rows = await Promise.all(
    todo.map(async (v) => {
      let g: Generated | null = null;
      let error: string | null = null;
      let errorKind: string | null = null;
      try {
        g = await converse(deps, ctx, { ...cell, messages: v.messages });
      } catch (e) {
        if (e instanceof BudgetExceededError) throw e;
        if (!isProviderError(e) && !(e instanceof ModelResolutionError)) throw e;
        error = e.message;
        errorKind = isProviderError(e) ? e.kind : 'configuration';
      }
      if (g && g.content.length > MAX_VARIANT_CHARS) {
        error = `the variant's reply is too long to store (${g.content.length.toLocaleString('en')} characters)`;
        errorKind = 'unstorable';
        g = null;
      }
      return {
        id: randomUUID(),
        ...key,
        name: v.name,
        turns: StoredTurnsSchema.parse(storable(g?.turns ?? v.messages)),
        content: storableText(g?.content ?? ''),
        structured: structuredOf(g),
        error: error === null ? null : storableText(error),
        errorKind,
        promptTokens: g?.promptTokens ?? null,
        completionTokens: g?.completionTokens ?? null,
        latencyMs: g ? Math.round(g.latencyMs) : null,
        costUsd: g?.costUsd ?? null,
        fromCache: g?.fromCache ?? false,
      };
    }),
  );
  await deps.db.variantReply.createMany({ data: rows, skipDuplicates: true });
}

/** The stored variants of a reply (under the run that generated it, so a rescore reads them too), by name. */
export async function variantEvidence(db: RunDeps['db'], replyId: string): Promise<Record<string, ConversationEvidence>> {
  const reply = await db.reply.findUnique({ where: { id: replyId }, select: { runId: true, promptKey: true, modelId: true, systemIndex: true, temperatureIndex: true, attempt: true } });
  if (!reply) return {};
  const rows = await db.variantReply.findMany({ where: reply, orderBy: { name: 'asc' }, select: { id: true, name: true, turns: true, content: true, structured: true, error: true } });
  const out: Record<string, ConversationEvidence> = {};
  for (const r of rows) {
    out[r.name] = {
      messages: parseStored(StoredTurnsSchema, r.turns, `variant_replies.turns of ${r.id}`),
      reply: r.content,
      citations: [],
      ...(r.structured === null ? {} : { structured: r.structured }),
      ...(r.error ? { error: r.error } : {}),
    };
  }
  return out;
}
