import { describe, expect, it } from 'vitest';
import { planGenerations } from '../runs/plan';
import { parseBlueprint } from './parse';

const at = (result: ReturnType<typeof parseBlueprint>) => (result.ok ? [] : result.errors.map((i) => `${i.line}:${i.col} ${i.message}`));

describe('Weval fields that were holes', () => {
  it('a multi-document file whose first document holds only `expect:` points is a prompt, its points kept', () => {
    const result = parseBlueprint('id: first\nprompt: What is the capital of France?\n---\n', { file: 'a.yml' });
    expect(result.ok).toBe(true);
    const text = 'id: first\nmessages:\n  - user: Capital of France?\nexpect:\n  - mentions Paris\n  - $contains: Paris\n---\n- id: second\n  prompt: x\n';
    const parsed = parseBlueprint(text.replace('messages:\n  - user: Capital of France?\n', ''), { file: 'a.yml' });
    // without prompt text it is still a prompt (and says what is missing), not a header whose points vanish
    expect(parsed.ok).toBe(false);
    expect(at(parsed)).toEqual(['1:1 a prompt needs `prompt:` (one user turn) or `messages:` (a conversation)']);
    const full = parseBlueprint('id: first\nexpect:\n  - mentions Paris\n  - $contains: Paris\nprompt: Capital of France?\n---\n- id: second\n  prompt: x\n', { file: 'a.yml' });
    expect(full.ok && full.blueprint.prompts.map((p) => [p.id, p.points.length])).toEqual([['first', 2], ['second', 0]]);
    expect(full.warnings).toEqual([]);
  });

  it("a prompt's `temperature` is read, checked, and runs that prompt at that temperature only", () => {
    const text = 'models: [openai:gpt-4o]\ntemperatures: [0, 0.7]\n---\n- id: own\n  prompt: a\n  temperature: 0.3\n- id: axis\n  prompt: b\n';
    const result = parseBlueprint(text, { file: 't.yml' });
    expect(result.warnings).toEqual([]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.blueprint.prompts.map((p) => p.temperature ?? null)).toEqual([0.3, null]);
    const cells = planGenerations(result.blueprint, { models: ['openai:gpt-4o'], repeats: 1, maxPrompts: null } as never);
    expect(cells.map((c) => [c.promptKey, c.temperatureIndex, c.temperature])).toEqual([
      ['own', 0, 0.3],
      ['axis', 0, 0],
      ['axis', 1, 0.7],
    ]);
    const bad = parseBlueprint('- id: p\n  prompt: a\n  temperature: 3\n', { file: 't.yml' });
    expect(at(bad)).toEqual(["3:16 a prompt's `temperature` must be a number from 0 to 2, not 3"]);
  });

  it('toolUse: trace-only (Weval) or native (Assay), never auto; maxSteps and maxCalls whole numbers ≥ 1, with positions', () => {
    const ok = parseBlueprint('toolUse: { enabled: true, mode: trace-only, maxSteps: 2, maxCalls: 3 }\n---\n- prompt: a\n', { file: 'u.yml' });
    expect(ok.ok).toBe(true);
    expect(ok.warnings).toEqual([]);
    expect(parseBlueprint('toolUse: { mode: native }\n---\n- prompt: a\n', { file: 'u.yml' }).ok).toBe(true);
    const bad = parseBlueprint('toolUse:\n  mode: auto\n  maxCalls: 0\n---\n- prompt: a\n', { file: 'u.yml' });
    expect(at(bad)).toEqual(['2:9 `toolUse.mode` must be trace-only or native, not "auto"', '3:13 `toolUse.maxCalls` must be a whole number ≥ 1']);
    expect(!bad.ok && bad.errors[0]!.hint).toMatch(/Weval's parser rejects `auto` too; write `mode: native`/);
  });

  it('externalServices: an invalid URL, a missing url and a method other than GET/POST/PUT are load-time errors', () => {
    const good = parseBlueprint('externalServices:\n  checker: { url: "https://c.example/score", method: post }\n  getter: { url: "http://g.example", method: GET }\n---\n- prompt: a\n', { file: 'e.yml' });
    expect(good.ok).toBe(true);
    const bad = parseBlueprint(
      'externalServices:\n  checker:\n    url: not a url\n    method: DELETE\n  nourl: { method: PUT }\n  ftp: { url: "ftp://x.example" }\n  flat: https://x\n---\n- prompt: a\n',
      { file: 'e.yml' },
    );
    expect(at(bad)).toEqual([
      '3:10 external service `checker` has an invalid url "not a url"',
      '4:13 external service `checker` has method "DELETE"; Weval sends only GET, POST, PUT',
      '5:10 external service `nourl` needs a `url`',
      '6:15 external service `ftp` has an invalid url "ftp://x.example"',
      '7:9 external service `flat` must be a mapping with a `url`, not a string',
    ]);
  });
});
