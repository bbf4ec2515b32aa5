/**
 * The shared half of error classification: every adapter maps its own SDK's errors to an HTTP
 * status and headers, then lets these helpers decide the kind, so 429/5xx/401 mean the same
 * thing whichever provider said them.
 */
import { ProviderError, type ProviderErrorKind } from './types';

export type HeaderSource = Headers | Record<string, string | string[] | undefined> | null | undefined;

function header(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Milliseconds to wait, from `retry-after-ms` (OpenAI, Anthropic), `retry-after` in seconds
 * (fractions allowed) or `retry-after` as an HTTP date; undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: HeaderSource, now: () => number = Date.now): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const value = header(headers, 'retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now());
}

/**
 * The providers' own codes for an account out of credit or quota, whatever the status they come
 * with: OpenAI's 429 `insufficient_quota` (OpenAI's "Error codes" guide: "You exceeded your current
 * quota, please check your plan and billing details"), Anthropic's `billing_error` and the
 * `details.error_code` that names a spend limit (@anthropic-ai/sdk resources/shared.ts ErrorType
 * and ErrorDetails: `enforced_spend_limit_reached` "crossed the monthly API usage threshold of its
 * API tier", `contract_spend_limit_reached`). Waiting does not help any of them, unlike a rate limit.
 */
const QUOTA_CODES: ReadonlySet<string> = new Set(['insufficient_quota', 'billing_error', 'enforced_spend_limit_reached', 'contract_spend_limit_reached']);

/**
 * Gemini's QuotaFailure names the quota a 429 is about (`GenerateRequestsPerDayPerProjectPerModel-FreeTier`);
 * a per-day quota resets at midnight Pacific time (Gemini API "Rate limits": "Requests per day (RPD)
 * quotas reset at midnight Pacific time"), so within a run it is an exhausted quota, not a rate limit.
 */
const DAILY_QUOTA_ID = /PerDay/;

/** Whether an error body's codes (error.code, error.type, a quota's id…) say the account is out of credit or quota. */
export function isQuotaCode(codes: readonly (string | null | undefined)[]): boolean {
  return codes.some((c) => typeof c === 'string' && (QUOTA_CODES.has(c) || DAILY_QUOTA_ID.test(c)));
}

export function kindForStatus(status: number): ProviderErrorKind {
  // 402 Payment Required: OpenRouter's "insufficient credits" (OpenRouter docs, "Errors"), Anthropic's billing_error.
  if (status === 402) return 'quota';
  if (status === 429) return 'rate_limited';
  if (status === 401 || status === 403) return 'auth';
  // 408 (request timeout) and 409 (conflict, e.g. a lock) are transient by definition.
  if (status === 408 || status === 409 || status >= 500) return 'retryable';
  return 'bad_request';
}

const HINTS: Partial<Record<ProviderErrorKind, string>> = {
  auth: 'check the API key for this provider',
  rate_limited: 'rate limited; lower the concurrency for this provider or retry later',
  quota: 'the account has no credit or quota left: add credit or raise the limit with the provider; this run makes no further calls to it',
};

/** A ProviderError for an HTTP failure; `detail` is the provider's own message, redacted. */
export function httpError(init: {
  provider: string;
  status: number;
  headers?: HeaderSource;
  detail?: string;
  /** The provider's machine-readable codes from the error body (OpenAI `code`/`type`, Anthropic `type`/`details.error_code`). */
  codes?: readonly (string | null | undefined)[];
  secrets?: readonly (string | undefined)[];
}): ProviderError {
  const kind = isQuotaCode(init.codes ?? []) ? 'quota' : kindForStatus(init.status);
  // SDK messages often start with the status again ("429 Rate limit…"); say it once.
  const detail = init.detail ? redact(init.detail.replace(/^\d{3}\s+/, ''), init.secrets ?? []).slice(0, 500) : '';
  const hint = HINTS[kind];
  const message = `${init.provider}: HTTP ${init.status}${detail ? `: ${detail}` : ''}${hint ? ` (${hint})` : ''}`;
  const retryAfterMs = kind === 'rate_limited' || kind === 'retryable' ? parseRetryAfter(init.headers) : undefined;
  return new ProviderError({ kind, provider: init.provider, status: init.status, message, retryAfterMs });
}

/** What one SDK's errors are: the only part of classifying an SDK's failure that differs between SDKs. */
export interface SdkErrorKinds {
  /** The caller's own abort (our deadline or the run's signal): passed through for withDeadline to explain. */
  isAbort(e: unknown): boolean;
  /** The SDK's own timeout, when it has one. */
  isTimeout?(e: unknown): boolean;
  /** The request never got an answer (refused, reset, DNS). */
  isConnection(e: unknown): boolean;
  /** The HTTP failure the error carries, or null when it carries none. */
  http(e: unknown): { status: number; headers?: HeaderSource; message: string; codes?: readonly (string | null | undefined)[] } | null;
}

