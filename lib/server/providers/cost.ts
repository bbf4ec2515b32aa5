/**
 * What a call cost. OpenRouter reports it (`usage.cost`, in USD), and that figure wins; for the
 * current OpenAI, Anthropic and Google families we estimate from list prices, each token class at
 * its own rate; everything else is null (unknown), because a wrong number on a budget is worse than
 * an unknown one: a run capped by `--max-cost` refuses to start with a model priced nowhere
 * (lib/server/runs/calls/unpriced-models.ts), and pages show an unknown cost as unknown, not $0.
 */
import type { Usage } from './types';

/** USD per 1M tokens of each class. A class the provider does not price apart costs the input rate. */
export interface Price {
  input: number;
  output: number;
  /** Input read from the prompt cache (OpenAI "Cached input", Anthropic "Cache hits", Gemini "Context caching"). */
  cachedInput?: number;
  /** Input written to the prompt cache: Anthropic's "5m cache writes" (the default lifetime, the one Assay gets). */
  cacheWrite?: number;
  /** A dearer tier for the whole call once its prompt is longer than `above` tokens (Gemini 2.5 Pro: over 200k). */
  longPrompt?: { above: number; input: number; output: number; cachedInput?: number };
}

/**
 * APPROXIMATE list prices, standard (not batch, not priority) tier, USD per 1M tokens. They drift:
 * budgets built on them are estimates, not invoices. Read on 2026-12-06 from stored copies of:
 *  - OpenAI: developers.openai.com/api/docs/pricing and each model's page (developers.openai.com/api/docs/models/MODEL,
 *    "Text tokens, per 1M tokens: Input, Cached input, Output"; e.g. gpt-5-nano $0.05 / $0.005 / $0.40,
 *    GPT-5 $1.25 / $0.125 / $10.00). Reasoning tokens are billed as output and are already inside
 *    `completion_tokens` (usage.ts).
 *  - Anthropic: platform.claude.com/docs/en/about-claude/pricing, "Model pricing" table (Base input tokens,
 *    5m cache writes, Cache hits & refreshes, Output tokens). Sonnet 4/4.5's dearer over-200k rates apply only
 *    with the 1M-context beta header, which Assay does not send.
 *  - Google: ai.google.dev/gemini-api/docs/pricing, paid tier ("Input price", "Output price (including
 *    thinking tokens)", "Context caching price"); 2.5 Pro's prompts over 200k tokens cost more
 *    (input $2.50, output $15, caching $0.25), as quoted on discuss.ai.google.dev/t/107349.
 * Not every figure could be re-read in those copies: the cached-input rates of Gemini 2.5 Flash,
 * 2.5 Flash-Lite and 2.0 Flash, and those of o1, o3, o3-mini and o4-mini, are as those pages last
 * listed them to our knowledge (secondary copies agree on the input and output rates); check them
 * against the pages before trusting a cached-heavy estimate.
 * Keys match a model id exactly, or followed by a date, snapshot or `-latest` suffix (see `priceFor`):
 * a variant with a different price (`o3-pro`, `gpt-5-pro`, a preview) is unknown, not priced as its base.
 */
