/**
 * What a model accepts, where it differs from what Assay asks by default: reasoning models
 * refuse log-probabilities, any temperature but their default, and OpenAI's older spelling of
 * the output cap (`max_tokens`). Two sources, used together:
 *  - a small table of families whose limits the providers publish (below, each with its source),
 *    so their first call is already sent as they accept it;
 *  - what a provider's 400 says it refused (`param`, `code`, message), read by `refusalOf`, for
 *    every model the table does not know (a new snapshot, another host's copy of a family).
 * A refused parameter is not a failed call: the request is sent again without it (the refusal
 * was not billed: the provider rejected the request before generating anything).
 */
import { ProviderError } from './types';
import { fragment, pattern } from '@/lib/core';

/** What one model refuses; absent keys: accepted. */
export interface Limits {
  /** `logprobs` / `top_logprobs` (one capability: top_logprobs needs logprobs). */
  logprobs?: 'refused';
  /** The only temperature it accepts (its default), or `null`: no temperature may be sent at all. */
  temperature?: { only: number | null };
  /** OpenAI's `max_tokens` refused: the cap is spelled `max_completion_tokens`. */
  maxTokens?: 'max_completion_tokens';
}

/** One refusal read from an error: the parameter and, for a temperature, the value it accepts instead. */
export type Refusal = { param: 'logprobs' } | { param: 'temperature'; only: number | null } | { param: 'max_tokens' };

interface Family {
  provider: string;
  /** The provider-native model id (dated snapshots included). */
  model: RegExp;
  limits: Limits;
  /** Where the provider (or its users' reports of its exact errors) says so. */
  source: string;
}

const SNAPSHOT = fragment`(-\\d{4}-\\d{2}-\\d{2})?`;

/**
 * Families whose limits are published. Deliberately short: a model left out is learned from its
 * first refusal in a run (one extra, unbilled request), while a model wrongly listed here would
 * lose its log-probabilities for good.
 */
export const KNOWN_FAMILIES: readonly Family[] = [
  {
    provider: 'openai',
    model: pattern()`^(o1|o1-mini|o1-pro|o3|o3-mini|o3-pro|o4-mini)${SNAPSHOT}$`,
    limits: { logprobs: 'refused', temperature: { only: 1 }, maxTokens: 'max_completion_tokens' },
    source:
      'OpenAI API reference, Chat Completions > Create: `max_tokens` "is not compatible with o-series models" (use `max_completion_tokens`); ' +
      'OpenAI reasoning guide: sampling parameters (temperature, logprobs) are not supported by reasoning models; errors as OpenAI sends them: ' +
      'OpenHands/OpenHands#4131 (o1-mini, temperature unsupported_value), confident-ai/deepeval#2184 (o4-mini refuses logprobs)',
  },
  {
    provider: 'openai',
    model: pattern()`^gpt-5(-mini|-nano)?${SNAPSHOT}$`,
    limits: { logprobs: 'refused', temperature: { only: 1 }, maxTokens: 'max_completion_tokens' },
    source:
      'OpenAI GPT-5 model pages (reasoning models) and API reference as above; errors as OpenAI sends them: ' +
      'sashabaranov/go-openai#1061 ("Unsupported parameter: \'logprobs\' is not supported with this model."), QwenLM/qwen-code#921 (gpt-5-mini temperature)',
  },
  {
    provider: 'google',
    model: /^(models\/)?gemini-(2\.5|3)/,
    limits: { logprobs: 'refused' },
    source:
      'the Gemini API answers `responseLogprobs` on the 2.5 and 3 families with 400 INVALID_ARGUMENT "Logprobs is not enabled for models/gemini-2.5-flash" ' +
      '(googleapis/python-genai#1921, mscraftsman/generative-ai#135); gemini-2.0-flash returns them (Gemini API reference, GenerationConfig.responseLogprobs)',
  },
  {
    provider: 'groq',
    model: /./,
    limits: { logprobs: 'refused' },
    source: 'Groq docs, OpenAI Compatibility > Currently Unsupported OpenAI Features: `logprobs`, `top_logprobs` "will result in a 400 error"',
  },
];

/** The published limits of a model (provider name as in model ids, provider-native model id); {} when none are known. */
export function knownLimits(provider: string, model: string): Limits {
  return KNOWN_FAMILIES.find((f) => f.provider === provider && f.model.test(model))?.limits ?? {};
}

/** Both sources together: what is known (table) and what this run learned. */
export function mergeLimits(a: Limits, b: Limits): Limits {
  return { ...a, ...b };
}

export function withRefusal(limits: Limits, r: Refusal): Limits {
  if (r.param === 'logprobs') return { ...limits, logprobs: 'refused' };
  if (r.param === 'max_tokens') return { ...limits, maxTokens: 'max_completion_tokens' };
  return { ...limits, temperature: { only: r.only } };
}

/** Whether a refusal is already reflected in the limits (so sending again would change nothing). */
export function alreadyKnown(limits: Limits, r: Refusal): boolean {
  if (r.param === 'logprobs') return limits.logprobs === 'refused';
  if (r.param === 'max_tokens') return limits.maxTokens === 'max_completion_tokens';
  return limits.temperature !== undefined && limits.temperature.only === r.only;
}

