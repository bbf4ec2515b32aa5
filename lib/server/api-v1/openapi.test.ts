import { describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ENDPOINTS } from './endpoints';
import { openApiDocument } from './openapi';

describe('the OpenAPI document', () => {
  const doc = openApiDocument();

  // the reads: one GET per endpoint of the table; the one write: POST /api/v1/runs
  const reads = Object.entries(doc.paths).flatMap(([path, ops]) => (ops.get ? [[path, ops.get] as const] : []));

  it('is OpenAPI 3.1 with JSON Schema 2020-12, one GET per endpoint of the table and the one POST', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(reads.map(([path]) => path).sort()).toEqual(Object.values(ENDPOINTS).map((e) => e.path).sort());
    expect(Object.entries(doc.paths).flatMap(([path, ops]) => (ops.post ? [path] : []))).toEqual(['/api/v1/runs']);
    const ids = Object.values(doc.paths).flatMap((p) => [p.get?.operationId, p.post?.operationId].filter(Boolean));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names every path parameter of a template, and no other', () => {
    for (const [path, get] of reads) {
      const inTemplate = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const documented = get.parameters.filter((p) => p.in === 'path').map((p) => p.name).sort();
      expect(documented, path).toEqual(inTemplate);
      for (const p of get.parameters.filter((x) => x.in === 'path')) expect(p.required, `${path} ${p.name}`).toBe(true);
    }
  });

  it('documents pages with limit and cursor, and every answer schema compiles under strict Ajv 2020', () => {
    const ajv = new Ajv2020({ strict: true, strictTypes: false });
    addFormats(ajv);
    for (const e of Object.values(ENDPOINTS)) {
      const op = doc.paths[e.path]!.get!;
      const query = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
      if ('paged' in e && e.paged) expect(query.slice(0, 2), e.path).toEqual(['limit', 'cursor']);
      const schema = (op.responses['200'] as { content: { 'application/json': { schema: object } } }).content['application/json'].schema;
      expect(() => ajv.compile(schema), e.path).not.toThrow();
    }
  });

  it('closes every answer object (a field the API adds unannounced fails the contract tests)', () => {
    const open: string[] = [];
    const visit = (s: unknown, at: string) => {
      if (!s || typeof s !== 'object') return;
      const o = s as Record<string, unknown>;
      if (o.type === 'object' && o.properties && o.additionalProperties !== false && !at.startsWith('/api/v1/openapi.json')) open.push(at);
      for (const [k, v] of Object.entries(o)) visit(v, `${at}/${k}`);
    };
    for (const [path, get] of reads) visit(get.responses['200'], path);
    const post = doc.paths['/api/v1/runs']!.post!;
    visit(post.responses['201'], '/api/v1/runs 201');
    visit(post.requestBody, '/api/v1/runs body');
    expect(open).toEqual([]);
  });
});
