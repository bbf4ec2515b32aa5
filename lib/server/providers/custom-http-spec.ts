/**
 * A system under test over HTTP, as a blueprint writes it: either an
 * OpenAI-compatible chat endpoint (`format: openai`) or a custom JSON mapping (a body template
 * and JSONPaths into the reply). The zod schema is the type (inferred from it). Header values can
 * only name environment variables, never hold a value, so a blueprint never carries a secret;
 * which variables and which hosts are allowed is the maintainer's configuration.
 */
import { z } from 'zod';
import { AppError } from '../http/errors';
import { compileJsonPath } from '@/lib/core';

/** Placeholders a body template may use; `{{messages}}` is OpenAI-format, system turn included. */
export const TEMPLATE_VARIABLES = ['messages', 'last_user', 'system', 'model', 'temperature', 'max_tokens', 'tools', 'attempt'] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];
/** Placeholders of an embeddings body template: `{{inputs}}` is the array of texts, `{{input_type}}` `document` or `query`. */
export const EMBEDDING_TEMPLATE_VARIABLES = ['inputs', 'model', 'input_type'] as const;
export type EmbeddingTemplateVariable = (typeof EMBEDDING_TEMPLATE_VARIABLES)[number];

const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;

const EnvHeaderSchema = z
  .object(
    {
      env: z.string().regex(ENV_NAME, 'must be an environment variable name such as MY_SERVICE_TOKEN'),
      /** Text before the variable's value, e.g. `"Bearer "`. */
      prefix: z.string().optional(),
    },
    { error: 'a header value must name an environment variable, e.g. { env: MY_SERVICE_TOKEN }; a blueprint never holds a secret' },
  )
  .strict();

const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

const JsonPath = z
  .string()
  .regex(/^\$/, 'must be a JSONPath starting with $, e.g. $.choices[0].message.content')
  .superRefine((path, ctx) => {
    // RFC 9535, through the same evaluator as blueprint paths (lib/core/untrusted/jsonpath.ts).
    const compiled = compileJsonPath(path);
    if (!compiled.ok) ctx.addIssue({ code: 'custom', message: compiled.message });
  });

/** Keys a blueprint may add for its own use (`id`, a display label…); ignored here. */
const descriptive = {
  id: z.string().optional(),
  kind: z.string().optional(),
  label: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
};

const common = {
  ...descriptive,
  url: HttpUrl,
  headers: z.record(z.string().regex(/^[A-Za-z0-9-]+$/, 'not a valid header name'), EnvHeaderSchema).optional(),
  timeoutMs: z.number().int().positive().optional(),
};

export const OpenAiEndpointSpecSchema = z
  .object({
    ...common,
    format: z.literal('openai'),
    /** Sent as `model`; defaults to the entry's id. */
    model: z.string().optional(),
  })
  .strict();

export const CustomMappingSpecSchema = z
  .object({
    ...common,
    format: z.literal('custom').default('custom'),
    model: z.string().optional(),
    method: z.enum(['POST', 'PUT']).default('POST'),
    /** Any JSON; strings may hold `{{placeholders}}` (see TEMPLATE_VARIABLES). Default `{ messages: "{{messages}}" }`. */
    body: z.unknown().optional(),
    response: z
      .object({
        content: JsonPath,
        tool_calls: JsonPath.optional(),
        prompt_tokens: JsonPath.optional(),
        completion_tokens: JsonPath.optional(),
        /** What the system says it served (default `$.model`) and its build (default `$.system_fingerprint`), recorded for drift. */
        model: JsonPath.optional(),
        fingerprint: JsonPath.optional(),
      })
      .strict(),
  })
  .strict();

export type OpenAiEndpointSpec = z.infer<typeof OpenAiEndpointSpecSchema>;
export type CustomMappingSpec = z.infer<typeof CustomMappingSpecSchema>;
export type CustomHttpSpec = OpenAiEndpointSpec | CustomMappingSpec;

/** 422: an HTTP model's endpoint spec (or the variables it reads) is invalid; the message lists every problem. */
export class CustomHttpSpecError extends AppError {
  override name = 'CustomHttpSpecError';
  constructor(message: string) {
    super('invalid_model_spec', 422, message);
  }
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_]+)\s*\}\}/g;

function unknownPlaceholders(template: unknown, path: string, out: string[], known: readonly string[] = TEMPLATE_VARIABLES): void {
  if (typeof template === 'string') {
    for (const m of template.matchAll(PLACEHOLDER)) {
      if (!known.includes(m[1]!)) out.push(`${path}: unknown placeholder {{${m[1]}}}`);
    }
  } else if (Array.isArray(template)) template.forEach((v, i) => unknownPlaceholders(v, `${path}[${i}]`, out, known));
  else if (template && typeof template === 'object') {
    for (const [k, v] of Object.entries(template)) unknownPlaceholders(v, `${path}.${k}`, out, known);
  }
}

/**
 * An embedding model over HTTP: an OpenAI-compatible `/v1/embeddings` endpoint (`format: openai`)
 * or a custom mapping: a body template (`{{inputs}}`, `{{model}}`, `{{input_type}}`) and JSONPaths
 * to the vectors (`$.data[*].embedding`, `$.embeddings`…) and, optionally, the token count.
 */
