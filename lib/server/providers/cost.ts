/**
 * What a call cost. OpenRouter reports it (`usage.cost`, in USD), and that figure wins; for a
 * handful of well-known models we estimate from list prices; everything else is null, because
 * a wrong number on a budget is worse than an unknown one.
 */
import type { Usage } from './types';

/**
 * APPROXIMATE list prices in USD per 1M input / output tokens, as published by the providers
 * in 2025. They drift: budgets built on them are estimates, not invoices. Keys are matched as
 * prefixes of the model name (so dated and `-latest` ids match), longest key first.
 */
export const APPROXIMATE_PRICES_PER_MTOK: Readonly<Record<string, { input: number; output: number }>> = {
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1': { input: 2, output: 8 },
  'o4-mini': { input: 1.1, output: 4.4 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
  'claude-3-haiku': { input: 0.25, output: 1.25 },
  'claude-3-5-sonnet': { input: 3, output: 15 },
  'claude-3-7-sonnet': { input: 3, output: 15 },
  'claude-sonnet-4': { input: 3, output: 15 },
  'claude-opus-4': { input: 15, output: 75 },
  'gemini-2.0-flash-lite': { input: 0.075, output: 0.3 },
  'gemini-2.0-flash': { input: 0.1, output: 0.4 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5 },
  'gemini-2.5-pro': { input: 1.25, output: 10 },
};

const KEYS_LONGEST_FIRST = Object.keys(APPROXIMATE_PRICES_PER_MTOK).sort((a, b) => b.length - a.length);

/** The table entry for a model id, ignoring an OpenRouter-style vendor prefix (`openai/gpt-4o`). */
export function priceFor(model: string): { input: number; output: number } | null {
  const name = model.slice(model.lastIndexOf('/') + 1).toLowerCase();
  const key = KEYS_LONGEST_FIRST.find((k) => name.startsWith(k));
  return key === undefined ? null : APPROXIMATE_PRICES_PER_MTOK[key]!;
}

export function costUsd(model: string, usage: Usage | null, reportedUsd?: number | null): number | null {
  if (typeof reportedUsd === 'number' && Number.isFinite(reportedUsd) && reportedUsd >= 0) return reportedUsd;
  const price = usage ? priceFor(model) : null;
  if (!price || !usage) return null;
  return (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1_000_000;
}
