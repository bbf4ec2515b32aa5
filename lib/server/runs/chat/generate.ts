/**
 * Step: generate one cell's reply (prompt × model × system × temperature × attempt),
 * including the generated turns of a multi-turn prompt, and store it. Idempotent: a cell
 * whose reply is stored is never called again; the reply and the run's counters are
 * written in one statement, so a crash leaves either both or neither.
 */
import { randomUUID } from 'node:crypto';
import {
  parseStored,
  parseStoredOrNull,
  pickFixture,
  ProviderMetaSchema,
  servedOrNothing,
  StoredRefusalSchema,
  StoredToolCallsSchema,
  StoredTurnsSchema,
  toolModeOf,
  type GenerationCell,
  type Message,
  type Served,
  type StoredRefusal,
} from '@/lib/core';
import { isProviderError, ModelResolutionError, withTraceLines, type ChatMessage, type ToolCall } from '../../providers';
import { isDataRefusal, storable, storableText } from '../../db/storable-text';
import type { RunDeps } from '../engine/deps';
import { BudgetExceededError } from '../engine/errors';
import { writeReply } from '../../db/commands/reply-writer';
import { generateVariants } from './variant-replies';
import type { RunContext } from '../engine/run-context';

export interface StoredReply {
  id: string;
  promptKey: string;
  modelId: string;
  content: string;
  toolCalls: ToolCall[] | null;
  turns: Message[];
  error: string | null;
  /** The HTTP system's JSON body of the final turn (replies.structured), or null. */
  structured: unknown;
  /** The provider's refusal signal when it marked the final reply as a refusal (replies.refusal), else null. */
  refusal: StoredRefusal;
}

/**
 * A reply longer than this is not stored (a 50 MB answer would be copied into every page and
 * judge request): the cell gets an error reply saying so, and the run goes on.
 */
export const MAX_REPLY_CHARS = 1_000_000;

export interface Generated {
  turns: Message[];
  content: string;
  toolCalls: ToolCall[] | null;
  finishReason: string | null;
  /** The provider's refusal signal for the final reply (its text is `content`), or null. */
  refusal: StoredRefusal;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
  /** Null once any turn's cost is unknown (a model priced nowhere): a sum that counted it as $0 would be wrong. */
  costUsd: number | null;
  fromCache: boolean;
  /**
   * What the provider said served the final reply (a cached response keeps the record of the
   * call that made it); null for fixtures, which no provider answered.
   */
  served: Served | null;
  /** The HTTP system's JSON body of the final turn, or null. */
  structured: unknown;
}

export async function findReply(deps: RunDeps, ctx: RunContext, cell: GenerationCell): Promise<StoredReply | null> {
  const row = await deps.db.reply.findUnique({
    where: {
      runId_promptKey_modelId_systemIndex_temperatureIndex_attempt: {
        runId: ctx.replySourceRunId,
        promptKey: cell.promptKey,
        modelId: cell.modelId,
        systemIndex: cell.systemIndex,
        temperatureIndex: cell.temperatureIndex,
        attempt: cell.attempt,
      },
    },
    select: { id: true, promptKey: true, modelId: true, content: true, toolCalls: true, turns: true, error: true, structured: true, refusal: true },
  });
  return row ? toStored(row) : null;
}

export function toStored(row: { id: string; promptKey: string; modelId: string; content: string; toolCalls: unknown; turns: unknown; error: string | null; structured?: unknown; refusal?: string | null }): StoredReply {
  return {
    id: row.id,
    promptKey: row.promptKey,
    modelId: row.modelId,
    content: row.content,
    toolCalls: parseStoredOrNull(StoredToolCallsSchema, row.toolCalls, `replies.tool_calls of reply ${row.id}`),
    turns: parseStored(StoredTurnsSchema, row.turns, `replies.turns of reply ${row.id}`),
    error: row.error,
    structured: row.structured ?? null,
    refusal: parseStored(StoredRefusalSchema, row.refusal ?? null, `replies.refusal of reply ${row.id}`),
  };
}

