/**
 * Systems under test over HTTP: a team's own assistant, called either as an
 * OpenAI-compatible endpoint (the OpenAI adapter at another URL) or through a custom JSON
 * mapping. The blueprint says where and how; the maintainer's configuration says which
 * hosts may be called and which environment variables may fill headers, so a
 * blueprint can neither reach an arbitrary URL nor send a secret anywhere.
 */
import { selectJsonPath, servedFrom } from '@/lib/core';
import { attemptHeaders } from './attempt-header';
import { HTTP_MODEL_PROVIDER } from './catalog';
import { bodyFault, errorText, httpError, malformedError, networkError } from './classify';
import { costUsd } from './cost';
import type { ExposedVariable } from './custom-http-env';
import { CustomHttpSpecError, parseCustomHttpSpec, renderTemplate, type CustomHttpSpec, type CustomMappingSpec } from './custom-http-spec';
import { DEFAULT_TIMEOUT_MS, isAbortError, withDeadline } from './deadline';
import { OpenAiCompatibleClient, toOpenAiMessages } from './openai-compatible';
import { normaliseToolCalls } from './tool-calls';
import { ProviderError, type ChatRequest, type ChatResponse, type LlmClient, type Usage } from './types';

export const CUSTOM_PROVIDER = HTTP_MODEL_PROVIDER.name;

export interface CustomHttpContext {
  /** Origins (`https://bot.example.org`) HTTP models may call: the maintainer's allow-list. */
  allowedOrigins: readonly string[];
  /** The environment variables the maintainer exposes to HTTP model headers, each bound to its origins (ASSAY_HTTP_MODEL_ENV). */
  env: Readonly<Record<string, ExposedVariable>>;
  defaultTimeoutMs?: number;
}

/** Where the allow-lists come from, named in error messages so the fix is obvious. */
export const ORIGINS_ENV = 'ASSAY_HTTP_MODEL_ORIGINS';
export const HEADER_ENV_LIST = 'ASSAY_HTTP_MODEL_ENV';

const DEFAULT_BODY = { messages: '{{messages}}' };

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

function checkOrigin(id: string, url: string, allowed: readonly string[]): void {
  const origin = originOf(url);
  const ok = allowed.map(originOf).filter((o): o is string => o !== null);
  if (origin && ok.includes(origin)) return;
  throw new CustomHttpSpecError(
    `HTTP model "${id}": ${origin ?? url} is not an allowed endpoint. A maintainer must list it in ${ORIGINS_ENV} ` +
      `(comma-separated origins, e.g. ${origin ?? 'https://bot.example.org'}); blueprints cannot call arbitrary URLs.`,
  );
}

function resolveHeaders(id: string, spec: Pick<CustomHttpSpec, 'url' | 'headers'>, env: CustomHttpContext['env']): { headers: Record<string, string>; secrets: string[] } {
  const headers: Record<string, string> = {};
  const secrets: string[] = [];
  const origin = originOf(spec.url);
  for (const [name, ref] of Object.entries(spec.headers ?? {})) {
    const exposed = Object.hasOwn(env, ref.env) ? env[ref.env] : undefined;
    if (!exposed) {
      throw new CustomHttpSpecError(
        `HTTP model "${id}": header ${name} reads ${ref.env}, which is not exposed to HTTP models. A maintainer must add ${ref.env}@${origin ?? 'https://…'} to ${HEADER_ENV_LIST}.`,
      );
    }
    // bound to origins: a token for one endpoint is never sent to another allow-listed one
    if (!origin || !exposed.origins.includes(origin)) {
      throw new CustomHttpSpecError(
        `HTTP model "${id}": header ${name} reads ${ref.env}, which may be sent only to ${exposed.origins.join(', ') || 'no origin'}, not to ${origin ?? spec.url}. ` +
          `A maintainer binds it with ${ref.env}@${origin ?? 'https://…'} in ${HEADER_ENV_LIST}.`,
      );
    }
    const value = exposed.value;
    if (!value) throw new CustomHttpSpecError(`HTTP model "${id}": header ${name} reads ${ref.env}, which is not set. Set ${ref.env} in the server's environment.`);
    headers[name] = `${ref.prefix ?? ''}${value}`;
    secrets.push(value);
  }
  return { headers, secrets };
}

