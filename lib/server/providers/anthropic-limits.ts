/**
 * The `max_tokens` Assay sends to Anthropic when a call names none (the Messages API requires one).
 * It used to be 4,096 for every model, so a long Claude answer was cut there and graded as if
 * complete. Now it is the model's own output limit, as Anthropic publishes it ("Models overview",
 * docs.anthropic.com/en/docs/about-claude/models/overview, the "Max output" row: Claude Opus 4 and
 * 4.1 32,000; Sonnet 3.7, Sonnet 4, Sonnet 4.5, Haiku 4.5 and Opus 4.5 64,000; Sonnet 3.5 and
 * Haiku 3.5 8,192; Opus 3 and Haiku 3 4,096), capped at NON_STREAMING_MAX_TOKENS.
 * Output is billed by the tokens produced, not by this limit. A reply that still reaches the
 * limit is stored with `stop_reason: max_tokens` and shown as cut off (lib/core/evidence/reply-outcome.ts).
 */

/**
 * The largest `max_tokens` Anthropic's SDK lets a non-streaming request ask for: it expects
 * 128,000 output tokens per hour and refuses (without an explicit timeout) a request that could
 * run past 10 minutes, i.e. above 21,333 tokens (@anthropic-ai/sdk client.ts
 * `calculateNonstreamingTimeout`; the README's "Long requests"). Assay does not stream, so it
 * keeps under that bound rather than hold a connection open that long.
 */
export const NON_STREAMING_MAX_TOKENS = 21_333;

/** What every Claude model accepts: the limit for an id this table does not know (a proxy's alias). */
export const ANTHROPIC_FALLBACK_MAX_TOKENS = 4_096;

/** By model id prefix, most specific first; each value from the models overview cited above. */
const MAX_OUTPUT: readonly (readonly [RegExp, number])[] = [
  [/^claude-3-(opus|sonnet|haiku)-/, 4_096], // Claude 3 (Opus, Sonnet, Haiku)
  [/^claude-3-5-/, 8_192], // Claude Sonnet 3.5, Haiku 3.5
  [/^claude-(opus|sonnet|haiku)-4|^claude-3-7-|^claude-(opus|sonnet|haiku)-[5-9]/, 32_000], // Claude 3.7 and 4 onwards: 32,000 or more
];

/** The default `max_tokens` for `model`: its published output limit, at most NON_STREAMING_MAX_TOKENS. */
export function anthropicMaxTokens(model: string): number {
  const limit = MAX_OUTPUT.find(([re]) => re.test(model))?.[1] ?? ANTHROPIC_FALLBACK_MAX_TOKENS;
  return Math.min(limit, NON_STREAMING_MAX_TOKENS);
}
