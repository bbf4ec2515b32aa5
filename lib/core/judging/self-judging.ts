/**
 * Self-judging: a judge grading its own model, or a model of its own family. LLM judges favour
 * replies that read like their own (Panickssery et al. 2024, "LLM Evaluators Recognize and Favor
 * Their Own Generations"; Zheng et al. 2023 on self-enhancement bias), so a judged score where
 * the panel includes the graded model's own maker is flagged for the reader, never silently used.
 *
 * The rule, on Assay's model ids (`provider:name` or `provider:org/name`, e.g.
 * `openrouter:openai/gpt-4o`, `openai:gpt-4o-mini`, `anthropic:claude-3-5-sonnet-20241022`):
 *  - the *model* is the name without its host, with a trailing release date (`-20241022`,
 *    `-2024-08-06`) and a `-latest` or `:free`-style variant removed, lower-cased: the same
 *    provider-model id reached through two hosts is the same model;
 *  - the *family* is the model's maker: the org segment (`openai/…`), or, when the name is of a
 *    well-known series (`gpt-`, `claude-`, `gemini-`, `llama`, …), that series' maker. Never the
 *    provider prefix alone: `openai:` also names any OpenAI-compatible endpoint (a local server,
 *    the fake provider), whose model ids say nothing of their maker.
 * `same-model` is the strong flag (a judge grading itself); `same-family` the weaker one (a
 * sibling: gpt-4.1-mini judging gpt-4o). A judge whose family cannot be told is never flagged
 * by family, only by identical model.
 */

export type SelfJudgingKind = 'same-model' | 'same-family';

export interface ModelIdentity {
  /** The model without host, date or variant, e.g. `gpt-4o`. */
  model: string;
  /** Its maker, e.g. `openai`; null when it cannot be told from the id. */
  family: string | null;
}

/** Org spellings of one maker. */
const MAKER_ALIASES: Record<string, string> = {
  'meta-llama': 'meta',
  meta: 'meta',
  google: 'google',
  gemini: 'google',
  mistralai: 'mistral',
  mistral: 'mistral',
  'x-ai': 'xai',
  xai: 'xai',
  grok: 'xai',
  qwen: 'qwen',
  alibaba: 'qwen',
  deepseek: 'deepseek',
  'deepseek-ai': 'deepseek',
  anthropic: 'anthropic',
  openai: 'openai',
  cohere: 'cohere',
  microsoft: 'microsoft',
};

/** Model series whose maker the name alone tells (checked on the model name, lower-cased; a series may follow a prefix such as `open-`). */
const SERIES: [RegExp, string][] = [
  [/^(gpt-|chatgpt|o[134](-|$)|text-davinci)/, 'openai'],
  [/^claude/, 'anthropic'],
  [/^(gemini|gemma)/, 'google'],
  [/(^|-)(llama|meta-llama)/, 'meta'],
  [/(^|-)(mistral|mixtral|codestral|ministral|magistral|devstral)/, 'mistral'],
  [/^(qwen|qwq)/, 'qwen'],
  [/^deepseek/, 'deepseek'],
  [/^grok/, 'xai'],
  [/^(command-|aya-)/, 'cohere'],
  [/^phi-/, 'microsoft'],
];

function maker(name: string): string {
  return MAKER_ALIASES[name] ?? name;
}

/** What a model id names, for the self-judging rule. Throws on an empty id (a caller bug). */
export function modelIdentity(id: string): ModelIdentity {
  const trimmed = id.trim().toLowerCase();
  if (trimmed === '') throw new Error('modelIdentity: the model id is empty; pass an id such as "openai:gpt-4o"');
  const colon = trimmed.indexOf(':');
  const rest = colon >= 0 ? trimmed.slice(colon + 1) : trimmed;
  const slash = rest.lastIndexOf('/');
  const org = slash >= 0 ? rest.slice(0, slash) : null;
  const model = rest
    .slice(slash + 1)
    .replace(/:[a-z0-9-]+$/, '') // openrouter variants: `:free`, `:beta`, `:nitro`
    .replace(/-latest$/, '')
    .replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, ''); // release dates
  const series = SERIES.find(([re]) => re.test(model))?.[1];
  const family = org ? maker(org.split('/').at(-1)!) : (series ?? null);
  return { model, family };
}

/** Whether `judge` grading `graded` is self-judging, and how closely; null when it is not. */
export function selfJudging(judge: string, graded: string): SelfJudgingKind | null {
  const j = modelIdentity(judge);
  const g = modelIdentity(graded);
  if (j.model === g.model && (j.family === g.family || j.family === null || g.family === null)) return 'same-model';
  if (j.family !== null && j.family === g.family) return 'same-family';
  return null;
}
