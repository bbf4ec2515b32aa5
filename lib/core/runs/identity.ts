/**
 * A run's identity: everything that determines its results, so a schedule can
 * tell an identical run from a changed one. Hashing uses the core's own SHA-256 (pure).
 */
import { sha256Hex, stableStringify } from '../blueprint/ids';
import type { RunSettings } from './plan';

export function runIdentity(input: { contentHash: string; settings: RunSettings; parserVersion: string }): string {
  const { settings } = input;
  return sha256Hex(
    stableStringify({
      v: 1,
      content: input.contentHash,
      parser: input.parserVersion,
      models: [...settings.models].sort(),
      judges: [...settings.judges].map((j) => `${j.model}#${j.approach}`).sort(),
      repeats: settings.repeats,
      maxPrompts: settings.maxPrompts,
      judgeSamples: settings.judgeSamples,
      // Only when batched, so every per-point run keeps the identity it had before the mode existed.
      ...(settings.judgeMode === 'batched' ? { judgeMode: 'batched' } : {}),
    }) ?? '',
  );
}

/**
 * The response-cache key of one provider call: model, messages, parameters AND the attempt
 * number, so repeats are independent samples rather than cache hits of each other.
 */
export function callCacheKey(input: { model: string; messages: unknown; temperature: number | null; tools: unknown; topLogprobs: number | null; attempt: number }): string {
  return sha256Hex(stableStringify({ v: 1, ...input }) ?? '');
}
