import { describe, expect, it } from 'vitest';
import { parseBlueprint } from '../blueprint/parse';
import { criterionKindNames } from '../criteria/registry';
import { listPointFunctions } from '../points/registry';
import { authoringCatalog } from './catalog';
import { sampleArgument, shapeOf } from './json-shape';

const catalog = authoringCatalog();

describe('authoringCatalog', () => {
  it('documents every registered point function, once', () => {
    expect(catalog.pointFunctions.map((f) => f.name)).toEqual(listPointFunctions().map((f) => f.name).sort());
  });

  it('gives every point function an example that the parser loads without errors or warnings', () => {
    for (const fn of catalog.pointFunctions) {
      const yaml = `title: t\nprompts:\n  - id: p\n    prompt: hello\n    should:\n      ${fn.example}\n`;
      const r = parseBlueprint(yaml, { file: 'example.yml' });
      expect({ fn: fn.name, issues: r.ok ? r.warnings : [...r.errors, ...r.warnings] }).toEqual({ fn: fn.name, issues: [] });
    }
  });

  it("takes the registry's own example where its message gives one", () => {
    const js = catalog.pointFunctions.find((f) => f.name === 'js')!;
    expect(js.example).toBe('- $js: "r.length > 100"');
    const n = catalog.pointFunctions.find((f) => f.name === 'contains_at_least_n_of')!;
    expect(n.argShape).toBe('[integer, string[]]');
    expect(n.aliases).toEqual(['contain_at_least_n_of']);
  });

  it('lists the header, prompt and point keys with the JSON Schema descriptions', () => {
    const header = new Map(catalog.fields.header.map((f) => [f.key, f.description]));
    expect(header.get('title')).toBe("The blueprint's title.");
    const prompt = new Map(catalog.fields.prompt.map((f) => [f.key, f.description]));
    expect(prompt.get('split')).toMatch(/sealed/);
    const point = new Map(catalog.fields.point.map((f) => [f.key, f.description]));
    // `gate` is described by the definition it refers to
    expect(point.get('gate')).toMatch(/failed gate makes the whole attempt score 0/);
  });

  it('lists every criterion kind the registry holds (none until issue 12 lands)', () => {
    expect(catalog.criterionKinds.map((k) => k.name)).toEqual([...criterionKindNames]);
  });
});

describe('shapeOf and sampleArgument', () => {
  const tuple = { type: 'array', items: [{ type: 'integer', minimum: 0 }, { type: 'array', items: { type: 'string' } }] };
  it('renders tuples, lists, objects and alternatives', () => {
    expect(shapeOf(tuple)).toBe('[integer, string[]]');
    expect(shapeOf({ type: 'object', properties: { name: { type: 'string' }, n: { type: 'number' } }, required: ['name'] })).toBe('{ name: string, n?: number }');
    expect(shapeOf({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toBe('string | null');
    expect(shapeOf({ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } })).toBe('(string | number)[]');
  });
  it('samples a value of the shape: minimum counts, required keys, then optional ones on request', () => {
    expect(sampleArgument(tuple)).toEqual([1, ['text']]);
    expect(sampleArgument({ type: 'array', items: { type: 'string' }, minItems: 2 })).toEqual(['text', 'text']);
    const obj = { type: 'object', properties: { service: { type: 'string' }, url: { type: 'string' } } };
    expect(sampleArgument(obj)).toEqual({});
    expect(sampleArgument(obj, 1)).toEqual({ service: 'text' });
  });
});
