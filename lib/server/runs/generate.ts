/**
 * Step: generate one cell's reply (prompt × model × system × temperature × attempt),
 * including the generated turns of a multi-turn prompt, and store it. Idempotent: a cell
 * whose reply is stored is never called again; the reply and the run's counters are
 * written in one statement, so a crash leaves either both or neither.
 */
import { randomUUID } from 'node:crypto';
import { parseStored, parseStoredOrNull, pickFixture, StoredToolCallsSchema, StoredTurnsSchema, type GenerationCell, type Message } from '@/lib/core';
import { isProviderError, type ChatMessage, type ToolCall } from '../providers';
import type { RunDeps } from './deps';
import { BudgetExceededError } from './errors';
import type { RunContext } from './run-context';

export interface StoredReply {
  id: string;
  promptKey: string;
  modelId: string;
  content: string;
  toolCalls: ToolCall[] | null;
  turns: Message[];
  error: string | null;
}

interface Generated {
  turns: Message[];
  content: string;
  toolCalls: ToolCall[] | null;
  finishReason: string | null;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
  costUsd: number;
  fromCache: boolean;
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
    select: { id: true, promptKey: true, modelId: true, content: true, toolCalls: true, turns: true, error: true },
  });
  return row ? toStored(row) : null;
}

export function toStored(row: { id: string; promptKey: string; modelId: string; content: string; toolCalls: unknown; turns: unknown; error: string | null }): StoredReply {
  return {
    id: row.id,
    promptKey: row.promptKey,
    modelId: row.modelId,
    content: row.content,
    toolCalls: parseStoredOrNull(StoredToolCallsSchema, row.toolCalls, `replies.tool_calls of reply ${row.id}`),
    turns: parseStored(StoredTurnsSchema, row.turns, `replies.turns of reply ${row.id}`),
    error: row.error,
  };
}

async function converse(deps: RunDeps, ctx: RunContext, cell: GenerationCell): Promise<Generated> {
  const out: Generated = { turns: [], content: '', toolCalls: null, finishReason: null, promptTokens: 0, completionTokens: 0, latencyMs: 0, costUsd: 0, fromCache: true };
  const fixture = deps.fixtures ? pickFixture(deps.fixtures, cell.promptKey, cell.modelId, cell.attempt) : null;
  const generatedTurns = cell.messages.filter((m) => m.role === 'assistant' && m.content === null).length;
  const last = cell.messages.at(-1);
  const needsFinal = !(last?.role === 'assistant' && last.content === null);
  const totalGenerations = generatedTurns + (needsFinal ? 1 : 0);
  let generation = 0;

  const generate = async (history: Message[]): Promise<{ content: string; toolCalls: ToolCall[] | null }> => {
    if (fixture) {
      // `turns` fills the generated turns in order; its last entry is always the final reply.
      const i = generation++;
      const index = i === totalGenerations - 1 ? fixture.turns.length - 1 : Math.min(i, fixture.turns.length - 1);
      return { content: fixture.turns[index] ?? '', toolCalls: null };
    }
    const tools = ctx.blueprint.tools;
    const { response, fromCache, costUsd } = await deps.gateway.call(ctx, {
      modelId: cell.modelId,
      messages: history.map((m): ChatMessage => ({ role: m.role, content: m.content })),
      temperature: cell.temperature,
      tools,
      attempt: cell.attempt,
    });
    out.fromCache &&= fromCache;
    out.finishReason = response.finishReason;
    out.promptTokens += response.usage?.promptTokens ?? 0;
    out.completionTokens += response.usage?.completionTokens ?? 0;
    out.latencyMs += fromCache ? 0 : response.latencyMs;
    out.costUsd += costUsd ?? 0;
    return { content: response.content, toolCalls: response.toolCalls.length ? response.toolCalls : null };
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
    if (!isProviderError(e) && !(e instanceof Error && e.name === 'ModelResolutionError')) throw e;
    error = e.message;
    errorKind = isProviderError(e) ? e.kind : 'configuration';
  }

  const id = randomUUID();
  // built through the schemas the pages parse them with (lib/core/evidence)
  const turns = JSON.stringify(StoredTurnsSchema.parse(g?.turns ?? cell.messages));
  const toolCalls = g?.toolCalls ? JSON.stringify(StoredToolCallsSchema.parse(g.toolCalls.map(toolCallRow))) : null;
  // Insert and count in one statement: a retried step finds the row and counts nothing.
  const rows = await deps.db.$queryRaw<{ id: string }[]>`
    WITH ins AS (
      INSERT INTO replies (id, run_id, prompt_key, model_id, system_index, temperature_index, temperature, attempt, turns, content,
                           tool_calls, finish_reason, prompt_tokens, completion_tokens, latency_ms, cost_usd, error, error_kind, from_cache, created_at)
      VALUES (${id}, ${ctx.runId}, ${cell.promptKey}, ${cell.modelId}, ${cell.systemIndex}, ${cell.temperatureIndex}, ${cell.temperature},
              ${cell.attempt}, ${turns}::jsonb, ${g?.content ?? ''}, ${toolCalls}::jsonb, ${g?.finishReason ?? null}, ${g?.promptTokens ?? null},
              ${g?.completionTokens ?? null}, ${g ? Math.round(g.latencyMs) : null}, ${g?.costUsd ?? null}, ${error}, ${errorKind}, ${g?.fromCache ?? false}, now())
      ON CONFLICT (run_id, prompt_key, model_id, system_index, temperature_index, attempt) DO NOTHING
      RETURNING id, error
    ), counted AS (
      UPDATE runs SET done_calls = done_calls + (SELECT count(*) FROM ins)::int,
                      error_calls = error_calls + (SELECT count(*) FROM ins WHERE error IS NOT NULL)::int
      WHERE id = ${ctx.runId}
    )
    SELECT id FROM ins`;
  if (rows.length === 0) {
    const raced = await findReply(deps, ctx, cell);
    if (!raced) throw new Error(`reply for ${cell.key} vanished after a conflicting insert`);
    return raced;
  }
  return {
    id,
    promptKey: cell.promptKey,
    modelId: cell.modelId,
    content: g?.content ?? '',
    toolCalls: g?.toolCalls ?? null,
    turns: g?.turns ?? cell.messages,
    error,
  };
}
