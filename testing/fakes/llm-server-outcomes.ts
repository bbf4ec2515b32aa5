/**
 * A rule's `outcome`: the fake answers the way each provider publishes a refusal or a reply cut
 * off at the token limit, by rewriting the ordinary answer it rendered (the rule's `reply` is the
 * text):
 * - refusal: OpenAI `message.refusal` holds the text and `content` is null (openai-openapi
 *   ChatCompletionResponseMessage.refusal); Anthropic `stop_reason: "refusal"` with the text
 *   (@anthropic-ai/sdk StopReason, RefusalStopDetails); Gemini stops the candidate with
 *   `finishReason: "SAFETY"`, no content and the safety ratings that blocked it (Gemini API
 *   reference, Candidate.finishReason and SafetyRating).
 * - cut_off: OpenAI `finish_reason: "length"`, Anthropic `stop_reason: "max_tokens"`, Gemini
 *   `finishReason: "MAX_TOKENS"`.
 * Other dialects (custom HTTP systems, soev) have no such signal and answer as usual.
 */
type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export type FakeOutcome = 'refusal' | 'cut_off';

export function withOutcome(dialect: string, body: Json, outcome: FakeOutcome | undefined): Json {
  if (!outcome) return body;
  if (dialect === 'openai' && Array.isArray(body.choices) && isRecord(body.choices[0])) {
    const choice = body.choices[0];
    const message = isRecord(choice.message) ? choice.message : {};
    const next = outcome === 'refusal' ? { ...choice, message: { ...message, content: null, refusal: message.content ?? '' }, finish_reason: 'stop' } : { ...choice, finish_reason: 'length' };
    return { ...body, choices: [next, ...body.choices.slice(1)] };
  }
  if (dialect === 'anthropic') {
    return outcome === 'refusal' ? { ...body, stop_reason: 'refusal', stop_details: { type: 'refusal', category: null, explanation: null } } : { ...body, stop_reason: 'max_tokens' };
  }
  if (dialect === 'gemini' && Array.isArray(body.candidates) && isRecord(body.candidates[0])) {
    const candidate = body.candidates[0];
    const next =
      outcome === 'refusal'
        ? {
            index: 0,
            finishReason: 'SAFETY',
            safetyRatings: [
              { category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' },
              { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true },
            ],
          }
        : { ...candidate, finishReason: 'MAX_TOKENS' };
    return { ...body, candidates: [next] };
  }
  return body;
}

/**
 * A scripted error with the provider's own code: OpenAI puts it in `error.code` and `error.type`
 * (OpenAI "Error codes" guide: a 429 `insufficient_quota`); Anthropic names the error's `type`
 * (`billing_error`) or, for a detail such as `enforced_spend_limit_reached`, `error.details.error_code`
 * (@anthropic-ai/sdk resources/shared.ts ErrorType, ErrorDetails); OpenRouter's code is the status.
 */
export function withErrorCode(dialect: string, body: Json, code: string | undefined): Json {
  if (!code || !isRecord(body.error)) return body;
  if (dialect === 'openai') return { ...body, error: { ...body.error, code, type: code } };
  if (dialect === 'anthropic') {
    const isType = /_error$/.test(code);
    return { ...body, error: { ...body.error, ...(isType ? { type: code } : { details: { error_code: code } }) } };
  }
  return body;
}
