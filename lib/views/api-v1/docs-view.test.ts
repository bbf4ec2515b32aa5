import { describe, expect, it } from 'vitest';
import { openApiDocument } from '@/lib/server/api-v1/openapi';
import { docsView, typeLabel } from './docs-view';

describe('the API docs view', () => {
  it('says a type in words', () => {
    expect(typeLabel({ type: ['string', 'null'] })).toBe('string or null');
    expect(typeLabel({ anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] })).toBe('string (date-time) or null');
    expect(typeLabel({ enum: ['a', 'b'] })).toBe('one of "a", "b"');
    expect(typeLabel({ type: 'array', items: { type: 'integer' } })).toBe('array of integer');
  });

  it('lists every path of the served document with its parameters and nested answer fields', () => {
    const view = docsView(openApiDocument());
    expect(view.endpoints.map((e) => e.path)).toContain('/api/v1/runs/{runId}/prompts');
    const prompts = view.endpoints.find((e) => e.path === '/api/v1/runs/{runId}/prompts')!;
    expect(prompts.parameters.map((p) => [p.name, p.required])).toEqual([
      ['runId', true],
      ['limit', false],
      ['cursor', false],
    ]);
    expect(prompts.fields.map((f) => f.name)).toEqual(expect.arrayContaining(['next_cursor', 'items', 'items[].prompt_key', 'items[].cells[].score']));
    const run = view.endpoints.find((e) => e.path === '/api/v1/runs/{runId}')!;
    expect(run.fields.find((f) => f.name === 'results[].interval.method')).toMatchObject({ required: true });
    expect(run.fields.find((f) => f.name === 'finished_at')).toMatchObject({ type: 'string (date-time) or null' });
    expect(run.statuses).toEqual(['200', '304', '400', '404', '429']);
  });
});
