import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PointFunctionDef } from '../points/types';
import type { Resolution } from '../points/registry';
import { evaluateDeterministicPoint } from './deterministic';
import { correctPoint, fnPoint, questionPoint, textPoint } from './scoring.testkit';
import { VerdictSchema } from './verdict';

// A stand-in registry, so these tests pin the glue (negation, errors, context) and not the functions.
const contains: PointFunctionDef<unknown> = {
  name: 'contains',
  description: 'substring',
  args: z.string(),
  negatable: true,
  evaluate: (response, needle) => ({ score: response.includes(needle as string) ? 1 : 0, detail: `contains ${JSON.stringify(needle)}` }),
};
const toolCount: PointFunctionDef<unknown> = {
  name: 'tool_count',
  description: 'tool calls',
  args: z.unknown(),
  negatable: false,
  evaluate: (_r, _a, ctx) => Promise.resolve({ score: (ctx.toolCalls?.length ?? 0) / 2, detail: 'count' }),
};
const throws: PointFunctionDef<unknown> = { ...contains, name: 'boom', evaluate: () => { throw new Error('kaput'); } };
const nan: PointFunctionDef<unknown> = { ...contains, name: 'nan', evaluate: () => ({ score: Number.NaN, detail: 'NaN' }) };
const defs = new Map([contains, toolCount, throws, nan].map((d) => [d.name, d]));
const resolve = (written: string): Resolution => {
  const negated = written.startsWith('not_');
  const def = defs.get(negated ? written.slice(4) : written);
  return def ? { ok: true, canonical: written, def, negated } : { ok: false, message: 'unknown', suggestions: ['contains'] };
};

describe('evaluateDeterministicPoint', () => {
  it('runs a function point and records the spec', async () => {
    const v = await evaluateDeterministicPoint(fnPoint('contains', 'world'), 'hello world', { resolve, pointIndex: 2 });
    expect(v).toMatchObject({ status: 'pass', score: 1, pointIndex: 2, spec: { kind: 'function', fn: 'contains', args: 'world', negated: false } });
    expect(VerdictSchema.parse(v)).toEqual(v);
  });

  it('applies not_* negation and should_not inversion', async () => {
    expect(await evaluateDeterministicPoint(fnPoint('not_contains', 'world'), 'hello world', { resolve })).toMatchObject({ score: 0, rawScore: 1 });
    // should_not `$contains: bye` is stored by the loader as `not_contains`: negated exactly once.
    expect(await evaluateDeterministicPoint(fnPoint('not_contains', 'bye', { source: 'should_not' }), 'hello', { resolve })).toMatchObject({ score: 1 });
    expect(await evaluateDeterministicPoint(fnPoint('not_contains', 'bye', { source: 'should_not' }), 'bye now', { resolve })).toMatchObject({ score: 0 });
  });

  it('unknown functions, throwing functions and NaN are error verdicts', async () => {
    expect(await evaluateDeterministicPoint(fnPoint('nope', 'x'), 'r', { resolve })).toMatchObject({
      status: 'error',
      detail: "Unknown point function: 'nope' (did you mean $contains?)",
    });
    expect(await evaluateDeterministicPoint(fnPoint('boom', 'x'), 'r', { resolve })).toMatchObject({ status: 'error', detail: expect.stringMatching(/kaput/) });
    expect(await evaluateDeterministicPoint(fnPoint('nan', 'x'), 'r', { resolve })).toMatchObject({ status: 'error', score: null });
  });

  it('passes the reply’s tool calls to functions, normalised', async () => {
    const reply = { content: '', toolCalls: [{ function: { name: 'a', arguments: '{}' } }, { name: 'b' }] };
    expect(await evaluateDeterministicPoint(fnPoint('tool_count', null), reply, { resolve })).toMatchObject({ score: 1 });
  });

  it('evaluates correct points over the response view', async () => {
    const p = correctPoint({ type: 'jsonpath_equals', path: '$.content_json.ok', value: true });
    expect(await evaluateDeterministicPoint(p, '{"ok": true}')).toMatchObject({ status: 'pass', score: 1, spec: { kind: 'correct' } });
    expect(await evaluateDeterministicPoint(p, '{"ok": false}')).toMatchObject({ status: 'fail', score: 0 });
    expect(await evaluateDeterministicPoint(correctPoint({ type: 'regex', pattern: '(' }), 'x')).toMatchObject({ status: 'error' });
  });

  it('text and question points need a judge', async () => {
    expect(await evaluateDeterministicPoint(textPoint('is kind'), 'x')).toBe('needs-judge');
    expect(await evaluateDeterministicPoint(questionPoint({ type: 'noul', statement: 's' }), 'x')).toBe('needs-judge');
  });
});
