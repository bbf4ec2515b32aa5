/**
 * A `fetch` for the provider SDKs' JSON calls, over Node's own HTTP client (node:http/https with
 * keep-alive agents) instead of the global fetch. The global fetch (undici's WHATWG fetch) was
 * the pipeline's biggest JavaScript cost per provider call: its Request, Headers and stream
 * objects, built for every call and every reply (docs/runs.md has the figures). The body the SDK
 * reads is buffered whole, which is what it does with a JSON reply anyway.
 *
 * Only requests whose body is a string (or none) take this path; anything else (the Batch API's
 * multipart uploads, a stream) goes to the global fetch unchanged. `redirect: 'manual'` is what
 * Node's client does anyway (it never follows redirects); a redirect reaches the SDK as the 3xx
 * response it is, as with fetch's manual mode, and any other `redirect` is left to the global fetch.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

type Fetch = typeof globalThis.fetch;

// one pool per process, as undici's global dispatcher is: kept-alive sockets serve the next call
const httpAgent = new HttpAgent({ keepAlive: true });
const httpsAgent = new HttpsAgent({ keepAlive: true });

/** The request's headers as Node's client takes them. */
function headerRecord(headers: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  if (headers instanceof Headers) headers.forEach((v, k) => (out[k] = v));
  else if (Array.isArray(headers)) for (const [k, v] of headers) out[k!.toLowerCase()] = v!;
  else for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = String(v);
  return out;
}

function responseHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** Whether this call can go over node:http: a string body (or none), no redirect following asked for. */
function handled(input: RequestInfo | URL, init: RequestInit | undefined): init is RequestInit {
  if (typeof input !== 'string' && !(input instanceof URL)) return false;
  if (!init) return true;
  if (init.body != null && typeof init.body !== 'string') return false;
  return init.redirect === undefined || init.redirect === 'manual';
}

export const nodeHttpFetch: Fetch = (input, init) => {
  if (!handled(input, init)) return globalThis.fetch(input, init);
  const url = new URL(input as string | URL);
  const signal = init?.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  const https = url.protocol === 'https:';
  if (!https && url.protocol !== 'http:') return globalThis.fetch(input, init);
  const body = init?.body as string | undefined;
  const headers = headerRecord(init?.headers);
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise<Response>((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)(url, { method: init?.method ?? 'GET', headers, agent: https ? httpsAgent : httpAgent });
    const onAbort = () => req.destroy(abortError(signal!) as Error);
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);
    req.once('error', (e) => {
      done();
      // the SDK takes any rejection that is not an abort as a connection error, as it does fetch's
      reject(signal?.aborted ? abortError(signal) : e);
    });
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.once('error', (e) => (done(), reject(e)));
      res.once('end', () => {
        done();
        const status = res.statusCode ?? 0;
        // a null-body status may not be given a body, even an empty one
        const nullBody = status === 204 || status === 205 || status === 304 || init?.method === 'HEAD';
        resolve(new Response(nullBody ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage, headers: responseHeaders(res) }));
      });
    });
    req.end(body);
  });
};