export async function converse(deps: RunDeps, ctx: RunContext, cell: Pick<GenerationCell, 'promptKey' | 'modelId' | 'temperature' | 'attempt' | 'messages'>): Promise<Generated> {
  const out: Generated = { turns: [], content: '', toolCalls: null, finishReason: null, refusal: null, promptTokens: 0, completionTokens: 0, latencyMs: 0, costUsd: 0, fromCache: true, served: null, structured: null };
  const fixture = deps.fixtures ? pickFixture(deps.fixtures, cell.promptKey, cell.modelId, cell.attempt) : null;
  const generatedTurns = cell.messages.filter((m) => m.role === 'assistant' && m.content === null).length;
  const last = cell.messages.at(-1);
  const needsFinal = !(last?.role === 'assistant' && last.content === null);
  const totalGenerations = generatedTurns + (needsFinal ? 1 : 0);
  let generation = 0;

  const generate = async (history: Message[]): Promise<{ content: string; toolCalls: ToolCall[] | null }> => {
    out.structured = null;
    if (fixture) {
      // `turns` fills the generated turns in order; its last entry is always the final reply.
      const i = generation++;
      const index = i === totalGenerations - 1 ? fixture.turns.length - 1 : Math.min(i, fixture.turns.length - 1);
      return { content: fixture.turns[index] ?? '', toolCalls: null };
    }
    // Weval's default, trace-only, sends no tools (the prompt tells the model to write TOOL_CALL
    // lines); only Assay's `toolUse.mode: native` sends them, each adapter in its provider's shape.
    const tools = toolModeOf(ctx.blueprint.toolUse) === 'native' ? (ctx.blueprint.tools ?? undefined) : undefined;
    const { response, fromCache, costUsd } = await deps.gateway.call(ctx, {
      modelId: cell.modelId,
      messages: history.map((m): ChatMessage => ({ role: m.role, content: m.content })),
      temperature: cell.temperature,
      tools,
      attempt: cell.attempt,
      noCache: ctx.prompts.get(cell.promptKey)?.noCache === true,
    });
    out.fromCache &&= fromCache;
    out.finishReason = response.finishReason;
    // The final reply's: an earlier turn's refusal is in the stored turns, not the graded reply.
    out.refusal = response.refusal ?? null;
    out.promptTokens += response.usage?.promptTokens ?? 0;
    out.completionTokens += response.usage?.completionTokens ?? 0;
    out.latencyMs += fromCache ? 0 : response.latencyMs;
    out.costUsd = out.costUsd === null || costUsd === null ? null : out.costUsd + costUsd;
    // Read through the schema: a cache entry written before served records existed has none.
    out.served = servedOrNothing(response.served);
    out.structured = response.structured ?? null;
    const calls = response.toolCalls.length ? response.toolCalls : null;
    // Native calls are stored as calls (the tool points read them) and, as Weval's clients do,
    // also written as TOOL_CALL lines before the text, for the judges and the later turns.
    return { content: tools?.length && calls ? withTraceLines(response.content, calls) : response.content, toolCalls: calls };
  };

  const history: Message[] = [];
  for (const m of cell.messages) {
    if (m.role === 'assistant' && m.content === null) {
      const g = await generate(history);
      history.push({ role: 'assistant', content: g.content });
      out.content = g.content;
      out.toolCalls = g.toolCalls;
    } else history.push(m);
  }
  if (needsFinal) {
    const g = await generate(history);
    history.push({ role: 'assistant', content: g.content });
    out.content = g.content;
    out.toolCalls = g.toolCalls;
  }
  if (fixture) out.fromCache = false;
  out.turns = history;
  return out;
}

/** A provider's tool call as stored: only the fields the schema names (providers may add more). */
function toolCallRow(c: ToolCall): ToolCall {
  return { ...(c.id !== undefined ? { id: c.id } : {}), name: c.name, arguments: c.arguments };
}