/** Reads content, tool calls and usage out of a custom reply through the spec's JSONPaths. */
export function mapCustomResponse(
  json: unknown,
  mapping: CustomMappingSpec['response'],
  ctx: { provider: string; model: string; latencyMs: number; headers?: Headers | null },
): ChatResponse {
  // RFC 9535 JSONPath through the one evaluator of untrusted paths (lib/core/untrusted: no scripts); the spec schema refuses bad paths.
  const query = (path: string): unknown[] => {
    const selected = selectJsonPath(path, json);
    if (!selected.ok) throw malformedError(ctx.provider, selected.message);
    return selected.values;
  };
  const found = query(mapping.content);
  if (found.length === 0) {
    throw malformedError(ctx.provider, `response.content ${mapping.content} matched nothing in ${JSON.stringify(json).slice(0, 200)}`);
  }
  const first = found[0];
  const content = first == null ? '' : typeof first === 'string' ? first : JSON.stringify(first);
  let toolCalls: ChatResponse['toolCalls'] = [];
  if (mapping.tool_calls) {
    const calls = query(mapping.tool_calls);
    toolCalls = normaliseToolCalls(calls.length === 1 && Array.isArray(calls[0]) ? calls[0] : calls);
  }
  const number = (path: string | undefined): number | undefined => {
    const v = path ? query(path)[0] : undefined;
    return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
  };
  const prompt = number(mapping.prompt_tokens);
  const completion = number(mapping.completion_tokens);
  const usage: Usage | null = prompt === undefined && completion === undefined ? null : { promptTokens: prompt ?? 0, completionTokens: completion ?? 0 };
  // What the system says it is: the mapping's paths, else the top-level `model` / `system_fingerprint` the OpenAI shape uses.
  const served = servedFrom({
    model: query(mapping.model ?? '$.model')[0],
    fingerprint: query(mapping.fingerprint ?? '$.system_fingerprint')[0],
    responseId: query('$.id')[0],
    headers: ctx.headers ?? null,
  });
  return { content, toolCalls, finishReason: null, usage, costUsd: costUsd(ctx.model, usage), logprobs: null, latencyMs: ctx.latencyMs, served, structured: json };
}

export function templateVariables(req: ChatRequest): Record<string, unknown> {
  const system = req.messages.filter((m) => m.role === 'system').map((m) => m.content ?? '');
  const lastUser = [...req.messages].reverse().find((m) => m.role === 'user');
  return {
    messages: toOpenAiMessages(req.messages),
    last_user: lastUser?.content ?? '',
    system: system.length ? system.join('\n\n') : undefined,
    model: req.model,
    temperature: req.temperature,
    max_tokens: req.maxTokens,
    tools: req.tools,
    attempt: req.attempt,
  };
}

/**
 * One JSON request to an HTTP model, classified like every provider's: a network failure is
 * retryable, an HTTP error by its status, an empty, cut-off or HTML 200 a transport fault, any
 * other unreadable body malformed. Redirects are not followed: the allow-list covers only the URL
 * as written.
 */
export async function postJson(init: {
  provider: string;
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal;
  secrets: readonly string[];
}): Promise<{ json: unknown; headers: Headers }> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(init.url, {
      method: init.method,
      headers: { 'content-type': 'application/json', accept: 'application/json', ...init.headers },
      body: JSON.stringify(init.body),
      signal: init.signal,
      redirect: 'manual',
    });
    text = await res.text();
  } catch (e) {
    if (isAbortError(e) || e instanceof ProviderError) throw e;
    throw networkError(init.provider, errorText(e), init.secrets);
  }
  if (!res.ok) throw httpError({ provider: init.provider, status: res.status, headers: res.headers, detail: text.slice(0, 300), secrets: init.secrets });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Empty, cut off or an HTML page: a transport fault (retried), as for every provider.
    throw bodyFault(init.provider, text, init.secrets) ?? malformedError(init.provider, `not JSON: ${text.slice(0, 200)}`, init.secrets);
  }
  const fault = bodyFault(init.provider, json, init.secrets);
  if (fault) throw fault;
  return { json, headers: res.headers };
}

