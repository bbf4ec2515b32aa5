/**
 * One stored reply (a prompt × model × system × temperature × attempt) with its verdicts and
 * attempt score as one Inspect `EvalSample`. Pure: the reader (read-run.ts) hands in the rows,
 * already without sealed prompts and with known secrets redacted.
 */
import { parseStored, parseStoredOrNull, StoredDistributionSchema, StoredJudgesSchema, StoredMessagesSchema, StoredToolCallsSchema, StoredTurnsSchema, type StoredToolCall, type StoredTurn } from '@/lib/core';
import { ASSAY_SCORER } from './log-header';
import { InspectSampleSchema, type InspectAssistantMessage, type InspectMessage, type InspectSample, type InspectScore } from './inspect-log';
import { inspectModelName, inspectStopReason, sampleId } from './names';

export interface VerdictForExport {
  pointIndex: number;
  status: string;
  score: number | null;
  kind: string;
  pointText: string;
  fn: string | null;
  args: unknown;
  weight: number;
  gate: boolean;
  path: string | null;
  source: string;
  distribution: unknown;
  method: string | null;
  detail: string | null;
  reasoning: string | null;
  judges: unknown;
  spread: number | null;
  disagreement: boolean;
}

export interface ReplyForExport {
  id: string;
  promptKey: string;
  modelId: string;
  systemIndex: number;
  temperatureIndex: number;
  temperature: number | null;
  attempt: number;
  turns: unknown;
  content: string;
  toolCalls: unknown;
  finishReason: string | null;
  refusal: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  latencyMs: number | null;
  costUsd: number | null;
  error: string | null;
  errorKind: string | null;
  servedModel: string | null;
  createdAt: Date;
  /** This run's score of the attempt (null while ungraded). */
  attemptScore: { score: number | null; errorCount: number; gateFailed: boolean; noApplicable: boolean; passed: boolean | null } | null;
  /** This run's verdicts on the reply, in point order. */
  verdicts: VerdictForExport[];
}

/** The prompt as the version stores it (`version_prompts`). */
export interface PromptForExport {
  promptKey: string;
  position: number;
  messages: unknown;
  ideal: string | null;
  category: string | null;
}

export interface SampleContext {
  runId: string;
  blueprintId: string;
  versionId: string;
  /** True when the run varies system prompts or temperatures (sample ids then name the variant). */
  variants: boolean;
}

export function logSample(ctx: SampleContext, reply: ReplyForExport, prompt: PromptForExport): InspectSample {
  const model = inspectModelName(reply.modelId);
  const where = `reply ${reply.id}`;
  const turns = parseStored(StoredTurnsSchema, reply.turns, `replies.turns of ${where}`);
  const planned = parseStored(StoredMessagesSchema, prompt.messages, `version_prompts.messages of ${prompt.promptKey}`);
  const toolCalls = parseStoredOrNull(StoredToolCallsSchema, reply.toolCalls, `replies.tool_calls of ${where}`);
  const { input, messages } = conversation(turns, planned, model);
  const failed = reply.error !== null;
  const outputMessage = assistantMessage(reply.content, model, reply.refusal !== null, toolCalls);
  // the final reply is the last turn of `messages`; it carries the tool calls as the output does
  if (!failed && messages.at(-1)?.role === 'assistant') messages[messages.length - 1] = outputMessage;
  const usage = reply.promptTokens === null && reply.completionTokens === null ? null : usageOf(reply.promptTokens ?? 0, reply.completionTokens ?? 0, reply.costUsd);
  const errorMessage = failed ? (reply.errorKind ? `${reply.errorKind}: ${reply.error}` : reply.error!) : null;
  return InspectSampleSchema.parse({
    id: sampleId(reply.promptKey, ctx.variants ? reply : null),
    epoch: reply.attempt + 1,
    input,
    target: prompt.ideal ?? '',
    messages,
    output: {
      model,
      choices: failed ? [] : [{ message: outputMessage, stop_reason: inspectStopReason(reply.finishReason) }],
      completion: failed ? '' : reply.content,
      usage,
      time: reply.latencyMs === null ? null : reply.latencyMs / 1000,
      error: errorMessage,
      metadata: reply.servedModel ? { served_model: reply.servedModel } : null,
    },
    scores: scores(reply),
    metadata: {
      run_id: ctx.runId,
      blueprint_id: ctx.blueprintId,
      version_id: ctx.versionId,
      prompt_key: reply.promptKey,
      prompt_position: prompt.position,
      category: prompt.category,
      model_id: reply.modelId,
      reply_id: reply.id,
      system_index: reply.systemIndex,
      temperature_index: reply.temperatureIndex,
      temperature: reply.temperature,
      attempt: reply.attempt,
      finish_reason: reply.finishReason,
      refusal: reply.refusal,
      cost_usd: reply.costUsd,
    },
    store: {},
    events: [],
    model_usage: usage ? { [model]: usage } : {},
    role_usage: {},
    attachments: {},
    completed_at: reply.createdAt.toISOString(),
    total_time: reply.latencyMs === null ? null : reply.latencyMs / 1000,
    uuid: reply.id,
    error: errorMessage === null ? null : { message: errorMessage, traceback: '', traceback_ansi: '' },
  });
}