/** The parts of a request capabilities decide. */
export interface Adjustable {
  temperature: number | null;
  topLogprobs?: number | null;
}

/** What was changed to fit a model, for the caller to say so (a judge that samples because log-probabilities were refused). */
export interface Adjustment {
  logprobsRefused: boolean;
  /** The temperature sent instead of the one asked, or null when none could be sent; absent: unchanged. */
  temperature?: number | null;
}

/** A request as the model accepts it, and what changed. */
export function fitRequest<R extends Adjustable>(req: R, limits: Limits): { req: R; adjustment: Adjustment } {
  let out = req;
  const adjustment: Adjustment = { logprobsRefused: false };
  if (limits.logprobs === 'refused' && req.topLogprobs) {
    out = { ...out, topLogprobs: null };
    adjustment.logprobsRefused = true;
  }
  const t = limits.temperature;
  if (t && req.temperature !== null && req.temperature !== t.only) {
    out = { ...out, temperature: t.only };
    adjustment.temperature = t.only;
  }
  return { req: out, adjustment };
}

/**
 * A provider's refusal of one parameter, read from its error body, or null when the error says
 * something else. The shapes, as OpenAI sends them:
 *  - `{"message": "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", "param": "max_tokens", "code": "unsupported_parameter"}`
 *  - `{"message": "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.", "param": "temperature", "code": "unsupported_value"}`
 *  - `{"message": "Unsupported parameter: 'logprobs' is not supported with this model.", "param": "logprobs", "code": "unsupported_parameter"}`
 *  - o-series: HTTP 403 `{"message": "You are not allowed to request logprobs from this model", "param": null, "code": null}` (confident-ai/deepeval#2184)
 * Groq documents a 400 for `logprobs`/`top_logprobs` without fixing its wording, and Gemini says
 * "Logprobs is not enabled for models/gemini-2.5-flash" (400 INVALID_ARGUMENT, googleapis/python-genai#1921)
 * or "Logprobs is not supported for the current model.": all read by the message.
 */
export function refusalOf(status: number, err: { param?: string | null; code?: string | null; message?: string | null }): Refusal | null {
  if (status !== 400 && status !== 403 && status !== 422) return null;
  const message = err.message ?? '';
  const param = err.param ?? namedParam(message);
  const refusing = /unsupported|not supported|not enabled|not allowed|not compatible|does not support|only the default/i.test(message) || /^unsupported_(parameter|value)$/.test(err.code ?? '');
  if (!refusing) return null;
  if (param === 'logprobs' || param === 'top_logprobs' || (param === null && /\blogprobs\b/i.test(message))) return { param: 'logprobs' };
  if (param === 'max_tokens') return { param: 'max_tokens' };
  if (param === 'temperature') {
    // "Only the default (1) value is supported": that value; a temperature refused outright: none.
    const only = /default \(([\d.]+)\)/i.exec(message);
    return { param: 'temperature', only: only ? Number(only[1]) : null };
  }
  return null;
}

/** `'temperature'` from "Unsupported value: 'temperature' does not support…" when the body has no `param`. */
function namedParam(message: string): string | null {
  return /unsupported (?:parameter|value): '([a-z_]+)'/i.exec(message)?.[1] ?? null;
}

/**
 * A request refused for one parameter: `bad_request` like any 400 (never retried blindly), and
 * read by the gateway, which sends it again without that parameter.
 */
export class UnsupportedParameterError extends ProviderError {
  override name = 'UnsupportedParameterError';
  constructor(
    readonly refusal: Refusal,
    init: { provider: string; message: string; status: number },
  ) {
    super({ kind: 'bad_request', ...init });
  }
}

export function isUnsupportedParameter(e: unknown): e is UnsupportedParameterError {
  return e instanceof UnsupportedParameterError;
}

/**
 * What the models of one run have refused so far, by model id. It lives as long as the run's
 * gateway entry (gateway.ts keeps one per run id): a run learns a model's limits once, with one
 * refused request, and a later run asks again, since a provider may lift a limit (as OpenAI
 * did for some models' temperature) and a stale memory would silently cost every judge its
 * log-probabilities.
 */
export class CapabilityMemory {
  readonly #learned = new Map<string, Limits>();

  /** The model's limits: the published table merged with what this run learned. */
  limits(modelId: string): Limits {
    const colon = modelId.indexOf(':');
    const known = colon > 0 ? knownLimits(modelId.slice(0, colon), modelId.slice(colon + 1)) : {};
    return mergeLimits(known, this.#learned.get(modelId) ?? {});
  }

  /** Records a refusal; false when it was already known (sending again would be refused again). */
  learn(modelId: string, r: Refusal): boolean {
    if (alreadyKnown(this.limits(modelId), r)) return false;
    this.#learned.set(modelId, withRefusal(this.#learned.get(modelId) ?? {}, r));
    return true;
  }
}
