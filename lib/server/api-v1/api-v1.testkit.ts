/**
 * Calls `/api/v1` the way Next does (the route modules' own GET, a real Request, the params as
 * Next passes them) and checks each answer against the OpenAPI document the API serves, with Ajv
 * (JSON Schema 2020-12, the dialect of OpenAPI 3.1) and its formats. Set DATABASE_URL before the
 * first call: the routes read the app's database through the composition root.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

type Handler = (request: Request, context: { params: Promise<unknown> }) => Promise<Response>;

interface Resolved {
  /** The document's path template (e.g. /api/v1/runs/{runId}). */
  template: string;
  load: () => Promise<{ GET: Handler }>;
  params: Record<string, unknown>;
}

/** The route module and Next's params for a request path (the path's segments stay encoded, as Next gives them). */
function resolve(pathname: string): Resolved {
  const seg = pathname.replace(/^\/api\/v1\//, '').split('/');
  if (seg[0] === 'leaderboard' && seg.length === 1) return { template: '/api/v1/leaderboard', load: () => import('@/app/api/v1/leaderboard/route'), params: {} };
  if (seg[0] === 'openapi.json' && seg.length === 1) return { template: '/api/v1/openapi.json', load: () => import('@/app/api/v1/openapi.json/route'), params: {} };
  if (seg[0] === 'blueprints' && seg.length === 1) return { template: '/api/v1/blueprints', load: () => import('@/app/api/v1/blueprints/route'), params: {} };
  if (seg[0] === 'blueprints' && seg.length === 2) return { template: '/api/v1/blueprints/{id}', load: () => import('@/app/api/v1/blueprints/[id]/route'), params: { id: seg[1] } };
  if (seg[0] === 'runs' && seg.length === 2) return { template: '/api/v1/runs/{runId}', load: () => import('@/app/api/v1/runs/[runId]/route'), params: { runId: seg[1] } };
  if (seg[0] === 'runs' && seg.length === 3 && seg[2] === 'prompts') return { template: '/api/v1/runs/{runId}/prompts', load: () => import('@/app/api/v1/runs/[runId]/prompts/route'), params: { runId: seg[1] } };
  if (seg[0] === 'runs' && seg.length === 4 && seg[2] === 'compare') return { template: '/api/v1/runs/{runId}/compare/{otherRunId}', load: () => import('@/app/api/v1/runs/[runId]/compare/[otherRunId]/route'), params: { runId: seg[1], otherRunId: seg[3] } };
  if (seg[0] === 'retrieval' && seg[1] === 'leaderboard' && seg.length === 2) return { template: '/api/v1/retrieval/leaderboard', load: () => import('@/app/api/v1/retrieval/leaderboard/route'), params: {} };
  if (seg[0] === 'drift' && seg.length === 1) return { template: '/api/v1/drift', load: () => import('@/app/api/v1/drift/route'), params: {} };
  if (seg[0] === 'models' && seg.length >= 2) return { template: '/api/v1/models/{modelId}', load: () => import('@/app/api/v1/models/[...modelId]/route'), params: { modelId: seg.slice(1) } };
  throw new Error(`no /api/v1 route for ${pathname}`);
}

export interface V1Answer {
  /** The request's method in the document (default get). */
  method?: 'get' | 'post';
  status: number;
  headers: Headers;
  /** The parsed JSON body (null for a 304). */
  body: unknown;
  template: string;
}

/** GET `pathAndQuery` (e.g. `/api/v1/runs/abc/prompts?limit=2`) through its route module. */
export async function getV1(pathAndQuery: string, headers: Record<string, string> = {}): Promise<V1Answer> {
  const url = new URL(pathAndQuery, 'http://assay.test');
  const r = resolve(url.pathname);
  const { GET } = await r.load();
  const res = await GET(new Request(url, { headers }), { params: Promise.resolve(r.params) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null, template: r.template };
}

/**
 * POST `path` with a JSON body through its route module (the one write: /api/v1/runs). `headers`
 * carries the maintainer's token (`authorization`).
 */
export async function postV1(path: string, body: unknown, headers: Record<string, string> = {}): Promise<V1Answer> {
  if (path !== '/api/v1/runs') throw new Error(`no /api/v1 POST route for ${path}`);
  const { POST } = (await import('@/app/api/v1/runs/route')) as { POST: (request: Request) => Promise<Response> };
  const res = await POST(new Request(new URL(path, 'http://assay.test'), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }));
  const text = await res.text();
  return { method: 'post', status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null, template: path };
}

type Operation = { responses: Record<string, unknown> };

/** A validator per (path, method, status) of an OpenAPI 3.1 document, its `$ref`s to components resolved by Ajv. */
export function contractOf(doc: { paths: Record<string, { get?: Operation; post?: Operation }> }) {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
  addFormats(ajv);
  // the document's components as one schema resource, so `#/components/...` refs resolve inside it
  // (`components` is OpenAPI's word, not a JSON Schema keyword: declared so strict mode accepts it)
  ajv.addVocabulary(['components']);
  ajv.addSchema({ $id: 'openapi', components: (doc as { components?: unknown }).components ?? {} });
  const cache = new Map<string, ValidateFunction>();
  return (answer: V1Answer): string[] => {
    const method = answer.method ?? 'get';
    const op = doc.paths[answer.template]?.[method];
    if (!op) return [`${method.toUpperCase()} ${answer.template} is not in the document`];
    let response = op.responses[String(answer.status)] as { $ref?: string; content?: { 'application/json': { schema: object } } } | undefined;
    if (!response) return [`${answer.template} does not document status ${answer.status}`];
    if (response.$ref) response = refTarget(doc, response.$ref) as typeof response;
    const schema = response?.content?.['application/json']?.schema;
    if (!schema) return answer.body === null ? [] : [`${answer.template} ${answer.status} documents no body`];
    const key = `${method.toUpperCase()} ${answer.template} ${answer.status}`;
    let validate = cache.get(key);
    if (!validate) {
      validate = ajv.compile(withRefsInto(schema));
      cache.set(key, validate);
    }
    return validate(answer.body) ? [] : (validate.errors ?? []).map((e) => `${key}: ${e.instancePath} ${e.message}`);
  };
}

function refTarget(doc: object, ref: string): unknown {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], doc);
}

/** `#/components/…` refs of an operation's schema point into the document resource added above. */
function withRefsInto(schema: object): object {
  return JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\/components\//g, '"$ref":"openapi#/components/'));
}
