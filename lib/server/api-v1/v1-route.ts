/**
 * What every `/api/v1` route adds to `route()` (which validates the request and the answer and
 * maps errors to HTTP): a per-client rate limit before anything is read, and HTTP caching after
 * the answer is made (an ETag over its bytes, a 304 when the client already has them, and a
 * Cache-Control by what the answer is about: caching.ts). Error answers are never cached.
 */
import type { Db } from '../db/client';
import { enforceRateLimit, type RateLimit } from '../auth/rate-limit';
import type { RouteHandler, RouteSpec } from '../http/route';
import { CACHE_CONTROL, etagOf, matchesIfNoneMatch } from './caching';
import type { Endpoint } from './endpoints';

/**
 * Requests per client address and minute over the whole API. Enough to walk a run of 10,000
 * prompts at the largest page in one minute; a client past it gets a 429 with Retry-After.
 */
export const API_V1_LIMIT: RateLimit = { limit: 120, windowSeconds: 60 };

/** Counts a request against its client's limit; throws RateLimitedError (429) past it. */
export type ClientLimit = (request: Request) => Promise<void>;

/** The limit over the database, every app instance counting together (auth/rate-limit.ts). */
export function clientLimit(db: () => Db, clientAddress: (request: Request) => string, rule: RateLimit = API_V1_LIMIT): ClientLimit {
  return (request) => enforceRateLimit(db(), `api-v1:${clientAddress(request)}`, rule);
}

/** The route() spec of an endpoint: its schemas, and the client limit as the step before reading the request. */
export function v1Spec<P, Q, R>(endpoint: Endpoint<P, Q, R>, limit: ClientLimit): RouteSpec<P, Q, undefined, R, void> {
  return { params: endpoint.params, query: endpoint.query, response: endpoint.response, authenticate: limit };
}

/**
 * Wraps the route() handler of `endpoint`: a 200 gets its ETag and Cache-Control (or becomes a
 * 304 when `If-None-Match` names the tag); anything else is marked `no-store`. Every answer may be
 * read from any origin: the API is public and reads no cookie.
 */
export function cachedAnswer<P, Q, R>(endpoint: Endpoint<P, Q, R>, handler: RouteHandler): RouteHandler {
  return async (request, context) => {
    const response = await handler(request, context);
    if (response.status !== 200) {
      response.headers.set('cache-control', 'no-store');
      response.headers.set('access-control-allow-origin', '*');
      return response;
    }
    const body = await response.text();
    const etag = etagOf(body);
    // the body was validated against the endpoint's schema by route(): its freshness can read it
    const headers = {
      etag,
      'cache-control': CACHE_CONTROL[endpoint.freshness(JSON.parse(body) as R)],
      'access-control-allow-origin': '*',
      'access-control-expose-headers': 'ETag, Retry-After',
    };
    if (matchesIfNoneMatch(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
    return new Response(body, { status: 200, headers: { ...headers, 'content-type': 'application/json' } });
  };
}
