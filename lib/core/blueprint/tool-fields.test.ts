import { describe, expect, it } from 'vitest';
import { parseBlueprint } from './parse';
import { toolModeOf } from './tool-fields';
import { wevalPrompt } from './weval';

const errorsOf = (result: ReturnType<typeof parseBlueprint>) => (result.ok ? [] : result.errors.map((i) => `${i.line}:${i.col} ${i.message}`));

describe("a prompt's requiredTools, prohibitedTools and maxCalls (Weval's tool-use fields)", () => {
  const text = [
    'tools:',
    '  - { name: search, schema: { type: object } }',
    '---',
    '- id: p',
    '  prompt: find it',
    '  requiredTools: [search]',
    '  prohibitedTools: [calculator, rerank]',
    '  maxCalls: 2',
    '  should:',
    '    - $tool_called: search',
    '',
  ].join('\n');

  it('are read, stored on the prompt, and kept in its Weval form (so a hashed id matches Weval)', () => {
    const result = parseBlueprint(text, { file: 't.yml' });
    if (!result.ok) throw new Error(errorsOf(result).join('\n'));
    const prompt = result.blueprint.prompts[0]!;
    expect(prompt).toMatchObject({ requiredTools: ['search'], prohibitedTools: ['calculator', 'rerank'], maxCalls: 2 });
    expect(wevalPrompt(prompt)).toMatchObject({ requiredTools: ['search'], prohibitedTools: ['calculator', 'rerank'], maxCalls: 2 });
    // no longer an unknown field; instead one warning, at the first of them, that they are not graded
    expect(result.warnings.map((w) => `${w.line}:${w.col} ${w.code} ${w.message}`)).toEqual([
      '6:3 suspicious `requiredTools`, `prohibitedTools`, `maxCalls` are shown with the prompt but not graded (Weval does not grade them either)',
    ]);
    expect(result.warnings[0]!.hint).toBe(
      'To grade them, write the tool points: under `should`: - $tool_called: "search"; - $tool_call_count_between: [0, 2] under `should_not`: - $tool_called: "calculator"; - $tool_called: "rerank"',
    );
  });

  it('a prompt without them stores none (its stored shape is unchanged)', () => {
    const result = parseBlueprint('- id: p\n  prompt: hi\n', { file: 't.yml' });
    expect(result.ok && Object.keys(result.blueprint.prompts[0]!).filter((k) => /Tools|maxCalls/.test(k))).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it('a non-list requiredTools/prohibitedTools, a non-name entry and a negative or non-number maxCalls are errors at their positions (Weval rejects the first and last too)', () => {
    const bad = parseBlueprint('- id: p\n  prompt: hi\n  requiredTools: search\n  prohibitedTools: [ok, 3]\n  maxCalls: -1\n- id: q\n  prompt: hi\n  maxCalls: two\n', { file: 't.yml' });
    expect(errorsOf(bad)).toEqual([
      "3:18 a prompt's `requiredTools` must be a list of tool names, not a string",
      '4:25 each entry of `prohibitedTools` must be a tool name, not the number 3',
      "5:13 a prompt's `maxCalls` must be a number ≥ 0, not -1",
      "8:13 a prompt's `maxCalls` must be a number ≥ 0, not \"two\"",
    ]);
    // zero is a valid cap, as in Weval
    expect(parseBlueprint('- id: p\n  prompt: hi\n  maxCalls: 0\n', { file: 't.yml' }).ok).toBe(true);
  });
});

describe('toolModeOf: the mode a run uses', () => {
  it('is native only when the blueprint says so; trace-only otherwise (Weval default)', () => {
    expect(toolModeOf({ mode: 'native' })).toBe('native');
    expect(toolModeOf({ enabled: true, mode: 'trace-only' })).toBe('trace-only');
    expect(toolModeOf({ enabled: true })).toBe('trace-only');
    expect(toolModeOf(null)).toBe('trace-only');
    // tool use switched off: nothing is sent, whatever the mode
    expect(toolModeOf({ enabled: false, mode: 'native' })).toBe('trace-only');
  });
});
