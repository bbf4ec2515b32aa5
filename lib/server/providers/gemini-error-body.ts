/**
 * What a Gemini error body says, read from the SDK's ApiError. @google/genai (js-genai
 * src/_api_client.ts, throwErrorIfNotOK) puts the whole JSON body in `ApiError.message`; the body is
 * a google.rpc.Status (Gemini API "Troubleshooting" page): `{error: {code, message, status, details}}`.
 * Gemini sends no `retry-after` header on a 429: how long to wait is only in the details, as a
 * `google.rpc.RetryInfo` whose `retryDelay` is a protobuf Duration ("30s", "1.5s", "45.837906927s").
 */

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface GeminiErrorBody {
  /** The provider's own sentence (`error.message`), or the raw text when the body is not Google's JSON. */
  message: string;
  /**
   * Machine-readable codes: `error.status` (RESOURCE_EXHAUSTED…), every ErrorInfo `reason`, and every
   * QuotaFailure violation's `quotaId` (…PerMinute…, …PerDay…: which quota a 429 is about).
   */
  codes: string[];
  /** RetryInfo.retryDelay in milliseconds, when the body has one. */
  retryAfterMs?: number;
}

/** A protobuf Duration in its JSON form ("30s", "1.5s") as milliseconds; undefined when it is not one. */
export function durationMs(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const m = /^(\d+(?:\.\d+)?)s$/.exec(text.trim());
  return m ? Math.round(Number(m[1]) * 1000) : undefined;
}

export function readGeminiErrorBody(raw: string): GeminiErrorBody {
  let body: unknown;
  try {
    body = JSON.parse(raw) as unknown;
  } catch {
    return { message: raw, codes: [] };
  }
  const error = isRecord(body) && isRecord(body.error) ? body.error : null;
  if (!error) return { message: raw, codes: [] };
  const details = Array.isArray(error.details) ? error.details.filter(isRecord) : [];
  const ofType = (type: string) => details.filter((d) => String(d['@type']).endsWith(`google.rpc.${type}`));
  const quotaIds = ofType('QuotaFailure').flatMap((d) => (Array.isArray(d.violations) ? d.violations.filter(isRecord).map((v) => v.quotaId) : []));
  const codes = [error.status, ...ofType('ErrorInfo').map((d) => d.reason), ...quotaIds].filter((c): c is string => typeof c === 'string');
  const retry = ofType('RetryInfo')[0];
  const retryAfterMs = durationMs(retry?.retryDelay);
  return { message: typeof error.message === 'string' ? error.message : raw, codes, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
}
