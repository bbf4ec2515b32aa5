/**
 * How many calls a worker keeps in flight per provider: each provider's record in catalog.ts
 * holds its maximum and the reason for it (docs/runs.md, "Concurrency", is the reader's copy).
 */
import { FALLBACK_CONCURRENCY, PROVIDER_LIMITS, providerLimits } from './catalog';

/** The records' maxima by provider name, the HTTP model (`custom`) included. */
export const PROVIDER_CONCURRENCY: Readonly<Record<string, number>> = Object.fromEntries(PROVIDER_LIMITS.map(([name, limits]) => [name, limits.concurrency]));

/** A provider's maximum calls in flight: the run's override, else its record. */
export function providerConcurrency(provider: string, override?: number | null): number {
  return override ?? providerLimits(provider)?.concurrency ?? FALLBACK_CONCURRENCY;
}
