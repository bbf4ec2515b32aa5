import { describe, expect, it } from 'vitest';
import { BlueprintSchema } from './schema';
import { blueprintJsonSchema } from './source-schema';
import { errorsOf, load, where } from './blueprint.testkit';

describe('pass_threshold (header)', () => {
  it('reads a number from 0 to 1; none is null', () => {
    expect(load('pass_threshold: 0.8\n---\n- prompt: q\n  repeats: 3\n').pass_threshold).toBe(0.8);
    expect(load('pass_threshold: 1\n---\n- prompt: q\n').pass_threshold).toBe(1);
    expect(load('- prompt: q\n').pass_threshold).toBeNull();
  });

  it('reports a bad value at its line and column, with the fix', () => {
    const pct = errorsOf('title: t\npass_threshold: 80\n---\n- prompt: q\n');
    expect(where(pct)).toEqual(['2:17 schema']);
    expect(pct[0]!.message).toMatch(/`pass_threshold` must be a number from 0 to 1, not 80/);
    expect(pct[0]!.hint).toMatch(/pass_threshold: 0\.8/);
    const text = errorsOf('pass_threshold: high\n---\n- prompt: q\n');
    expect(where(text)).toEqual(['1:17 schema']);
    expect(where(errorsOf('pass_threshold: -0.1\n---\n- prompt: q\n'))).toEqual(['1:17 schema']);
  });

  it('a version stored before the field existed reads as null', () => {
    const { pass_threshold: _omit, ...old } = load('- prompt: q\n');
    expect(BlueprintSchema.parse(old).pass_threshold).toBeNull();
  });

  it('is in the JSON Schema editors validate against', () => {
    const header = JSON.stringify(blueprintJsonSchema());
    expect(header).toContain('"pass_threshold"');
    expect(header).toMatch(/"pass_threshold":\{[^}]*"minimum":0[^}]*"maximum":1/);
  });
});
