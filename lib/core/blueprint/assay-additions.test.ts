import { describe, expect, it } from 'vitest';
import { errorsOf, load, where, yaml } from './blueprint.testkit';

describe('judge questions as points (seed 004)', () => {
  it('reads noul, score and choice points with weight, citation and gate', () => {
    const points = load(yaml`
      - prompt: q
        should:
          - noul: "Every figure in the reply appears in a tool output"
            weight: 2
          - score: "How grounded is the reply?"
            levels: [Fabricated, Mostly fabricated, Mostly grounded, Fully grounded]
            gate: true
          - choice: "How does the reply handle missing information?"
            options: { left_it_out: 1, hedged_it: 0.5, stated_it_as_fact: 0, nothing_missing: null }
    `).prompts[0]!.points;
    expect(points.map((p) => [p.kind, p.text, p.weight, p.gate])).toEqual([
      ['question', 'Every figure in the reply appears in a tool output', 2, false],
      ['question', 'How grounded is the reply?', 1, true],
      ['question', 'How does the reply handle missing information?', 1, false],
    ]);
    expect(points.map((p) => (p.kind === 'question' ? p.question : null))).toEqual([
      { type: 'noul', statement: 'Every figure in the reply appears in a tool output' },
      { type: 'score', question: 'How grounded is the reply?', levels: ['Fabricated', 'Mostly fabricated', 'Mostly grounded', 'Fully grounded'] },
      { type: 'choice', question: 'How does the reply handle missing information?', options: { left_it_out: 1, hedged_it: 0.5, stated_it_as_fact: 0, nothing_missing: null } },
    ]);
  });

  it('rejects a score whose levels are not an explicit worst-to-best list', () => {
    const errors = errorsOf(yaml`
      - prompt: q
        should:
          - score: "How grounded?"
          - score: "How grounded?"
            levels: { Fabricated: 0, Grounded: 1 }
          - score: "How grounded?"
            levels: [Only one]
    `);
    expect(where(errors)).toEqual(['3:7 invalid_question', '5:15 invalid_question', '7:15 invalid_question']);
    expect(errors[0]!.message).toMatch(/explicit list written worst first/);
    expect(errors[1]!.hint).toMatch(/order is the meaning/);
  });

  it('rejects a choice with a credit outside [0, 1] or without options', () => {
    const errors = errorsOf('- prompt: q\n  should:\n    - choice: "Which?"\n      options: { a: 2 }\n    - choice: "Which?"\n');
    expect(where(errors)).toEqual(['4:21 invalid_question', '5:7 invalid_question']);
  });
});

describe('correct: blocks (seed 002)', () => {
  it('becomes one pass/fail point with the tree, weight and gate', () => {
    const prompt = load(yaml`
      - prompt: Copy the runbook.
        correct:
          gate: true
          any:
            - name: copy_cli
              assertions:
                - { type: jsonpath_equals, path: "$.tool_calls[0].name", value: useTools }
                - { type: jsonpath_regex, path: "$.tool_calls[0].arguments.tool", pattern: '(?i)^storage copy\b' }
    `).prompts[0]!;
    expect(prompt.points).toHaveLength(1);
    expect(prompt.points[0]).toMatchObject({ kind: 'correct', text: 'correct', gate: true, weight: 1, source: 'should', path: null });
    expect(prompt.points[0]!.kind === 'correct' && 'any' in prompt.points[0]!.check && prompt.points[0]!.check.any).toHaveLength(1);
  });

  it('reports a malformed tree and a bad regex at their nodes', () => {
    const errors = errorsOf(yaml`
      - prompt: q
        correct:
          all:
            - { type: jsonpath_equal, path: "$.content", value: x }
      - prompt: q
        correct:
          all:
            - { type: regex, pattern: "([" }
    `);
    expect(where(errors)).toEqual(['4:9 invalid_correct', '8:33 invalid_regex']);
  });

  it('reports a jsonpath-plus (Weval) path at its node, saying what to write instead', () => {
    const errors = errorsOf(yaml`
      - prompt: q
        correct:
          any:
            - { type: jsonpath_exists, path: "$.tool_calls[?(@.name.includes('get'))]" }
            - { type: jsonpath_exists, path: "$.tool_calls[?search(@.name, 'get')]" }
            - { type: jsonpath_equals, path: "$.tool_calls.length", value: 2 }
    `);
    expect(where(errors)).toEqual(['4:40 invalid_correct', '6:40 invalid_correct']);
    expect(errors[0]!.message).toContain("search(@.name, 'text')");
    expect(errors[1]!.message).toContain('length(@.name) > 0');
  });
});

