import { describe, expect, it } from 'vitest';
import { judgeModeFor } from '../runs/plan';
import { BlueprintSchema } from './schema';
import { blueprintJsonSchema } from './source-schema';
import { wevalBlueprint } from './weval';
import { errorsOf, load, where } from './blueprint.testkit';
import { parseBlueprint } from './parse';

describe('judge_mode (header, or the judge set under evaluationConfig)', () => {
  it('reads per-point or batched; none is null (per-point)', () => {
    expect(load('judge_mode: batched\n---\n- prompt: q\n').judge_mode).toBe('batched');
    expect(load('judge_mode: per-point\n---\n- prompt: q\n').judge_mode).toBe('per-point');
    expect(load('- prompt: q\n').judge_mode).toBeNull();
    expect(judgeModeFor(undefined, load('- prompt: q\n'))).toBe('per-point');
  });

  it("reads the judge set's own setting beside its judges", () => {
    const bp = load('evaluationConfig:\n  llm-coverage:\n    judges: [{ model: "openai:gpt-4o-mini" }]\n    judge_mode: batched\n---\n- prompt: q\n');
    expect(bp.judge_mode).toBe('batched');
    // kept verbatim inside evaluationConfig, not copied into the header on export
    expect(wevalBlueprint(bp)).not.toHaveProperty('judge_mode');
    expect(wevalBlueprint(load('judge_mode: batched\n---\n- prompt: q\n'))).toMatchObject({ judge_mode: 'batched' });
  });

  it("the header's wins over the judge set's, with a warning at the header field", () => {
    const r = parseBlueprint('title: t\njudge_mode: per-point\nevaluationConfig: { llm-coverage: { judge_mode: batched } }\n---\n- prompt: q\n', { file: 'x.yml' });
    if (!r.ok) throw new Error('should parse');
    expect(r.blueprint.judge_mode).toBe('per-point');
    expect(r.warnings.map((w) => `${w.line}:${w.col} ${w.code}`)).toContain('2:13 suspicious');
  });

  it('a request overrides the blueprint', () => {
    expect(judgeModeFor('per-point', load('judge_mode: batched\n---\n- prompt: q\n'))).toBe('per-point');
    expect(judgeModeFor('batched', load('- prompt: q\n'))).toBe('batched');
  });

  it('reports a bad value at its line and column, with the fix', () => {
    const bad = errorsOf('title: t\njudge_mode: batch\n---\n- prompt: q\n');
    expect(where(bad)).toEqual(['2:13 schema']);
    expect(bad[0]!.message).toBe('`judge_mode` must be per-point or batched, not "batch"');
    expect(bad[0]!.hint).toMatch(/at most 10 questions per call/);
    expect(where(errorsOf('judge_mode: [batched]\n---\n- prompt: q\n'))).toEqual(['1:13 schema']);
    const inSet = errorsOf('evaluationConfig:\n  llm-coverage:\n    judge_mode: true\n---\n- prompt: q\n');
    expect(where(inSet)).toEqual(['3:17 schema']);
    expect(inSet[0]!.message).toMatch(/evaluationConfig\['llm-coverage'\]\.judge_mode` must be per-point or batched, not true/);
  });

  it('a version stored before the field existed reads as null', () => {
    const { judge_mode: _omit, ...old } = load('- prompt: q\n');
    expect(BlueprintSchema.parse(old).judge_mode).toBeNull();
  });

  it('is in the JSON Schema editors validate against', () => {
    expect(JSON.stringify(blueprintJsonSchema())).toMatch(/"judge_mode":\{[^}]*"enum":\["per-point","batched"\]/);
  });
});
