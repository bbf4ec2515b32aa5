/**
 * How many calls a worker keeps in flight per provider, unless the run says otherwise
 * (`--concurrency N` / `ASSAY_RUN_CONCURRENCY`, which set every provider's maximum). Each is a
 * maximum, not a fixed number: the gateway halves a provider's limit on a 429 and grows it back
 * by one per window of successes (AIMD, runs/adaptive-limit.ts), so a maximum above what an
 * account allows costs a few retried calls, not a failed run.
 *
 *   provider             max   why
 *   openai                20   high per-minute limits from tier 2 up; Inspect's default is 10 per model API
 *   openrouter            20   a proxy spreading load over upstreams
 *   anthropic             10   tier 1–2 accounts allow few concurrent requests (Inspect: 10)
 *   google                10   Inspect's default
 *   together, groq        10   Inspect's default
 *   vllm                   8   one local GPU server
 *   ollama, lmstudio       2   a laptop model answers one or two at a time
 *   custom (HTTP model)    4   a system under test is rarely sized for load
 *   anything else         10   Inspect's default `max_connections`
 *
 * docs/runs.md ("Concurrency") is the reader's copy of this table.
 */
export const PROVIDER_CONCURRENCY: Readonly<Record<string, number>> = {
  openai: 20,
  openrouter: 20,
  anthropic: 10,
  google: 10,
  together: 10,
  groq: 10,
  vllm: 8,
  ollama: 2,
  lmstudio: 2,
  custom: 4,
};

export const FALLBACK_CONCURRENCY = 10;

/** A provider's maximum calls in flight: the run's override, else the table. */
export function providerConcurrency(provider: string, override?: number | null): number {
  return override ?? PROVIDER_CONCURRENCY[provider] ?? FALLBACK_CONCURRENCY;
}
