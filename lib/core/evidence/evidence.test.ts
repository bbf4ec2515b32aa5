import { describe, expect, it } from 'vitest';
import { parseBlueprint } from '../blueprint';
import { describeCheck, labelName, orderedDistribution, parseStored, parseStoredOrNull, pointLabel, pointLabels, storedPoint, StoredEvidenceError, StoredJudgesSchema, StoredPointsSchema, StoredToolCallsSchema } from './index';

describe('stored evidence schemas', () => {
  it('reads a judge record with its score, and refuses the old `value` shape loudly', () => {
    const record = { judge: 'openai:judge-a', approach: 'standard', score: 0.8, distribution: { true: 0.8, false: 0.2 }, method: 'logprobs', reasoning: 'ok', error: null };
    expect(parseStored(StoredJudgesSchema, [record], 'verdicts.judges')[0]?.score).toBe(0.8);
    const old = { judge: 'openai:judge-a', approach: 'standard', value: 0.8, distribution: null, method: 'logprobs', reasoning: null, error: null };
    expect(() => parseStored(StoredJudgesSchema, [old], 'verdicts.judges of verdict 7')).toThrow(StoredEvidenceError);
    expect(() => parseStored(StoredJudgesSchema, [old], 'verdicts.judges of verdict 7')).toThrow(/verdicts\.judges of verdict 7.*score/);
    expect(parseStoredOrNull(StoredJudgesSchema, null, 'x')).toBeNull();
  });

  it('keeps tool calls in order and says where a bad one is', () => {
    const calls = [{ id: 'c1', name: 'a', arguments: { x: 1 } }, { name: 'b', arguments: 'raw' }];
    expect(parseStored(StoredToolCallsSchema, calls, 'tool_calls').map((c) => c.name)).toEqual(['a', 'b']);
    expect(() => parseStored(StoredToolCallsSchema, [{ function: { name: 'a' } }], 'replies.tool_calls of reply r1')).toThrow(/replies\.tool_calls of reply r1/);
  });
});

describe('point labels', () => {
  const r = parseBlueprint(
    `title: t
---
- id: p
  prompt: hi
  correct:
    any:
      - name: call
        assertions:
          - { type: jsonpath_equals, path: "$.tool_calls[0].name", value: get_weather }
          - { type: jsonpath_regex, path: "$.tool_calls[0].arguments.city", pattern: "^lisbo[an]$", flags: i }
  should:
    - $matches: "\\\\b4\\\\s?(g|grams?)\\\\b"
    - $icontains_any_of: [doctor, pharmacist]
    - choice: "What does it do?"
      options: { stated_it_as_fact: 0, left_it_out: 1, hedged_it: 0.5 }
    - $js: "return r.length > 3"
  should_not:
    - $icontains: "8 grams"
`,
    { file: 't.yml' },
  );
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  // through JSON as the database hands it back (JSONB reorders object keys)
  const points = StoredPointsSchema.parse(JSON.parse(JSON.stringify(r.blueprint.prompts[0]!.points.map(storedPoint))));

  it('are readable text: a regex once-escaped, lists quoted, no JSON call syntax', () => {
    expect(points.map(pointLabel)).toEqual([
      '$matches: \\b4\\s?(g|grams?)\\b',
      '$icontains_any_of: “doctor”, “pharmacist”',
      'What does it do?',
      '$js check (JavaScript over the reply)',
      '$icontains: 8 grams',
      'Structured check: any of (call: all of ($.tool_calls[0].name = "get_weather"; $.tool_calls[0].arguments.city matches /^lisbo[an]$/i))',
    ]);
  });

  it("keep a choice's options in written order through storage", () => {
    expect(pointLabels(points[2]!)).toEqual(['stated_it_as_fact', 'left_it_out', 'hedged_it']);
    expect(orderedDistribution({ hedged_it: 0.1, left_it_out: 0.2, stated_it_as_fact: 0.7, stray: 0 }, pointLabels(points[2]!)).map((e) => e.label)).toEqual(['stated_it_as_fact', 'left_it_out', 'hedged_it', 'stray']);
    expect(labelName('CLASS_PARTIALLY_PRESENT')).toBe('Partially present');
    expect(describeCheck({ not: { type: 'jsonpath_exists', path: '$.content_json' } })).toBe('not ($.content_json exists)');
  });
});
