/**
 * The API docs page's view of the OpenAPI document (the same document `/api/v1/openapi.json`
 * serves): each path with its parameters and the fields of its answer, flattened to dotted names
 * (`results[].interval.low`) with a short type and whether the field is always there. Pure: the
 * page passes the document in.
 */

/** What this view reads of an OpenAPI 3.1 document. */
export interface DocsInput {
  info: { title: string; version: string; description: string };
  paths: Record<string, Partial<Record<'get' | 'post', DocsOperation>>>;
}

interface DocsOperation {
  operationId: string;
  summary: string;
  description: string;
  parameters: { name: string; in: string; required: boolean; description?: string; schema: object }[];
  requestBody?: { content: { 'application/json': { schema: object } } };
  responses: Record<string, unknown>;
}

export interface DocsField {
  name: string;
  type: string;
  /** Always present in the answer (it may still be null when its type says so). */
  required: boolean;
  description: string;
}

export interface DocsEndpoint {
  id: string;
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  description: string;
  parameters: DocsField[];
  /** The fields of the request body (a POST). */
  body: DocsField[];
  fields: DocsField[];
  statuses: string[];
}

export interface DocsView {
  title: string;
  version: string;
  description: string;
  endpoints: DocsEndpoint[];
}

type Schema = {
  type?: string | string[];
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
};

/** A schema's type in a few words: `string (date-time) or null`, `one of "a", "b"`, `array of object`. */
export function typeLabel(s: Schema): string {
  if (s.anyOf) return [...new Set(s.anyOf.map(typeLabel))].join(' or ');
  if (s.enum) return `one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (s.const !== undefined) return JSON.stringify(s.const);
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.length === 0) return 'any';
  return types
    .map((t) => {
      if (t === 'array') return `array of ${s.items ? typeLabel(s.items) : 'any'}`;
      if (t === 'string' && s.format) return `string (${s.format})`;
      return t;
    })
    .join(' or ');
}

/** The object schema inside `s`, if any (a nullable object is `anyOf: [object, null]`). */
function objectOf(s: Schema): Schema | null {
  if (s.properties) return s;
  return s.anyOf?.map(objectOf).find((x) => x !== null) ?? null;
}

function itemsOf(s: Schema): Schema | null {
  if (s.items) return s.items;
  return s.anyOf?.map(itemsOf).find((x) => x !== null) ?? null;
}

/** Every field of an answer, depth first, in the schema's order. */
export function fieldsOf(schema: Schema, prefix = '', depth = 0): DocsField[] {
  const object = objectOf(schema);
  if (!object?.properties || depth > 6) return [];
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties).flatMap(([key, s]) => {
    const name = `${prefix}${key}`;
    const items = itemsOf(s);
    const nested = items && objectOf(items) ? fieldsOf(items, `${name}[].`, depth + 1) : fieldsOf(s, `${name}.`, depth + 1);
    return [{ name, type: typeLabel(s), required: required.has(key), description: s.description ?? '' }, ...nested];
  });
}

export function docsView(doc: DocsInput): DocsView {
  return {
    title: doc.info.title,
    version: doc.info.version,
    description: doc.info.description,
    endpoints: Object.entries(doc.paths).flatMap(([path, ops]) =>
      (['get', 'post'] as const).flatMap((method) => {
        const op = ops[method];
        if (!op) return [];
        const ok = (op.responses['200'] ?? op.responses['201']) as { content?: { 'application/json'?: { schema?: Schema } } } | undefined;
        const schema = ok?.content?.['application/json']?.schema;
        const body = op.requestBody?.content['application/json'].schema as Schema | undefined;
        return [
          {
            id: op.operationId,
            method: method === 'get' ? ('GET' as const) : ('POST' as const),
            path,
            summary: op.summary,
            description: op.description,
            parameters: op.parameters.map((p) => ({ name: p.name, type: `${typeLabel(p.schema as Schema)}, in ${p.in}`, required: p.required, description: p.description ?? '' })),
            body: body ? fieldsOf(body) : [],
            // the document's own answer is described by the document: its fields are not listed again
            fields: schema && path !== '/api/v1/openapi.json' ? fieldsOf(schema) : [],
            statuses: Object.keys(op.responses),
          },
        ];
      }),
    ),
  };
}