export const APPROXIMATE_PRICES_PER_MTOK: Readonly<Record<string, Price>> = {
  // OpenAI
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-chat': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4o-2024-05-13': { input: 5, output: 15 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  o1: { input: 15, cachedInput: 7.5, output: 60 },
  'o1-mini': { input: 1.1, cachedInput: 0.55, output: 4.4 },
  o3: { input: 2, cachedInput: 0.5, output: 8 },
  'o3-mini': { input: 1.1, cachedInput: 0.55, output: 4.4 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
  // Anthropic
  'claude-opus-4-5': { input: 5, cacheWrite: 6.25, cachedInput: 0.5, output: 25 },
  'claude-opus-4-1': { input: 15, cacheWrite: 18.75, cachedInput: 1.5, output: 75 },
  'claude-opus-4': { input: 15, cacheWrite: 18.75, cachedInput: 1.5, output: 75 },
  'claude-sonnet-4-5': { input: 3, cacheWrite: 3.75, cachedInput: 0.3, output: 15 },
  'claude-sonnet-4': { input: 3, cacheWrite: 3.75, cachedInput: 0.3, output: 15 },
  'claude-haiku-4-5': { input: 1, cacheWrite: 1.25, cachedInput: 0.1, output: 5 },
  'claude-3-7-sonnet': { input: 3, cacheWrite: 3.75, cachedInput: 0.3, output: 15 },
  'claude-3-5-sonnet': { input: 3, cacheWrite: 3.75, cachedInput: 0.3, output: 15 },
  'claude-3-5-haiku': { input: 0.8, cacheWrite: 1, cachedInput: 0.08, output: 4 },
  'claude-3-opus': { input: 15, cacheWrite: 18.75, cachedInput: 1.5, output: 75 },
  'claude-3-haiku': { input: 0.25, cacheWrite: 0.3, cachedInput: 0.03, output: 1.25 },
  // Google (text input)
  'gemini-2.5-pro': { input: 1.25, cachedInput: 0.125, output: 10, longPrompt: { above: 200_000, input: 2.5, cachedInput: 0.25, output: 15 } },
  'gemini-2.5-flash': { input: 0.3, cachedInput: 0.03, output: 2.5 },
  'gemini-2.5-flash-lite': { input: 0.1, cachedInput: 0.01, output: 0.4 },
  'gemini-2.0-flash': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gemini-2.0-flash-lite': { input: 0.075, output: 0.3 },
};

const KEYS_LONGEST_FIRST = Object.keys(APPROXIMATE_PRICES_PER_MTOK).sort((a, b) => b.length - a.length);

/**
 * What may follow a key and still be the same priced model: a date (`-2025-08-07`, `-20250514`), a
 * numbered snapshot (`-001`), Anthropic's `-0` alias (`claude-opus-4-0`) or `-latest`.
 */
const SAME_MODEL_SUFFIX = /^(?:-(?:\d{4}-\d{2}-\d{2}|\d{8}|\d{3}|0|latest))?$/;

/** The table entry for a model id, ignoring an OpenRouter-style vendor prefix (`openai/gpt-4o`); null when unknown. */
export function priceFor(model: string): Price | null {
  const name = model.slice(model.lastIndexOf('/') + 1).toLowerCase();
  const key = KEYS_LONGEST_FIRST.find((k) => name.startsWith(k) && SAME_MODEL_SUFFIX.test(name.slice(k.length)));
  return key === undefined ? null : APPROXIMATE_PRICES_PER_MTOK[key]!;
}

/** Each token class at its rate: fresh input, cache reads, cache writes, and every output token (reasoning included). */
export function costFromPrice(price: Price, usage: Usage): number {
  const tier = price.longPrompt && usage.promptTokens > price.longPrompt.above ? { ...price, ...price.longPrompt } : price;
  const cached = usage.cachedInputTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const fresh = Math.max(0, usage.promptTokens - cached - written);
  const usd = fresh * tier.input + cached * (tier.cachedInput ?? tier.input) + written * (tier.cacheWrite ?? tier.input) + usage.completionTokens * tier.output;
  return usd / 1_000_000;
}

export function costUsd(model: string, usage: Usage | null, reportedUsd?: number | null): number | null {
  if (typeof reportedUsd === 'number' && Number.isFinite(reportedUsd) && reportedUsd >= 0) return reportedUsd;
  const price = usage ? priceFor(model) : null;
  if (!price || !usage) return null;
  return costFromPrice(price, usage);
}

/** Providers whose replies carry their own charge (OpenRouter's `usage.cost`), so a cost is known without the table. */
const REPORTS_ITS_COST: ReadonlySet<string> = new Set(['openrouter']);
/** Providers whose list prices the table holds; a same-named model served elsewhere (vLLM, Together) is not priced by it. */
const TABLE_PROVIDERS: ReadonlySet<string> = new Set(['openai', 'anthropic', 'google']);

/** Whether a call to `provider:model` gets a known cost (reported by the provider, or from the table). */
export function costIsKnown(provider: string, model: string): boolean {
  return REPORTS_ITS_COST.has(provider) || (TABLE_PROVIDERS.has(provider) && priceFor(model) !== null);
}

/**
 * Of a run's `provider:model` ids, those whose calls cost an unknown amount, each once: no known
 * price for its provider, or an HTTP system under test (`customIds`), which bills nothing Assay sees.
 */
export function unpricedModelIds(ids: readonly string[], customIds: readonly string[] = []): string[] {
  return [...new Set(ids)].filter((id) => {
    if (customIds.includes(id)) return true;
    const colon = id.indexOf(':');
    return colon <= 0 || !costIsKnown(id.slice(0, colon), id.slice(colon + 1));
  });
}
