/**
 * What a stored reply is besides its text: a refusal the provider itself marked, a reply cut off
 * at the token limit, or a complete one. The run writes `replies.refusal` through
 * `StoredRefusalSchema` and the pages and criteria read it back through the same schema.
 */
import { z } from 'zod';

/**
 * `replies.refusal`: the provider's signal that marked the reply as a refusal (e.g.
 * `message.refusal`, `stop_reason: refusal`, `finishReason: SAFETY`), or null for any other reply.
 */
export const StoredRefusalSchema = z.string().min(1).max(200).nullable();
export type StoredRefusal = z.infer<typeof StoredRefusalSchema>;

/**
 * The finish reasons that mean "stopped at the output limit, not at its own end": OpenAI's
 * `length` (openai-openapi, CreateChatCompletionResponse choices[].finish_reason), Anthropic's
 * `max_tokens` and `model_context_window_exceeded` (@anthropic-ai/sdk StopReason), Gemini's
 * `MAX_TOKENS` (@google/genai FinishReason).
 */
const CUT_OFF_FINISHES: ReadonlySet<string> = new Set(['length', 'max_tokens', 'model_context_window_exceeded', 'MAX_TOKENS']);

export function isCutOff(finishReason: string | null | undefined): boolean {
  return typeof finishReason === 'string' && CUT_OFF_FINISHES.has(finishReason);
}

export type ReplyOutcome = 'refused' | 'cut_off' | 'complete';

/** A refusal wins over a cut-off: the provider said why it stopped. */
export function replyOutcome(reply: { refusal: string | null | undefined; finishReason: string | null | undefined }): ReplyOutcome {
  if (reply.refusal) return 'refused';
  return isCutOff(reply.finishReason) ? 'cut_off' : 'complete';
}

/** The words the pages show for an outcome other than a complete reply. */
export const REPLY_OUTCOME_LABELS: Record<Exclude<ReplyOutcome, 'complete'>, string> = {
  refused: 'Refused',
  cut_off: 'Cut off at the token limit',
};
