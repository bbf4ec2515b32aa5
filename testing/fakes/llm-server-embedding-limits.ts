/**
 * OpenAI's limits on `POST /v1/embeddings`, as the fake enforces them for OpenAI's own embedding
 * models. Source: OpenAI API reference, Embeddings > Create, `input`: "must not exceed the max input
 * tokens for the model (8192 tokens for all embedding models), cannot be an empty string, and any
 * array must be 2048 dimensions or less … all embedding models enforce a maximum of 300,000 tokens
 * summed across all inputs in a single request". Tokens are counted with the models' published
 * tokenizer, cl100k_base (js-tiktoken). The error bodies are OpenAI's as users meet them: the
 * per-request sum `{"message": "Requested N tokens, max 300000 tokens per request", "type":
 * "max_tokens_per_request", "code": "max_tokens_per_request"}` (quoted in the neighbours of
 * https://github.com/langchain-ai/langchain/issues/31227, e.g.
 * https://github.com/assafelovic/gpt-researcher/issues/1500), the per-input limit as the
 * context-length `invalid_request_error`, and an empty string as `'$.input' is invalid`.
 * The fake's own models (fake-embed-*) stand for self-hosted servers and have none of these limits.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';

const OPENAI_MODELS: ReadonlySet<string> = new Set(['text-embedding-3-small', 'text-embedding-3-large', 'text-embedding-ada-002']);
const MAX_INPUT_TOKENS = 8192;
const MAX_REQUEST_TOKENS = 300_000;

let encoder: Tiktoken | null = null;
const tokens = (text: string): number => (encoder ??= new Tiktoken(cl100k)).encode(text).length;

const invalid = (message: string, param: string | null = null, type = 'invalid_request_error', code: string | null = null) => ({ status: 400, body: { error: { message, type, param, code } } });

/** The 400 OpenAI answers for these inputs, or null when it takes them. */
export function openAiEmbeddingLimitError(model: string, inputs: readonly string[]): { status: number; body: unknown } | null {
  if (!OPENAI_MODELS.has(model)) return null;
  if (inputs.some((t) => t === '')) return invalid("'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.");
  const counts = inputs.map(tokens);
  const long = counts.find((n) => n > MAX_INPUT_TOKENS);
  if (long !== undefined) {
    return invalid(`This model's maximum context length is ${MAX_INPUT_TOKENS} tokens, however you requested ${long} tokens (${long} in your prompt; 0 for the completion). Please reduce your prompt; or completion length.`);
  }
  const sum = counts.reduce((s, n) => s + n, 0);
  if (sum > MAX_REQUEST_TOKENS) return invalid(`Requested ${sum} tokens, max ${MAX_REQUEST_TOKENS} tokens per request`, null, 'max_tokens_per_request', 'max_tokens_per_request');
  return null;
}
