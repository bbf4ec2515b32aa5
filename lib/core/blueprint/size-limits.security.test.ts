/**
 * Issue 11, findings 9 and 10 in the loader: 10,000-deep JSON and 200,000 points overflowed
 * the stack; 50 MB files validated using 1.8–2.6 GB; 200,000 documents ran past 240 s. Each
 * limit (limits.ts, docs/limits.md) is now a load-time error at a line and column, with a
 * hint that names the limit, checked before the work it bounds.
 */
import { describe, expect, it } from 'vitest';
import { deepJson, deepYaml, manyDocuments, manyPoints } from './hostile-blueprints';
import { BLUEPRINT_LIMITS } from './limits';
import { parseBlueprint } from './parse';

const L = BLUEPRINT_LIMITS;

function rejected(text: string, file = 'big.yml', limits = L) {
  const t0 = performance.now();
  const result = parseBlueprint(text, { file, limits });
  const ms = performance.now() - t0;
  if (result.ok) throw new Error('expected the blueprint to be rejected');
  return { errors: result.errors, first: result.errors[0]!, ms };
}

describe('nesting depth (finding 9)', () => {
  it('rejects 10,000-deep JSON at the first bracket past the limit, without overflowing the stack', () => {
    const text = deepJson(10_000);
    const { first } = rejected(text, 'deep.json');
    expect(first).toMatchObject({ code: 'limit', line: 1, message: `lists and mappings are nested more than ${L.maxDepth} deep here` });
    // `{"prompts":[{…,"should":[` is 4 levels (that last `[` at offset s); level 65 is at offset s + 61, column s + 62
    expect(first.col).toBe(text.indexOf('[[') + 62);
    expect(first.hint).toContain(`${L.maxDepth} levels of nesting`);
  });

  it('rejects 10,000-deep YAML (`- - - …`, which ran the process out of memory) before building it', () => {
    const { first } = rejected(deepYaml(10_000));
    expect(first).toMatchObject({ code: 'limit', line: 4 });
  });

  it('accepts nesting at the limit', () => {
    const result = parseBlueprint(`prompts:\n  - prompt: hi\n    should:\n      - $js: "true"\n    description: x\nextra: ${'['.repeat(L.maxDepth - 1)}1${']'.repeat(L.maxDepth - 1)}\n`, { file: 'ok.yml' });
    expect(result.ok, JSON.stringify(!result.ok && result.errors)).toBe(true);
  });
});

describe('points per prompt and values per file (finding 9)', () => {
  it('rejects 200,000 points without overflowing the stack', () => {
    const { first } = rejected(manyPoints(200_000));
    expect(first).toMatchObject({ code: 'limit', line: 3, message: `the file has more than ${L.maxNodes.toLocaleString('en-US')} values (lists, mappings and scalars)` });
    expect(first.col).toBeGreaterThan(1);
  });

  it(`rejects point ${L.maxPointsPerPrompt + 1} of a prompt, at that point`, () => {
    const text = 'prompts:\n  - prompt: hi\n    should:\n' + '      - x\n'.repeat(L.maxPointsPerPrompt) + '    should_not:\n      - y\n';
    const { errors, first } = rejected(text);
    expect(errors).toHaveLength(1);
    expect(first).toMatchObject({ code: 'limit', line: L.maxPointsPerPrompt + 5, col: 9, message: `this prompt has more than ${L.maxPointsPerPrompt} points; this is point ${L.maxPointsPerPrompt + 1}` });
    expect(first.hint).toContain(`${L.maxPointsPerPrompt} points per prompt`);
  });

  it('accepts a prompt with exactly the limit of points', () => {
    expect(parseBlueprint(manyPoints(L.maxPointsPerPrompt), { file: 'ok.yml' }).ok).toBe(true);
  });
});

describe('file size, documents and prompts (finding 10)', () => {
  it('rejects a 50 MB file by its size before parsing it', () => {
    const text = 'title: big\ndescription: "' + 'x'.repeat(50 * 1024 * 1024) + '"\nprompts:\n  - prompt: hi\n';
    const heap = process.memoryUsage().heapUsed;
    const { errors, first, ms } = rejected(text);
    console.log(`50 MB file: rejected in ${ms.toFixed(1)} ms, heap +${((process.memoryUsage().heapUsed - heap) / 1e6).toFixed(0)} MB`);
    expect(errors).toHaveLength(1);
    expect(first).toMatchObject({ code: 'limit', line: 1, col: 1, message: expect.stringContaining(`over the limit of ${L.maxFileBytes.toLocaleString('en-US')} bytes`) });
    // parsing 50 MB took minutes; measuring its length takes nothing
    expect(ms).toBeLessThan(250);
  });

  it('counts bytes, not characters', () => {
    const limits = { ...L, maxFileBytes: 100 };
    const text = `- prompt: "${'é'.repeat(40)}"\n`; // 56 characters, 96 bytes
    expect(parseBlueprint(text, { file: 'ok.yml', limits }).ok).toBe(true);
    expect(rejected(`- prompt: "${'é'.repeat(45)}"\n`, 'big.yml', limits).first.message).toBe('the file is 103 bytes, over the limit of 100 bytes');
  });

  it('rejects 200,000 documents at the first document past the limit, without parsing the rest', () => {
    const { first, ms } = rejected(manyDocuments(200_000));
    console.log(`200,000 documents: rejected in ${ms.toFixed(0)} ms`);
    expect(first).toMatchObject({ code: 'limit', line: L.maxDocuments + 1, col: 1, message: `the file has more than ${L.maxDocuments.toLocaleString('en-US')} YAML documents (\`---\` sections); this is document ${(L.maxDocuments + 1).toLocaleString('en-US')}` });
  });

  it(`rejects prompt ${L.maxPrompts + 1}, at that prompt`, () => {
    const text = 'prompts:\n' + '  - prompt: hi\n'.repeat(L.maxPrompts + 1);
    const { errors, first } = rejected(text);
    expect(errors).toHaveLength(1);
    expect(first).toMatchObject({ code: 'limit', line: L.maxPrompts + 2, col: 5, message: expect.stringContaining(`over the limit of ${L.maxPrompts.toLocaleString('en-US')}`) });
  });

  it('lists at most 200 errors and stops reading past them (2,000 broken definitions)', () => {
    const text = 'point_defs:\n' + Array.from({ length: 2_000 }, (_, i) => `  d${i}: {$nofn: x}\n`).join('') + 'prompts:\n  - prompt: hi\n';
    const { errors } = rejected(text);
    expect(errors).toHaveLength(201);
    expect(errors[199]).toMatchObject({ code: 'unknown_function', line: 201 });
    expect(errors[200]).toMatchObject({ code: 'limit', line: 1, col: 1, message: 'at most 200 errors are listed; the file may have more' });
  });
});
