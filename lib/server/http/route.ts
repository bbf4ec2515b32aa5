/**
 * The one wrapper for API route handlers: authenticate, validate the
 * request (params, query, body) and the response with zod, and map every error to HTTP in
 * one place. A handler returns data (validated against `response`, sent as JSON) or, for
 * redirects and other non-JSON replies, a `Response` that is passed through as is.
 */
import { type z } from 'zod';
import { AppError, BadRequestError, RateLimitedError, UnauthorizedError } from './errors';
import { refuseUnstorableInput } from './unstorable-input';

export interface RouteInput<TParams, TQuery, TBody, TPrincipal> {
  params: TParams;
  query: TQuery;
  body: TBody;
  /** The body's exact text when the spec asks for `rawBody` (webhook signatures), else ''. */
  rawBody: string;
  principal: TPrincipal;
  request: Request;
}

export interface RouteSpec<TParams, TQuery, TBody, TResult, TPrincipal> {
  params?: z.ZodType<TParams>;
  query?: z.ZodType<TQuery>;
  /** JSON or form-encoded body; form fields arrive as strings (use z.coerce where needed). */
  body?: z.ZodType<TBody>;
  /** Keep the body's exact text (signatures are computed over bytes, not over parsed JSON). */
  rawBody?: boolean;
  response: z.ZodType<TResult>;
  /** HTTP status of a successful JSON reply (default 200). */
  status?: number;
  /** Runs before the body is read: authentication and rate limits. Throw an AppError to refuse. */
  authenticate?: (request: Request) => Promise<TPrincipal>;
  /** Largest body accepted, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /**
   * For HTML form posts (application/x-www-form-urlencoded) from Assay's own pages: errors
   * redirect (303) to this path with `?error=<message>` instead of answering JSON.
   */
  formErrorsTo?: string;
  /**
   * For routes a browser navigates to (a link, GitHub's redirect back): every error redirects
   * (303) to this page with `?error=<message>`, so the reader lands on a page that says what is
   * wrong, never on a JSON error body.
   */
  pageErrorsTo?: string;
  /** Headers of every reply of this route, errors included (e.g. `cache-control: no-store` for polled JSON). */
  headers?: Record<string, string>;
}

/** What Next passes as the second argument of a route handler. */
export interface RouteContext {
  params?: Promise<unknown>;
}

export type RouteHandler = (request: Request, context?: RouteContext) => Promise<Response>;

const DEFAULT_MAX_BODY = 1024 * 1024;

export function route<TParams = undefined, TQuery = undefined, TBody = undefined, TResult = unknown, TPrincipal = undefined>(
  spec: RouteSpec<TParams, TQuery, TBody, TResult, TPrincipal>,
  handler: (input: RouteInput<TParams, TQuery, TBody, TPrincipal>) => Promise<TResult | Response>,
): RouteHandler {
  return async (request, context) => withHeaders(await answer(request, context), spec.headers);
  async function answer(request: Request, context?: RouteContext): Promise<Response> {
    try {
      const principal = spec.authenticate ? await spec.authenticate(request) : (undefined as TPrincipal);
      const params = spec.params ? validate('path parameters', spec.params, await context?.params) : (undefined as TParams);
      const query = spec.query
        ? validate('query', spec.query, Object.fromEntries(new URL(request.url).searchParams))
        : (undefined as TQuery);
      const text = spec.body || spec.rawBody ? await readBody(request, spec.maxBodyBytes ?? DEFAULT_MAX_BODY) : '';
      const body = spec.body ? validate('body', spec.body, decodeBody(request, text)) : (undefined as TBody);
      const result = await handler({ params, query, body, rawBody: spec.rawBody ? text : '', principal, request });
      if (result instanceof Response) return result;
      const checked = spec.response.safeParse(result);
      if (!checked.success) {
        // The handler broke its own contract: a bug on our side, never the client's.
        console.error(`route ${new URL(request.url).pathname}: response failed its schema`, checked.error.issues);
        return errorResponse(new AppError('internal', 500, 'Internal error: the response did not match its schema.'));
      }
      return Response.json(checked.data, { status: spec.status ?? 200 });
    } catch (e) {
      if (spec.formErrorsTo && isFormPost(request)) return formErrorRedirect(spec.formErrorsTo, e);
      if (spec.pageErrorsTo) return formErrorRedirect(spec.pageErrorsTo, e);
      return errorResponse(e);
    }
  }
}

function withHeaders(response: Response, headers: Record<string, string> | undefined): Response {
  if (!headers) return response;
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export function isFormPost(request: Request): boolean {
  return (request.headers.get('content-type') ?? '').includes('application/x-www-form-urlencoded');
}

function formErrorRedirect(path: string, e: unknown): Response {
  const message = e instanceof AppError ? e.message : 'Something went wrong; the server log has the details.';
  if (!(e instanceof AppError)) console.error('unhandled error in form post:', e);
  const sep = path.includes('?') ? '&' : '?';
  return new Response(null, { status: 303, headers: { Location: `${path}${sep}error=${encodeURIComponent(message)}` } });
}

function validate<T>(what: string, schema: z.ZodType<T>, value: unknown): T {
  refuseUnstorableInput(what, value);
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  const first = issues[0];
  throw new BadRequestError(`Invalid ${what}${first ? `: ${first.path ? `${first.path}: ` : ''}${first.message}` : ''}`, { issues });
}

async function readBody(request: Request, max: number): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > max) throw new AppError('payload_too_large', 413, `The body is larger than ${max} bytes.`);
  const text = await request.text();
  if (Buffer.byteLength(text) > max) throw new AppError('payload_too_large', 413, `The body is larger than ${max} bytes.`);
  return text;
}

function decodeBody(request: Request, text: string): unknown {
  const type = request.headers.get('content-type') ?? '';
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequestError('The body is not valid JSON; send `Content-Type: application/json` with a JSON object.');
  }
}

/** The one mapping of errors to HTTP responses: `{ error: { code, message, details? } }`. */
export function errorResponse(e: unknown): Response {
  if (e instanceof AppError) {
    const headers = new Headers();
    if (e instanceof RateLimitedError) headers.set('Retry-After', String(e.retryAfterSeconds));
    if (e instanceof UnauthorizedError) headers.set('WWW-Authenticate', 'Bearer');
    const error = { code: e.code, message: e.message, ...(e.details === undefined ? {} : { details: e.details }) };
    return Response.json({ error }, { status: e.status, headers });
  }
  console.error('unhandled error in route:', e);
  return Response.json({ error: { code: 'internal', message: 'Internal error; the server log has the details.' } }, { status: 500 });
}
