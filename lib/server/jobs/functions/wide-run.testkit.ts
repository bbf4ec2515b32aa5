/**
 * A run wider than one Inngest send may carry (5,000 events): 1,500 prompts × 4 models on three
 * providers, one function point each, so each prompt × model group is one generation and no
 * judge call. The fan-out test and the fan-out bench run the same blueprint.
 */
export const WIDE_PROMPTS = 1500;
export const WIDE_MODELS = ['openrouter:w1', 'openrouter:w2', 'openai:w3', 'anthropic:w4'];
export const WIDE_GROUPS = WIDE_PROMPTS * WIDE_MODELS.length;

export function wideBlueprint(): string {
  const prompts = Array.from({ length: WIDE_PROMPTS }, (_, i) => `- id: p${i}\n  prompt: Say ${i}.\n  should:\n    - $word_count_between: [1, 80]\n`).join('');
  return `title: Wide\nmodels: [${WIDE_MODELS.join(', ')}]\n---\n${prompts}`;
}
