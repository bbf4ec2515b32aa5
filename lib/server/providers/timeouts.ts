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
