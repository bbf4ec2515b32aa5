/**
 * How long one provider call may take before it is a `timeout` (retried, with backoff, within
 * the run's deadline): each provider's record in catalog.ts holds its bound and the reason for it.
 * Reasoning models get minutes instead (`modelTimeoutMs`, below).
 *
 * `ASSAY_PROVIDER_TIMEOUTS=openai=30000,custom=10000` overrides entries (env.ts validates it);
 * an HTTP model's own `timeoutMs` overrides the record for that model.
 */
import { FALLBACK_TIMEOUT_MS, HTTP_MODEL_PROVIDER, PROVIDER_LIMITS, providerLimits } from './catalog';

/** The records' bounds by provider name, the HTTP model (`custom`) included. */
export const PROVIDER_TIMEOUTS_MS: Readonly<Record<string, number>> = Object.fromEntries(PROVIDER_LIMITS.map(([name, limits]) => [name, limits.timeoutMs]));

/** An operator's override for the provider, if one was set (a name an object inherits, like `constructor`, is none). */
function overrideFor(provider: string, overrides: Readonly<Record<string, number>>): number | undefined {
  return Object.hasOwn(overrides, provider) ? overrides[provider] : undefined;
}

export function providerTimeoutMs(provider: string, overrides: Readonly<Record<string, number>> = {}): number {
  return overrideFor(provider, overrides) ?? providerLimits(provider)?.timeoutMs ?? FALLBACK_TIMEOUT_MS;
}

/**
 * Model families that reason before they answer, and so take minutes on a normal hard prompt
 * without anything being wrong. Ten minutes is what the providers' own SDKs allow a request by
 * default: openai-node (`client.d.ts`, "opts.timeout=10 minutes") and anthropic-sdk-typescript
 * (`client.js`, `DEFAULT_TIMEOUT = 600000 // 10 minutes`; it refuses a non-streaming request it
 * expects to take longer: "Streaming is required for operations that may take longer than 10
 * minutes", its README's "Long Requests"). Matched on the model's own name, so the same family
 * through OpenRouter (`openai/o3`) gets the same bound.
 *
 *   family                                          timeout
 *   OpenAI o1, o3, o4-mini…, gpt-5 (reasoning)      10 min
 *   Claude 3.7 Sonnet, Claude 4.x (extended thinking) 10 min
 *   Gemini 2.5 Pro and Flash (thinking on by default) 10 min
 */
export const REASONING_TIMEOUT_MS = 600_000;
const REASONING_FAMILIES: readonly RegExp[] = [
  /^o\d(?:-|$)/,
  /^gpt-5(?:[.-]|$)/,
  /^claude-3-7-sonnet/,
  /^claude-(?:opus|sonnet|haiku)-4/,
  /^gemini-2\.5-(?:pro|flash)/,
];

export function isReasoningFamily(model: string): boolean {
  const name = model.slice(model.lastIndexOf('/') + 1).toLowerCase();
  return REASONING_FAMILIES.some((f) => f.test(name));
}

/**
 * One call's bound: an operator's override for the provider (ASSAY_PROVIDER_TIMEOUTS) wins, since
 * it was chosen; else a reasoning family's minutes; else the provider's record.
 */
export function modelTimeoutMs(provider: string, model: string, overrides: Readonly<Record<string, number>> = {}): number {
  const chosen = overrideFor(provider, overrides);
  if (chosen !== undefined) return chosen;
  if (provider !== HTTP_MODEL_PROVIDER.name && isReasoningFamily(model)) return REASONING_TIMEOUT_MS;
  return providerTimeoutMs(provider);
}