/** `fresh`: the caller just saw that the cell has no reply (skips one lookup; the insert still guards). */
export async function generateCell(deps: RunDeps, ctx: RunContext, cell: GenerationCell, opts: { fresh?: boolean } = {}): Promise<StoredReply> {
  const existing = opts.fresh ? null : await findReply(deps, ctx, cell);
  if (existing) return existing;

  let g: Generated | null = null;
  let error: string | null = null;
  let errorKind: string | null = null;
  try {
    g = await converse(deps, ctx, cell);
  } catch (e) {
    if (e instanceof BudgetExceededError) throw e;
    if (!isProviderError(e) && !(e instanceof ModelResolutionError)) throw e;
    error = e.message;
    errorKind = isProviderError(e) ? e.kind : 'configuration';
  }

  // A JSON body too large to keep is dropped (its citations are then not read), not the reply.
  if (g && g.structured !== null && JSON.stringify(g.structured).length > MAX_REPLY_CHARS) g.structured = null;
  // The variants before the reply: a stored reply means its variants are stored too (resume).
  if (g && cell.variants.length > 0) await generateVariants(deps, ctx, cell, converse);
  if (g && g.content.length + JSON.stringify(g.toolCalls ?? []).length > MAX_REPLY_CHARS) {
    error = `the reply is too long to store (${g.content.length.toLocaleString('en')} characters; the limit is ${MAX_REPLY_CHARS.toLocaleString('en')})`;
    errorKind = 'unstorable';
    g = null;
  }
  const reply: Reply = {
    id: randomUUID(),
    // built through the schemas the pages parse them with (lib/core/evidence)
    turns: StoredTurnsSchema.parse(storable(g?.turns ?? cell.messages)),
    content: storableText(g?.content ?? ''),
    toolCalls: g?.toolCalls ? StoredToolCallsSchema.parse(storable(g.toolCalls.map(toolCallRow))) : null,
    error: error === null ? null : storableText(error),
    errorKind,
    structured: g?.structured == null ? null : storable(g.structured),
    refusal: g ? StoredRefusalSchema.parse(g.refusal === null ? null : storableText(g.refusal).slice(0, 200)) : null,
  };
  let rows: { id: string }[];
  try {
    rows = await insertReply(deps, ctx, cell, g, reply);
  } catch (e) {
    if (!isDataRefusal(e)) throw e;
    // PostgreSQL refused the reply itself (not the connection): an error reply in its place, so
    // the cell is unscored with a reason and the run goes on (docs/runs.md, "Text PostgreSQL
    // refuses").
    const why = storableText(errorText(e)).slice(0, 500);
    Object.assign(reply, { content: '', toolCalls: null, structured: null, refusal: null, turns: storable(cell.messages), error: `the reply could not be stored: ${why}`, errorKind: 'unstorable' });
    g = null;
    rows = await insertReply(deps, ctx, cell, null, reply);
  }
  if (rows.length === 0) {
    const raced = await findReply(deps, ctx, cell);
    if (!raced) throw new Error(`reply for ${cell.key} vanished after a conflicting insert`);
    return raced;
  }
  return { id: reply.id, promptKey: cell.promptKey, modelId: cell.modelId, content: reply.content, toolCalls: reply.toolCalls, turns: reply.turns, error: reply.error, structured: reply.structured, refusal: reply.refusal };
}

/** What is written, already made storable: the returned reply is exactly the stored one. */
interface Reply {
  id: string;
  turns: Message[];
  content: string;
  toolCalls: ToolCall[] | null;
  error: string | null;
  errorKind: string | null;
  structured: unknown;
  refusal: StoredRefusal;
}

function errorText(e: unknown): string {
  const meta = (e as { meta?: { message?: unknown } }).meta?.message;
  return typeof meta === 'string' ? meta : e instanceof Error ? e.message : String(e);
}

/** Insert and count in one statement (group-committed, reply-writer.ts): a retried step finds the row and counts nothing. */
async function insertReply(deps: RunDeps, ctx: RunContext, cell: GenerationCell, g: Generated | null, r: Reply): Promise<{ id: string }[]> {
  const served = g?.served ?? null;
  const inserted = await writeReply(deps.db, {
    id: r.id,
    runId: ctx.runId,
    promptKey: cell.promptKey,
    modelId: cell.modelId,
    systemIndex: cell.systemIndex,
    temperatureIndex: cell.temperatureIndex,
    temperature: cell.temperature,
    attempt: cell.attempt,
    turns: JSON.stringify(r.turns),
    content: r.content,
    toolCalls: r.toolCalls ? JSON.stringify(r.toolCalls) : null,
    structured: r.structured === null ? null : JSON.stringify(r.structured),
    finishReason: g?.finishReason == null ? null : storableText(g.finishReason),
    refusal: r.refusal,
    promptTokens: g?.promptTokens ?? null,
    completionTokens: g?.completionTokens ?? null,
    latencyMs: g ? Math.round(g.latencyMs) : null,
    costUsd: g?.costUsd ?? null,
    error: r.error,
    errorKind: r.errorKind,
    fromCache: g?.fromCache ?? false,
    servedModel: served?.model == null ? null : storableText(served.model),
    systemFingerprint: served?.fingerprint == null ? null : storableText(served.fingerprint),
    providerMeta: served ? JSON.stringify(storable(ProviderMetaSchema.parse(served.meta))) : null,
  });
  return inserted ? [{ id: r.id }] : [];
}
