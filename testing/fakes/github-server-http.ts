/** A tiny router and JSON/pagination helpers for the fake GitHub server. */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface FakeRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
  rawBody: string;
  /** `http://host:port` as the client addressed us (for absolute URLs in replies). */
  origin: string;
}

export interface FakeReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type FakeHandler = (req: FakeRequest) => FakeReply | Promise<FakeReply>;

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: FakeHandler;
}

export class Router {
  private readonly routes: Route[] = [];

  /** `path` uses `:name` segments; a trailing `*name` captures the rest (file paths). */
  on(method: string, path: string, handler: FakeHandler): void {
    const names: string[] = [];
    const source = path
      .split('/')
      .map((seg) => {
        if (seg.startsWith(':')) {
          names.push(seg.slice(1));
          return '([^/]+)';
        }
        if (seg.startsWith('*')) {
          names.push(seg.slice(1));
          return '(.+)';
        }
        return seg.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('/');
    this.routes.push({ method, pattern: new RegExp(`^${source}$`), names, handler });
  }

  match(method: string, path: string): { handler: FakeHandler; params: Record<string, string> } | null {
    for (const r of this.routes) {
      if (r.method !== method) continue;
      const m = r.pattern.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      r.names.forEach((n, i) => (params[n] = decodeURIComponent(m[i + 1]!)));
      return { handler: r.handler, params };
    }
    return null;
  }
}

export async function readRequest(req: IncomingMessage): Promise<{ rawBody: string; body: unknown }> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const rawBody = Buffer.concat(chunks).toString('utf8');
  if (!rawBody) return { rawBody, body: {} };
  const type = req.headers['content-type'] ?? '';
  if (type.includes('application/x-www-form-urlencoded')) return { rawBody, body: Object.fromEntries(new URLSearchParams(rawBody)) };
  try {
    return { rawBody, body: JSON.parse(rawBody) };
  } catch {
    return { rawBody, body: null };
  }
}

export function send(res: ServerResponse, reply: FakeReply): void {
  const headers: Record<string, string> = { ...reply.headers };
  let payload = '';
  if (Buffer.isBuffer(reply.body)) {
    res.writeHead(reply.status, headers);
    res.end(reply.body);
    return;
  }
  if (reply.body !== undefined) {
    if (typeof reply.body === 'string') {
      payload = reply.body;
      headers['content-type'] ??= 'text/plain; charset=utf-8';
    } else {
      payload = JSON.stringify(reply.body);
      headers['content-type'] ??= 'application/json; charset=utf-8';
    }
  }
  res.writeHead(reply.status, headers);
  res.end(payload);
}

export const notFound = (message = 'Not Found'): FakeReply => ({
  status: 404,
  body: { message, documentation_url: 'https://docs.github.com/rest' },
});

/** GitHub-style pagination: `per_page` (≤ 100, default 30), `page`, and a Link header. */
export function paginate<T>(req: FakeRequest, items: T[]): FakeReply {
  const perPage = Math.min(100, Math.max(1, Number(req.query.get('per_page') ?? 30)));
  const page = Math.max(1, Number(req.query.get('page') ?? 1));
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const links: string[] = [];
  const link = (p: number, rel: string) => {
    const q = new URLSearchParams(req.query);
    q.set('page', String(p));
    q.set('per_page', String(perPage));
    links.push(`<${req.origin}${req.path}?${q}>; rel="${rel}"`);
  };
  if (page < last) {
    link(page + 1, 'next');
    link(last, 'last');
  }
  if (page > 1) {
    link(1, 'first');
    link(page - 1, 'prev');
  }
  return {
    status: 200,
    body: items.slice((page - 1) * perPage, page * perPage),
    headers: links.length ? { link: links.join(', ') } : {},
  };
}