function usageOf(input: number, output: number, cost: number | null) {
  return { input_tokens: input, output_tokens: output, total_tokens: input + output, total_cost: cost };
}

/**
 * Inspect's `input` is what the sample asked before the model said anything; `messages` the
 * whole conversation after. The stored turns (`replies.turns`) are the conversation as sent,
 * system prompt first, generated turns filled in and the final reply last; the prompt's own
 * messages say which turns the model generates (`assistant: null`). So `input` is the stored
 * turns up to the first generated one, and `messages` every stored turn up to the first that
 * has no text (a failed reply keeps its planned, unfilled turns).
 */
function conversation(turns: StoredTurn[], planned: StoredTurn[], model: string): { input: InspectMessage[]; messages: InspectMessage[] } {
  const asked = planned.filter((m) => m.role !== 'system');
  const firstGenerated = asked.findIndex((m) => m.role === 'assistant' && m.content === null);
  const systems = turns.findIndex((m) => m.role !== 'system');
  const leading = systems < 0 ? turns.length : systems;
  const generated = (i: number) => i >= leading && (i - leading >= asked.length || (asked[i - leading]!.role === 'assistant' && asked[i - leading]!.content === null));
  const messages: InspectMessage[] = [];
  for (const [i, turn] of turns.entries()) {
    if (turn.content === null) break;
    messages.push(turn.role === 'assistant' ? { role: 'assistant', content: turn.content, model: generated(i) ? model : null, source: generated(i) ? 'generate' : 'input' } : { role: turn.role, content: turn.content });
  }
  const inputLength = leading + (firstGenerated < 0 ? asked.length : firstGenerated);
  return { input: messages.slice(0, inputLength), messages };
}

function assistantMessage(content: string, model: string, refusal: boolean, toolCalls: StoredToolCall[] | null): InspectAssistantMessage {
  return {
    role: 'assistant',
    // Inspect marks a refusal on the text itself (ContentText.refusal)
    content: refusal ? [{ type: 'text', text: content, refusal: true }] : content,
    model,
    source: 'generate',
    tool_calls: toolCalls?.map((c, i) => toolCall(c, i)) ?? null,
  };
}

/** Inspect's ToolCall needs an id and object arguments; arguments that did not parse as an object are kept verbatim as its `parse_error`. */
function toolCall(c: StoredToolCall, i: number) {
  const object = c.arguments !== null && typeof c.arguments === 'object' && !Array.isArray(c.arguments);
  return {
    id: c.id ?? `call_${i}`,
    function: c.name,
    arguments: object ? (c.arguments as Record<string, unknown>) : {},
    type: 'function' as const,
    ...(object ? {} : { parse_error: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) }),
  };
}

/**
 * The attempt score under `assay`, and each verdict under `point_<index>` (the point's index in
 * the prompt, from 0). A verdict without a number (`error`, `not_applicable`) keeps its status
 * as its value: unscored is not zero, and Inspect's readers count a string score apart from the
 * numbers. An attempt without a score (its reply failed) has no `assay` score at all.
 */
function scores(reply: ReplyForExport): Record<string, InspectScore> | null {
  const out: Record<string, InspectScore> = {};
  const a = reply.attemptScore;
  if (a && a.score !== null) {
    out[ASSAY_SCORER] = {
      value: a.score,
      answer: null,
      explanation: a.gateFailed ? 'A gate point failed, so the attempt scores 0.' : a.noApplicable ? 'No point applied, so the attempt scores 1 by rule.' : null,
      metadata: { error_verdicts: a.errorCount, gate_failed: a.gateFailed, no_applicable: a.noApplicable, passed: a.passed },
      history: [],
    };
  }
  for (const v of reply.verdicts) {
    const where = `verdict ${v.pointIndex} of reply ${reply.id}`;
    out[`point_${v.pointIndex}`] = {
      value: v.score ?? v.status,
      answer: null,
      explanation: v.detail ?? v.reasoning,
      metadata: {
        status: v.status,
        kind: v.kind,
        point: v.pointText,
        weight: v.weight,
        gate: v.gate,
        source: v.source,
        path: v.path,
        fn: v.fn,
        args: v.args,
        method: v.method,
        distribution: parseStoredOrNull(StoredDistributionSchema, v.distribution, `verdicts.distribution of ${where}`),
        judges: parseStoredOrNull(StoredJudgesSchema, v.judges, `verdicts.judges of ${where}`),
        spread: v.spread,
        disagreement: v.disagreement,
        reasoning: v.detail !== null ? v.reasoning : null,
      },
      history: [],
    };
  }
  return Object.keys(out).length > 0 ? out : null;
}