class CustomMappingClient implements LlmClient {
  readonly provider = CUSTOM_PROVIDER;
  readonly #spec: CustomMappingSpec;
  readonly #headers: Record<string, string>;
  readonly #secrets: string[];
  readonly #timeoutMs: number;

  constructor(spec: CustomMappingSpec, headers: Record<string, string>, secrets: string[], timeoutMs: number) {
    this.#spec = spec;
    this.#headers = headers;
    this.#secrets = secrets;
    this.#timeoutMs = timeoutMs;
  }

  chat(req: ChatRequest): Promise<ChatResponse> {
    const timeoutMs = req.timeoutMs ?? this.#timeoutMs;
    const started = performance.now();
    const spec = this.#spec;
    return withDeadline({ provider: this.provider, timeoutMs, signal: req.signal }, async (signal) => {
      const body = renderTemplate(spec.body ?? DEFAULT_BODY, templateVariables(req));
      const { json, headers } = await postJson({ provider: this.provider, url: spec.url, method: spec.method, headers: { ...this.#headers, ...attemptHeaders(req) }, body, signal, secrets: this.#secrets });
      return mapCustomResponse(json, spec.response, { provider: this.provider, model: req.model, latencyMs: performance.now() - started, headers });
    });
  }
}

/**
 * Validates a custom model object and builds its client. Throws CustomHttpSpecError (clear,
 * with the fix) for a bad spec, a host not on the allow-list, or a header variable that is not
 * exposed or not set.
 */
/**
 * What an HTTP model needs before any request (chat or embeddings): its origin allowed, its
 * header variables resolved, its timeout and model name.
 */
export function customEndpoint(id: string, spec: Pick<CustomHttpSpec, 'url' | 'headers' | 'timeoutMs' | 'model'>, ctx: CustomHttpContext): { headers: Record<string, string>; secrets: string[]; timeoutMs: number; model: string } {
  checkOrigin(id, spec.url, ctx.allowedOrigins);
  const { headers, secrets } = resolveHeaders(id, spec, ctx.env);
  return { headers, secrets, timeoutMs: spec.timeoutMs ?? ctx.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS, model: spec.model ?? id };
}

/** Headers for the OpenAI SDK at an HTTP model: the SDK's Authorization (a placeholder key) removed unless the spec sets one. */
export function sdkHeaders(headers: Record<string, string>): Record<string, string | null> {
  const hasAuth = Object.keys(headers).some((h) => h.toLowerCase() === 'authorization');
  return { ...headers, ...(hasAuth ? {} : { Authorization: null }) };
}

export function createCustomHttpClient(id: string, rawSpec: unknown, ctx: CustomHttpContext): { client: LlmClient; model: string } {
  const spec = parseCustomHttpSpec(rawSpec, id);
  const { headers, secrets, timeoutMs, model } = customEndpoint(id, spec, ctx);
  if (spec.format === 'openai') {
    const client = new OpenAiCompatibleClient({
      provider: CUSTOM_PROVIDER,
      // The SDK appends /chat/completions itself.
      baseURL: spec.url.replace(/\/chat\/completions\/?$/, ''),
      // The SDK insists on a key; it is never sent (Authorization is removed unless the spec sets it).
      apiKey: 'assay-no-key',
      defaultHeaders: sdkHeaders(headers),
      defaultTimeoutMs: timeoutMs,
      secrets,
      noRedirects: true,
    });
    return { client, model };
  }
  return { client: new CustomMappingClient(spec, headers, secrets, timeoutMs), model };
}