describe('case fields (seed 003)', () => {
  it('reads repeats, status, split, lineage, category, tags and variants', () => {
    const prompt = load(yaml`
      - id: greet
        prompt: Hallo, wie ben jij?
        repeats: 5
        status: draft
        split: test
        lineage: greet
        category: smalltalk
        tags: [nl]
        variants:
          informal: Hoi, alles goed?
          two_turns: [Hallo, Hoe gaat het?]
    `).prompts[0]!;
    expect(prompt).toMatchObject({ repeats: 5, status: 'draft', split: 'test', lineage: 'greet', category: 'smalltalk', tags: ['nl'] });
    expect(prompt.variants).toEqual([
      { name: 'informal', messages: [{ role: 'user', content: 'Hoi, alles goed?' }] },
      { name: 'two_turns', messages: [{ role: 'user', content: 'Hallo' }, { role: 'user', content: 'Hoe gaat het?' }] },
    ]);
  });

  it('defaults: one repeat, active, dev, no expectation', () => {
    expect(load('- prompt: q\n').prompts[0]).toMatchObject({ repeats: 1, status: 'active', split: 'dev', expect: null, variants: [], lineage: null });
  });

  it("tells soev's `expect:` mapping from Weval's `expect:` list of points", () => {
    const [soev, weval] = load(yaml`
      - prompt: q
        expect:
          behaviour: refuse
          nuggets: ["Says it cannot help", { text: "Points to the helpline", importance: okay, sources: [helpline/1] }]
          sources: { required: { law: [law/1, law/2] }, forbidden: [blog/9] }
      - prompt: q
        expect:
          - Mentions Paris
    `).prompts;
    expect(soev!.points).toEqual([]);
    expect(soev!.expect).toEqual({
      behaviour: 'refuse',
      message: null,
      answer: null,
      nuggets: [
        { text: 'Says it cannot help', importance: 'vital', sources: [] },
        { text: 'Points to the helpline', importance: 'okay', sources: ['helpline/1'] },
      ],
      sources: { required: { law: ['law/1', 'law/2'] }, supporting: [], forbidden: ['blog/9'] },
    });
    expect(weval!.expect).toBeNull();
    expect(weval!.points.map((p) => p.text)).toEqual(['Mentions Paris']);
  });

  it('rejects bad values at their position', () => {
    expect(where(errorsOf('- prompt: q\n  repeats: 0\n  split: holdout\n  status: live\n'))).toEqual(['2:12 schema', '3:10 schema', '4:11 schema']);
  });

  it('rejects two rubrics under different aliases (Weval read one, dropped the other)', () => {
    expect(where(errorsOf('- prompt: q\n  should: [a]\n  points: [b]\n'))).toEqual(['3:3 schema']);
  });
});

describe('conversations', () => {
  it('reads shorthand and formal messages; assistant: null is a generated turn', () => {
    const prompt = load(yaml`
      - messages:
          - system: Be brief.
          - user: Hi
          - ai: Hello
          - user: Tell me more
          - assistant: null
          - role: user
            content: Thanks
    `).prompts[0]!;
    expect(prompt.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello' },
      { role: 'user', content: 'Tell me more' },
      { role: 'assistant', content: null },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it('rejects malformed messages at their position', () => {
    const errors = errorsOf('- messages:\n    - { user: u, assistant: a }\n    - robot: hi\n    - user: null\n- id: x\n');
    expect(where(errors)).toEqual(['2:7 schema', '3:7 schema', '4:13 schema', '5:3 schema']);
  });
});

describe('prompt fields', () => {
  it("reads Weval's aliases and validates weight and system", () => {
    const prompt = load(yaml`
      - id: p
        promptText: q
        idealResponse: a
        importance: 2
        reference: { title: "Paper", url: "https://x" }
        system: null
        noCache: true
        render_as: html
    `).prompts[0]!;
    expect(prompt).toMatchObject({ ideal: 'a', weight: 2, citation: 'Paper', citationUrl: 'https://x', system: null, noCache: true, render_as: 'html' });
    expect(load('- prompt: q\n').prompts[0]).not.toHaveProperty('system');
    const [error] = errorsOf('- prompt: q\n  system: [a, b]\n');
    expect(error!.hint).toMatch(/`systems` \(plural\)/);
  });
});
