import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { evaluatePoint } from './evaluate';
import { resolvePointFunction, type Resolution } from './registry';
import type { PointFunctionDef } from './types';

function resolve(written: string) {
  const r = resolvePointFunction(written);
  if (!r.ok) throw new Error(r.message);
  return r;
}

function fake(evaluate: PointFunctionDef<unknown>['evaluate'], negated = false): Extract<Resolution, { ok: true }> {
  return { ok: true, canonical: 'fake', negated, def: { name: 'fake', description: 'a test double', args: z.unknown(), negatable: true, evaluate } };
}

describe('evaluatePoint', () => {
  it('negates graded scores as 1 − score (Weval: not_contains_all_of)', async () => {
    expect(await evaluatePoint(resolve('not_contains_all_of'), 'The quick brown fox', ['quick', 'brown', 'slow'], {})).toMatchObject({ score: 1 - 2 / 3 });
    expect(await evaluatePoint(resolve('not_contains'), 'hello', 'hell', {})).toEqual({ score: 0, detail: 'not (contains "hell": yes)' });
  });

  it('does not negate errors: unscored stays unscored', async () => {
    expect(await evaluatePoint(resolve('not_matches'), 'x', '[', {})).toMatchObject({ error: expect.stringMatching(/invalid regex/) });
  });

  it('turns invalid stored arguments into an error outcome', async () => {
    expect(await evaluatePoint(resolve('contains'), 'x', 123, {})).toEqual({ error: expect.stringMatching(/quote numbers/) });
  });

  it('clamps scores and refuses non-finite ones', async () => {
    expect(await evaluatePoint(fake(() => ({ score: 1.7, detail: 'd' })), 'r', null, {})).toEqual({ score: 1, detail: 'd' });
    expect(await evaluatePoint(fake(() => ({ score: -2, detail: 'd' }), true), 'r', null, {})).toEqual({ score: 1, detail: 'not (d)' });
    expect(await evaluatePoint(fake(() => ({ score: Number.NaN, detail: 'd' })), 'r', null, {})).toHaveProperty('error');
    expect(await evaluatePoint(fake(() => ({ score: Number.POSITIVE_INFINITY, detail: 'd' })), 'r', null, {})).toHaveProperty('error');
  });

  it('turns a throw or a rejection into an error outcome', async () => {
    expect(await evaluatePoint(fake(() => { throw new Error('kaput'); }), 'r', null, {})).toEqual({ error: 'fake failed: kaput' });
    expect(await evaluatePoint(fake(() => Promise.reject(new Error('later'))), 'r', null, {})).toEqual({ error: 'fake failed: later' });
  });
});
