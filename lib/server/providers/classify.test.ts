import { describe, expect, it } from 'vitest';
import { classifySdkError, httpError, kindForStatus, parseRetryAfter, redact, type SdkErrorKinds } from './classify';
import { ProviderError } from './types';

describe('parseRetryAfter', () => {
  const now = () => Date.parse('2025-01-01T00:00:00Z');

  it('reads retry-after-ms, retry-after in (fractional) seconds, and an HTTP date', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(parseRetryAfter(new Headers({ 'retry-after': '0.05' }))).toBe(50);
    expect(parseRetryAfter({ 'Retry-After': '3' })).toBe(3000);
    expect(parseRetryAfter({ 'retry-after': 'Wed, 01 Jan 2025 00:00:02 GMT' }, now)).toBe(2000);
    expect(parseRetryAfter({ 'retry-after': 'Tue, 31 Dec 2024 23:00:00 GMT' }, now)).toBe(0);
  });

  it('is undefined when absent or unreadable', () => {
    expect(parseRetryAfter(new Headers())).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': 'soon' })).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe('classification', () => {
  it('maps statuses to kinds', () => {
    expect([429, 401, 403, 400, 404, 422, 408, 500, 503, 529].map(kindForStatus)).toEqual([
      'rate_limited',
      'auth',
      'auth',
      'bad_request',
      'bad_request',
      'bad_request',
      'retryable',
      'retryable',
      'retryable',
      'retryable',
    ]);
  });

  it('reads an account out of credit or quota as `quota`, whatever its status, and never retries it', () => {
    expect(kindForStatus(402)).toBe('quota');
    // OpenAI's insufficient_quota comes as a 429, like a rate limit; waiting does not fix it
    const openai = httpError({ provider: 'openai', status: 429, headers: { 'retry-after': '1' }, detail: 'You exceeded your current quota', codes: ['insufficient_quota', 'insufficient_quota'] });
    expect(openai).toMatchObject({ kind: 'quota', retryable: false, retryAfterMs: undefined });
    expect(openai.message).toMatch(/no credit or quota left.*no further calls/);
    expect(openai.message).not.toMatch(/concurrency/);
    // Anthropic's spend limit is a 429 rate_limit_error with details.error_code
    expect(httpError({ provider: 'anthropic', status: 429, codes: ['rate_limit_error', 'enforced_spend_limit_reached'] }).kind).toBe('quota');
    expect(httpError({ provider: 'anthropic', status: 400, codes: ['billing_error', null] }).kind).toBe('quota');
    // an ordinary rate limit stays one
    expect(httpError({ provider: 'openai', status: 429, codes: ['rate_limit_exceeded', 'requests'] }).kind).toBe('rate_limited');
  });

  it('builds a message that says what to do, carries retry-after, and redacts secrets', () => {
    const e = httpError({ provider: 'openai', status: 401, detail: '401 Incorrect API key provided: sk-abcdefghijklmnop', secrets: ['sk-abcdefghijklmnop'] });
    expect(e.message).toBe('openai: HTTP 401: Incorrect API key provided: [redacted] (check the API key for this provider)');
    expect(httpError({ provider: 'groq', status: 429, headers: { 'retry-after': '2' } })).toMatchObject({ kind: 'rate_limited', retryAfterMs: 2000 });
  });

  it('redacts known secrets, bearer tokens and sk- keys it was not told about', () => {
    expect(redact('key=hunter2-secret; Authorization: Bearer abc.def; other sk-proj-ABCDEFGHIJKLMNOP', ['hunter2-secret'])).toBe(
      'key=[redacted]; Authorization: Bearer [redacted]; other sk-pro…[redacted]',
    );
  });
});

describe('the shared SDK classifier', () => {
  class Abort extends Error {}
  class Timeout extends Error {}
  class Conn extends Error {}
  class Http extends Error {
    constructor(readonly status: number, readonly headers: Record<string, string>) {
      super(`${status} no`);
    }
  }
  const sdk: SdkErrorKinds = {
    isAbort: (e) => e instanceof Abort,
    isTimeout: (e) => e instanceof Timeout,
    isConnection: (e) => e instanceof Conn,
    http: (e) => (e instanceof Http ? { status: e.status, headers: e.headers, message: `${e.message} sk-secretsecretsecret` } : null),
  };
  const kind = (e: unknown) => (classifySdkError(e, sdk, 'p', ['k3y!']) as ProviderError).kind;

  it('passes aborts and ProviderErrors through untouched', () => {
    const abort = new Abort('stop');
    expect(classifySdkError(abort, sdk, 'p')).toBe(abort);
    const pe = new ProviderError({ kind: 'auth', provider: 'p', message: 'x' });
    expect(classifySdkError(pe, sdk, 'p')).toBe(pe);
  });

  it('names each failure by its kind, with retry-after and redaction from the HTTP status', () => {
    expect(kind(new Timeout())).toBe('timeout');
    expect(kind(new Conn('ECONNREFUSED'))).toBe('retryable');
    const limited = classifySdkError(new Http(429, { 'retry-after': '2' }), sdk, 'p') as ProviderError;
    expect(limited).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 2000 });
    expect(limited.message).not.toContain('secretsecret');
    expect(kind(new Http(401, {}))).toBe('auth');
    expect(kind(new SyntaxError('Unexpected end of JSON input'))).toBe('transport');
    expect(kind(new Error('what is this'))).toBe('malformed');
  });

  it('leaves the timeout out for an SDK without one', () => {
    expect((classifySdkError(new Timeout('late'), { ...sdk, isTimeout: undefined }, 'p') as ProviderError).kind).toBe('malformed');
  });
});
