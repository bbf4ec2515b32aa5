/**
 * OpenAI's documented limits on `POST /v1/embeddings` (OpenAI API reference, Embeddings > Create,
 * `input`: "The input must not exceed the max input tokens for the model (8192 tokens for all
 * embedding models), cannot be an empty string, and any array must be 2048 dimensions or less …
 * all embedding models enforce a maximum of 300,000 tokens summed across all inputs in a single
 * request"), counted with the models' tokenizer, cl100k_base (OpenAI cookbook "How to count tokens
 * with tiktoken": text-embedding-3-small, text-embedding-3-large and text-embedding-ada-002).
 * Other OpenAI-compatible servers publish other tokenizers and limits: they get none of these.
 */
import type { Tiktoken } from 'js-tiktoken/lite';

export interface EmbeddingInputLimits {
  /** Most tokens one input may hold. */
  maxInputTokens: number;
  /** Most tokens all inputs of one request may hold together. */
  maxRequestTokens: number;
  /** The model refuses an empty string. */
  refusesEmpty: true;
  /** Tokens of a text in the model's tokenizer (loaded by the first count). */
  countTokens(text: string): Promise<number>;
}

const OPENAI_EMBEDDING_MODELS: ReadonlySet<string> = new Set(['text-embedding-3-small', 'text-embedding-3-large', 'text-embedding-ada-002']);

let encoder: Promise<Tiktoken> | null = null;
/**
 * cl100k_base, imported and built once, by the first count: its rank table is a 1.7 MB module,
 * and every `assay` command that reads blueprints would load it at start-up, while only a
 * retrieval text longer in bytes than a limit is ever counted.
 */
async function cl100kTokens(text: string): Promise<number> {
  encoder ??= Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/cl100k_base')]).then(([{ Tiktoken }, ranks]) => new Tiktoken(ranks.default));
  return (await encoder).encode(text).length;
}

/** The limits of an OpenAI embedding model (`provider` openai, native model id), or null when none are published for it. */
export function openAiEmbeddingLimits(provider: string, model: string): EmbeddingInputLimits | null {
  if (provider !== 'openai' || !OPENAI_EMBEDDING_MODELS.has(model)) return null;
  return { maxInputTokens: 8192, maxRequestTokens: 300_000, refusesEmpty: true, countTokens: cl100kTokens };
}

export type RequestPlan =
  | { ok: true; groups: number[][] }
  | { ok: false; problem: { kind: 'empty'; index: number } | { kind: 'too_long'; index: number; tokens: number } };

/**
 * The requests that carry `inputs` within the limits: consecutive groups of input indices, each
 * within the per-request token sum; or the first input no request can carry (empty, or over the
 * per-input limit). Nothing is counted when the bytes alone show every limit is kept (a token is
 * at least one UTF-8 byte), the usual case for short texts.
 */
export async function planRequests(limits: EmbeddingInputLimits, inputs: readonly string[]): Promise<RequestPlan> {
  const empty = inputs.findIndex((t) => t === '');
  if (empty >= 0) return { ok: false, problem: { kind: 'empty', index: empty } };
  const bytes = inputs.map((t) => Buffer.byteLength(t, 'utf8'));
  if (bytes.every((b) => b <= limits.maxInputTokens) && bytes.reduce((s, b) => s + b, 0) <= limits.maxRequestTokens) {
    return { ok: true, groups: [inputs.map((_, i) => i)] };
  }
  const tokens: number[] = [];
  for (const t of inputs) tokens.push(await limits.countTokens(t));
  const long = tokens.findIndex((n) => n > limits.maxInputTokens);
  if (long >= 0) return { ok: false, problem: { kind: 'too_long', index: long, tokens: tokens[long]! } };
  const groups: number[][] = [];
  let current: number[] = [];
  let sum = 0;
  tokens.forEach((n, i) => {
    if (current.length > 0 && sum + n > limits.maxRequestTokens) {
      groups.push(current);
      current = [];
      sum = 0;
    }
    current.push(i);
    sum += n;
  });
  if (current.length > 0) groups.push(current);
  return { ok: true, groups };
}