export const EmbeddingEndpointSpecSchema = z
  .object({
    ...common,
    format: z.enum(['openai', 'custom']).default('custom'),
    model: z.string().optional(),
    method: z.enum(['POST', 'PUT']).default('POST'),
    /** Most texts per request (the endpoint's own limit); default 2048 for `openai`, 64 for `custom`. */
    max_batch: z.number().int().positive().max(10_000).optional(),
    body: z.unknown().optional(),
    response: z
      .object({
        /** Every vector of the reply, in input order: one match per input, or one match holding the array of vectors. */
        vectors: JsonPath,
        prompt_tokens: JsonPath.optional(),
        model: JsonPath.optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type EmbeddingEndpointSpec = z.infer<typeof EmbeddingEndpointSpecSchema>;

function specFailure(modelId: string): (lines: string[]) => never {
  return (lines) => {
    throw new CustomHttpSpecError(`HTTP model "${modelId}": invalid endpoint spec:\n${lines.map((l) => `  ${l}`).join('\n')}`);
  };
}

/** A copy of a spec as written, with `endpoint` read as `url` (it reads naturally in a blueprint). */
function normalisedInput(raw: unknown, fail: (lines: string[]) => never, expected: string): Record<string, unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return fail([expected]);
  const input = { ...(raw as Record<string, unknown>) };
  if (input.url === undefined && input.endpoint !== undefined) {
    input.url = input.endpoint;
    delete input.endpoint;
  }
  return input;
}

function issueLines(error: z.ZodError, responseHint: string): string[] {
  return error.issues.map((i) => {
    const where = i.path.length ? i.path.join('.') : '(spec)';
    if (i.code === 'unrecognized_keys') return `${where}: unknown key(s) ${i.keys.join(', ')}`;
    if (where === 'response' && i.code === 'invalid_type') return responseHint;
    return `${where}: ${i.message}`;
  });
}

/** Validates a spec as written; throws CustomHttpSpecError listing every problem and how to fix it. */
export function parseCustomHttpSpec(raw: unknown, modelId: string): CustomHttpSpec {
  const fail = specFailure(modelId);
  const input = normalisedInput(raw, fail, 'expected an object with url and format (openai) or a response mapping');
  const format = input.format;
  if (format !== undefined && format !== 'openai' && format !== 'custom') {
    return fail([`format: must be 'openai' (an OpenAI-compatible chat endpoint) or 'custom' (a body template and response mapping), not ${JSON.stringify(format)}`]);
  }
  const schema = format === 'openai' ? OpenAiEndpointSpecSchema : CustomMappingSpecSchema;
  const parsed = schema.safeParse(input);
  if (!parsed.success) return fail(issueLines(parsed.error, 'response: required for a custom mapping, e.g. { content: $.reply } (or set format: openai)'));
  const spec = parsed.data;
  if (spec.format === 'custom') {
    const problems: string[] = [];
    unknownPlaceholders(spec.body, 'body', problems);
    if (problems.length) fail(problems.map((p) => `${p}; known: ${TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(', ')}`));
  }
  return spec;
}

/** As parseCustomHttpSpec, for an embedding model's endpoint. */
export function parseEmbeddingEndpointSpec(raw: unknown, modelId: string): EmbeddingEndpointSpec {
  const fail = specFailure(modelId);
  const input = normalisedInput(raw, fail, 'expected an object with url and format (openai) or a response mapping to the vectors');
  const parsed = EmbeddingEndpointSpecSchema.safeParse(input);
  if (!parsed.success) return fail(issueLines(parsed.error, 'response: must be a mapping, e.g. { vectors: $.data[*].embedding }'));
  const spec = parsed.data;
  if (spec.format === 'custom') {
    if (!spec.response) fail(['response: required for a custom mapping, e.g. { vectors: $.data[*].embedding } (or set format: openai)']);
    const problems: string[] = [];
    unknownPlaceholders(spec.body, 'body', problems, EMBEDDING_TEMPLATE_VARIABLES);
    if (problems.length) fail(problems.map((p) => `${p}; known: ${EMBEDDING_TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(', ')}`));
  } else if (spec.response || spec.body !== undefined) {
    fail(['body/response: an openai-format endpoint takes neither (the OpenAI embeddings wire format is fixed)']);
  }
  return spec;
}

/**
 * Fills a body template. A string that is exactly one placeholder becomes the value itself
 * (`"{{messages}}"` → the array, `"{{temperature}}"` → a number); placeholders inside longer
 * strings are spliced in as text. Keys whose value is undefined are left out.
 */
export function renderTemplate(template: unknown, vars: Partial<Record<TemplateVariable | EmbeddingTemplateVariable, unknown>>): unknown {
  if (typeof template === 'string') {
    const whole = /^\{\{\s*([A-Za-z_]+)\s*\}\}$/.exec(template);
    if (whole) return vars[whole[1] as TemplateVariable | EmbeddingTemplateVariable];
    return template.replace(PLACEHOLDER, (_, name: string) => {
      const v = vars[name as TemplateVariable | EmbeddingTemplateVariable];
      return v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);
    });
  }
  if (Array.isArray(template)) return template.map((v) => renderTemplate(v, vars));
  if (template && typeof template === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(template)) {
      const rendered = renderTemplate(v, vars);
      if (rendered !== undefined) out[k] = rendered;
    }
    return out;
  }
  return template;
}
