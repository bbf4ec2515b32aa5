/**
 * The fake's embeddings, independent of HTTP: deterministic vectors whose geometry follows word
 * overlap, so a retrieval example ranks its relevant documents well, and better with
 * `fake-embed-large` than with `fake-embed-small`.
 *
 * A text's vector is its feature-hashed bag of words (lower-cased, stop words dropped, a crude
 * suffix stemmer, each word to one signed coordinate by FNV-1a), normalised, plus Gaussian noise
 * seeded by (model, text) and scaled by the model's `noise`, normalised again. Fewer dimensions
 * mean more hash collisions and more noise means less signal: both make the small model worse.
 * The request's own dimension (`dimensions`, `outputDimensionality`) overrides the model's.
 */
import { z } from 'zod';
import { countTokens } from './llm-server-rules';

export const EmbeddingModelSchema = z.object({
  /** Matched exactly against the requested model (a Gemini `models/` prefix is dropped first). */
  model: z.string().min(1),
  dims: z.number().int().min(2).max(4096),
  /** Standard deviation of the noise relative to the unit signal: 0 is pure word overlap. */
  noise: z.number().min(0),
});
export type EmbeddingModel = z.infer<typeof EmbeddingModelSchema>;

export const DEFAULT_EMBEDDING_MODELS: readonly EmbeddingModel[] = [
  { model: 'fake-embed-large', dims: 256, noise: 0.15 },
  { model: 'fake-embed-small', dims: 64, noise: 0.9 },
];
/** Any other model name: between the two. */
export const FALLBACK_EMBEDDING_MODEL = { dims: 128, noise: 0.4 } as const;

const STOP_WORDS = new Set(
  'a an and are as at be by for from has have how in is it its of on or that the this to was were what when where which who why will with do does did can you your i we our they their'.split(' '),
);

/** Words as the fake's models see them: lower-case alphanumeric runs, no stop words, crude stems. */
export function embeddingWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP_WORDS.has(w)).map(stem);
}

function stem(w: string): string {
  if (w.length <= 3) return w;
  for (const suffix of ['ing', 'ies', 'ed', 'es', 's']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) return suffix === 'ies' ? `${w.slice(0, -3)}y` : w.slice(0, -suffix.length);
  }
  return w;
}

function fnv1a(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** mulberry32: a tiny seeded PRNG, uniform in [0, 1) (also the retrieval benches' generator). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normalise(v: Float64Array): void {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i]! /= n;
}

export function embeddingModelFor(model: string, table: readonly EmbeddingModel[]): { dims: number; noise: number } {
  const name = model.replace(/^models\//, '');
  return table.find((m) => m.model === name) ?? FALLBACK_EMBEDDING_MODEL;
}

/** The fake's vector of one text (float32 values, unit length). */
export function fakeEmbedding(text: string, model: string, spec: { dims: number; noise: number }): Float32Array {
  const v = new Float64Array(spec.dims);
  for (const w of embeddingWords(text)) {
    const h = fnv1a(w);
    v[h % spec.dims]! += fnv1a(w, 0x9e3779b9) & 1 ? 1 : -1;
  }
  normalise(v);
  if (spec.noise > 0) {
    const rand = prng(fnv1a(`${model}\u0000${text}`));
    const scale = spec.noise / Math.sqrt(spec.dims);
    for (let i = 0; i < spec.dims; i++) {
      // Box–Muller: one standard normal per coordinate
      const g = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
      v[i]! += g * scale;
    }
    normalise(v);
  }
  return Float32Array.from(v);
}

export function toBase64(v: Float32Array): string {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
}

// ───────────────────────── the wire formats ─────────────────────────

export type EmbeddingDialect = 'openai' | 'gemini' | 'custom';

export interface FakeEmbeddingRequest {
  dialect: EmbeddingDialect;
  model: string;
  inputs: string[];
  dims?: number;
  /** OpenAI: `float` (default) or `base64`. */
  encoding: 'float' | 'base64';
  /** Gemini's taskType, the custom body's input_type. */
  taskType?: string;
}

export class EmbeddingBadRequest extends Error {}

const OpenAiBody = z.object({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.string()).min(1).max(2048)]),
  encoding_format: z.enum(['float', 'base64']).optional(),
  dimensions: z.number().int().positive().optional(),
});
const GeminiContent = z.object({ parts: z.array(z.object({ text: z.string() })).min(1) });
const GeminiOne = z.object({ model: z.string().optional(), content: GeminiContent, taskType: z.string().optional(), outputDimensionality: z.number().int().positive().optional() });
const GeminiBatch = z.object({ requests: z.array(GeminiOne).min(1).max(100) });
const CustomBody = z.object({ model: z.string().min(1), texts: z.array(z.string()).min(1), input_type: z.string().optional() });

