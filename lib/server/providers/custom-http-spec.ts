/**
 * A system under test over HTTP (SPEC §2.5), as a blueprint writes it: either an
 * OpenAI-compatible chat endpoint (`format: openai`) or a custom JSON mapping (a body template
 * and JSONPaths into the reply). The schema is the type (STYLE.md habit 1). Header values can
 * only name environment variables, never hold a value, so a blueprint never carries a secret
 * (SPEC §10); which variables and which hosts are allowed is the maintainer's configuration.
 */
import { z } from 'zod';
import { AppError } from '../http/errors';

/** Placeholders a body template may use; `{{messages}}` is OpenAI-format, system turn included. */
export const TEMPLATE_VARIABLES = ['messages', 'last_user', 'system', 'model', 'temperature', 'max_tokens', 'tools', 'attempt'] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

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

const JsonPath = z.string().regex(/^\$/, 'must be a JSONPath starting with $, e.g. $.choices[0].message.content');

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

function unknownPlaceholders(template: unknown, path: string, out: string[]): void {
  if (typeof template === 'string') {
    for (const m of template.matchAll(PLACEHOLDER)) {
      if (!(TEMPLATE_VARIABLES as readonly string[]).includes(m[1]!)) out.push(`${path}: unknown placeholder {{${m[1]}}}`);
    }
  } else if (Array.isArray(template)) template.forEach((v, i) => unknownPlaceholders(v, `${path}[${i}]`, out));
  else if (template && typeof template === 'object') {
    for (const [k, v] of Object.entries(template)) unknownPlaceholders(v, `${path}.${k}`, out);
  }
}

/** Validates a spec as written; throws CustomHttpSpecError listing every problem and how to fix it. */
export function parseCustomHttpSpec(raw: unknown, modelId: string): CustomHttpSpec {
  const fail = (lines: string[]): never => {
    throw new CustomHttpSpecError(`HTTP model "${modelId}": invalid endpoint spec:\n${lines.map((l) => `  ${l}`).join('\n')}`);
  };
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return fail(['expected an object with url and format (openai) or a response mapping']);
  const input = { ...(raw as Record<string, unknown>) };
  // `endpoint` reads naturally in a blueprint; accept it for `url`.
  if (input.url === undefined && input.endpoint !== undefined) {
    input.url = input.endpoint;
    delete input.endpoint;
  }
  const format = input.format;
  if (format !== undefined && format !== 'openai' && format !== 'custom') {
    return fail([`format: must be 'openai' (an OpenAI-compatible chat endpoint) or 'custom' (a body template and response mapping), not ${JSON.stringify(format)}`]);
  }
  const schema = format === 'openai' ? OpenAiEndpointSpecSchema : CustomMappingSpecSchema;
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    return fail(
      parsed.error.issues.map((i) => {
        const where = i.path.length ? i.path.join('.') : '(spec)';
        if (i.code === 'unrecognized_keys') return `${where}: unknown key(s) ${i.keys.join(', ')}`;
        if (where === 'response' && i.code === 'invalid_type') return 'response: required for a custom mapping, e.g. { content: $.reply } (or set format: openai)';
        return `${where}: ${i.message}`;
      }),
    );
  }
  const spec = parsed.data;
  if (spec.format === 'custom') {
    const problems: string[] = [];
    unknownPlaceholders(spec.body, 'body', problems);
    if (problems.length) fail(problems.map((p) => `${p}; known: ${TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(', ')}`));
  }
  return spec;
}

/**
 * Fills a body template. A string that is exactly one placeholder becomes the value itself
 * (`"{{messages}}"` → the array, `"{{temperature}}"` → a number); placeholders inside longer
 * strings are spliced in as text. Keys whose value is undefined are left out.
 */
export function renderTemplate(template: unknown, vars: Partial<Record<TemplateVariable, unknown>>): unknown {
  if (typeof template === 'string') {
    const whole = /^\{\{\s*([A-Za-z_]+)\s*\}\}$/.exec(template);
    if (whole) return vars[whole[1] as TemplateVariable];
    return template.replace(PLACEHOLDER, (_, name: string) => {
      const v = vars[name as TemplateVariable];
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
