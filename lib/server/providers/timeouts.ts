/**
 * How long one provider call may take before it is a `timeout` (retried, with backoff, within
 * the run's deadline). A hung provider used to hold a concurrency slot for 120 s × 4 attempts;
 * each provider now has its own bound, sized to its slowest normal answers:
 *
 *   provider            timeout   why
 *   openai              60 s      chat completions without streaming
 *   anthropic           90 s      long answers (extended thinking) are slower
 *   google              60 s
 *   openrouter          90 s      a proxy in front of slow upstreams
 *   together, groq      45 s      fast hosted inference
 *   vllm/ollama/lmstudio 120 s    local servers on small machines
 *   custom (HTTP model) 30 s      a system under test should answer promptly
 *   anything else       60 s
 *
 * Reasoning models get minutes instead (`modelTimeoutMs`, below). A timed-out call is retried
 * once, not four times (retry.ts: it may already be billed).
 *
 * `ASSAY_PROVIDER_TIMEOUTS=openai=30000,custom=10000` overrides entries (env.ts validates it);
 * an HTTP model's own `timeoutMs` overrides the table for that model.
 */
export const PROVIDER_TIMEOUTS_MS: Readonly<Record<string, number>> = {
  openai: 60_000,
  anthropic: 90_000,
  google: 60_000,
  openrouter: 90_000,
  together: 45_000,
  groq: 45_000,
  vllm: 120_000,
  ollama: 120_000,
  lmstudio: 120_000,
  custom: 30_000,
};

export const FALLBACK_TIMEOUT_MS = 60_000;

export function providerTimeoutMs(provider: string, overrides: Readonly<Record<string, number>> = {}): number {
  return overrides[provider] ?? PROVIDER_TIMEOUTS_MS[provider] ?? FALLBACK_TIMEOUT_MS;
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
 * it was chosen; else a reasoning family's minutes; else the provider's table entry.
 */
export function modelTimeoutMs(provider: string, model: string, overrides: Readonly<Record<string, number>> = {}): number {
  const chosen = overrides[provider];
  if (chosen !== undefined) return chosen;
  if (provider !== 'custom' && isReasoningFamily(model)) return REASONING_TIMEOUT_MS;
  return providerTimeoutMs(provider);
}