/**
 * The one classifier for SDK-based adapters (Anthropic, Google): abort → as is; timeout;
 * HTTP status → kind by `kindForStatus`; connection → retryable; anything else thrown while
 * reading the reply → transport or malformed.
 */
export function classifySdkError(e: unknown, sdk: SdkErrorKinds, provider: string, secrets: readonly (string | undefined)[] = []): unknown {
  if (sdk.isAbort(e) || e instanceof ProviderError) return e;
  if (sdk.isTimeout?.(e)) return new ProviderError({ kind: 'timeout', provider, message: `${provider}: request timed out` });
  const http = sdk.http(e);
  if (http) return httpError({ provider, status: http.status, headers: http.headers, detail: http.message, ...(http.codes ? { codes: http.codes } : {}), secrets });
  if (sdk.isConnection(e)) return networkError(provider, errorText(e), secrets);
  return unreadableReply(provider, e, secrets);
}

/** Runs one SDK call, its failure classified by `classifySdkError` (the batch adapters' calls). */
export async function classifiedSdkCall<T>(fn: () => Promise<T>, sdk: SdkErrorKinds, provider: string, secrets: readonly (string | undefined)[] = []): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw classifySdkError(e, sdk, provider, secrets);
  }
}

/** A network failure (refused, reset, DNS): the request may not have arrived, so try again. */
export function networkError(provider: string, detail: string, secrets: readonly (string | undefined)[] = []): ProviderError {
  return new ProviderError({ kind: 'retryable', provider, message: `${provider}: network error: ${redact(detail, secrets)}` });
}

/**
 * The one classifier of replies that did not arrive whole (these used to be never retried, and
 * 5 of 36 replies were lost in a chaos run; docs/runs.md, "Transport faults are retried"). A 200
 * whose body is empty, cut off mid-JSON, or an HTML/text page (a proxy's or load balancer's error
 * page) says nothing about the request: it is a `transport` fault, retried with backoff like a
 * reset connection. `null`: the body is a JSON object, so whatever is wrong with it is the
 * provider's answer.
 */
export function bodyFault(provider: string, body: unknown, secrets: readonly (string | undefined)[] = []): ProviderError | null {
  if (body !== null && typeof body === 'object') return null;
  const text = typeof body === 'string' ? body : body === undefined || body === null ? '' : String(body);
  const what = text.trim() === '' ? 'an empty body' : /^\s*</.test(text) ? 'an HTML page' : 'a body that is not JSON';
  return transportError(provider, `expected a JSON reply, got ${what}${text.trim() ? `: ${text.trim().slice(0, 120)}` : ''}`, secrets);
}

/** An error thrown while reading a 200's body: a truncated or empty JSON body, or a dropped connection mid-body. */
export function isTransportFault(e: unknown): boolean {
  if (e instanceof SyntaxError) return true; // JSON.parse of a cut-off or empty body
  if (e instanceof TypeError && /terminated|other side closed|body|socket|premature close/i.test(errorText(e))) return true;
  const code = (e as { code?: unknown; cause?: { code?: unknown } } | null)?.cause?.code ?? (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(UND_ERR_SOCKET|ECONNRESET|UND_ERR_BODY_TIMEOUT|ERR_STREAM_PREMATURE_CLOSE)$/.test(code);
}

export function transportError(provider: string, detail: string, secrets: readonly (string | undefined)[] = []): ProviderError {
  return new ProviderError({ kind: 'transport', provider, message: `${provider}: transport error: ${redact(detail, secrets).slice(0, 300)}` });
}

/** The fallback of every adapter's classifier: a transport fault, or else a malformed reply. */
export function unreadableReply(provider: string, e: unknown, secrets: readonly (string | undefined)[] = []): ProviderError {
  return isTransportFault(e) ? transportError(provider, `the reply was cut off or empty (${errorText(e)})`, secrets) : malformedError(provider, errorText(e), secrets);
}

/** A reply that arrived but cannot be read as an answer. */
export function malformedError(provider: string, detail: string, secrets: readonly (string | undefined)[] = []): ProviderError {
  return new ProviderError({ kind: 'malformed', provider, message: `${provider}: malformed reply: ${redact(detail, secrets)}` });
}

/**
 * Replaces every secret (and any `Bearer …`/`sk-…`-looking token) in a text, so an error
 * message, log line or stored reason can never carry a key even if a provider echoes it.
 */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join('[redacted]');
  }
  return out.replace(/(Bearer\s+)[^\s"',;]+/gi, '$1[redacted]').replace(/\b(sk-[A-Za-z0-9_-]{3})[A-Za-z0-9_-]{8,}/g, '$1…[redacted]');
}

export function errorText(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as { cause?: unknown }).cause;
    return cause instanceof Error && cause.message && !e.message.includes(cause.message) ? `${e.message}: ${cause.message}` : e.message;
  }
  return String(e);
}