function parsed<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body);
  if (!r.success) throw new EmbeddingBadRequest(z.prettifyError(r.error));
  return r.data;
}

/** `path` names the Gemini model and method: `/v1beta/models/{model}:batchEmbedContents`. */
export function parseEmbeddingRequest(dialect: EmbeddingDialect, path: string, body: unknown): FakeEmbeddingRequest {
  if (dialect === 'openai') {
    const b = parsed(OpenAiBody, body);
    return { dialect, model: b.model, inputs: typeof b.input === 'string' ? [b.input] : b.input, encoding: b.encoding_format ?? 'float', ...(b.dimensions ? { dims: b.dimensions } : {}) };
  }
  if (dialect === 'custom') {
    const b = parsed(CustomBody, body);
    return { dialect, model: b.model, inputs: b.texts, encoding: 'float', ...(b.input_type ? { taskType: b.input_type } : {}) };
  }
  const m = /\/models\/([^/:]+):(batchEmbedContents|embedContent)$/.exec(path);
  if (!m) throw new EmbeddingBadRequest(`not a Gemini embeddings path: ${path}`);
  const requests = m[2] === 'embedContent' ? [parsed(GeminiOne, body)] : parsed(GeminiBatch, body).requests;
  const first = requests[0]!;
  return {
    dialect,
    model: decodeURIComponent(m[1]!),
    inputs: requests.map((r) => r.content.parts.map((p) => p.text).join('')),
    encoding: 'float',
    ...(first.outputDimensionality ? { dims: first.outputDimensionality } : {}),
    ...(first.taskType ? { taskType: first.taskType } : {}),
  };
}

/** The reply body; `broken` drops the last vector (a malformed reply that must not be stored). */
export function renderEmbeddings(req: FakeEmbeddingRequest, vectors: Float32Array[], path: string, broken = false): unknown {
  const shown = broken ? vectors.slice(0, -1) : vectors;
  const tokens = countTokens(...req.inputs);
  if (req.dialect === 'openai') {
    return {
      object: 'list',
      model: req.model,
      data: shown.map((v, index) => ({ object: 'embedding', index, embedding: req.encoding === 'base64' ? toBase64(v) : Array.from(v) })),
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    };
  }
  if (req.dialect === 'custom') return { model: req.model, vectors: shown.map((v) => Array.from(v)), tokens };
  if (path.endsWith(':embedContent')) return broken ? {} : { embedding: { values: Array.from(vectors[0]!) } };
  return { embeddings: shown.map((v) => ({ values: Array.from(v) })) };
}

export function renderEmbeddingError(dialect: EmbeddingDialect, status: number, message: string): unknown {
  if (dialect === 'gemini') {
    const statusName: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL' };
    return { error: { code: status, message, status: statusName[status] ?? 'UNKNOWN' } };
  }
  // OpenAI's 429 names the limit in `type` ("requests" or "tokens") and the error in `code`, for
  // embeddings as for chat (llm-server-dialects.ts renderError)
  if (dialect === 'openai') {
    return status === 429
      ? { error: { message, type: 'requests', param: null, code: 'rate_limit_exceeded' } }
      : { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code: null } };
  }
  return { error: message };
}

export function embeddingDialectFor(method: string, path: string): EmbeddingDialect | null {
  if (method !== 'POST') return null;
  if (path.endsWith('/embeddings')) return 'openai';
  if (/\/models\/[^/:]+:(batchEmbedContents|embedContent)$/.test(path)) return 'gemini';
  if (path === '/custom/embed') return 'custom';
  return null;
}
