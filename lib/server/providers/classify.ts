/**
 * The shared half of error classification: every adapter maps its own SDK's errors to an HTTP
 * status and headers, then lets these helpers decide the kind, so 429/5xx/401 mean the same
 * thing whichever provider said them.
 */
import { ProviderError, type ProviderErrorKind } from './types';

type HeaderSource = Headers | Record<string, string | string[] | undefined> | null | undefined;

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

export function kindForStatus(status: number): ProviderErrorKind {
  if (status === 429) return 'rate_limited';
  if (status === 401 || status === 403) return 'auth';
  // 408 (request timeout) and 409 (conflict, e.g. a lock) are transient by definition.
  if (status === 408 || status === 409 || status >= 500) return 'retryable';
  return 'bad_request';
}

const HINTS: Partial<Record<ProviderErrorKind, string>> = {
  auth: 'check the API key for this provider',
  rate_limited: 'rate limited; lower the concurrency for this provider or retry later',
};

/** A ProviderError for an HTTP failure; `detail` is the provider's own message, redacted. */
export function httpError(init: {
  provider: string;
  status: number;
  headers?: HeaderSource;
  detail?: string;
  secrets?: readonly (string | undefined)[];
}): ProviderError {
  const kind = kindForStatus(init.status);
  // SDK messages often start with the status again ("429 Rate limit…"); say it once.
  const detail = init.detail ? redact(init.detail.replace(/^\d{3}\s+/, ''), init.secrets ?? []).slice(0, 500) : '';
  const hint = HINTS[kind];
  const message = `${init.provider}: HTTP ${init.status}${detail ? `: ${detail}` : ''}${hint ? ` (${hint})` : ''}`;
  const retryAfterMs = kind === 'rate_limited' || kind === 'retryable' ? parseRetryAfter(init.headers) : undefined;
  return new ProviderError({ kind, provider: init.provider, status: init.status, message, retryAfterMs });
}

/** A network failure (refused, reset, DNS): the request may not have arrived, so try again. */
export function networkError(provider: string, detail: string, secrets: readonly (string | undefined)[] = []): ProviderError {
  return new ProviderError({ kind: 'retryable', provider, message: `${provider}: network error: ${redact(detail, secrets)}` });
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
