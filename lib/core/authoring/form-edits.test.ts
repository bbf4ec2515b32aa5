import { describe, expect, it } from 'vitest';
import { parseBlueprint } from '../blueprint';
import { editForm, FormEditError, type FormEdit } from './form-edits';
import { readForm } from './form-model';
import { modelOf } from './round-trip.testkit';

const edit = (text: string, e: FormEdit) => editForm(modelOf(text, 't.yml'), e);
const ok = (text: string) => {
  const r = parseBlueprint(text, { file: 't.yml' });
  if (!r.ok) throw new Error(r.errors.map((x) => `${x.line}:${x.col} ${x.message}`).join('\n'));
  return r.blueprint;
};

describe('reading every layout the parser accepts', () => {
  const cases: Record<string, { text: string; layout: string; ids: string[] }> = {
    'header + documents': { text: 'title: T\n---\n- id: a\n  prompt: A\n  should: [x]\n---\nid: b\nprompt: B\n', layout: 'documents', ids: ['a', 'b'] },
    'one document with prompts:': { text: 'title: T\nprompts:\n  - id: a\n    prompt: A\n', layout: 'prompts-key', ids: ['a'] },
    'a bare list': { text: '- id: a\n  prompt: A\n- id: b\n  prompt: B\n', layout: 'list', ids: ['a', 'b'] },
    'a lone prompt': { text: 'id: a\nprompt: A\nshould: [x]\n', layout: 'single-prompt', ids: ['a'] },
    'a stream of prompt documents': { text: 'prompt: A\n---\nid: b\nprompt: B\n', layout: 'documents', ids: ['', 'b'] },
    'a header alone': { text: 'title: T\ndescription: D\n', layout: 'header-only', ids: [] },
    // soev's `messages:` mapping in a header does not make it a prompt (documents.ts `looksLikePrompt`)
    'a header with soev messages': { text: 'title: T\nmessages:\n  refusal.code: R1\n---\n- id: a\n  prompt: A\n', layout: 'documents', ids: ['a'] },
  };
  for (const [name, c] of Object.entries(cases)) {
    it(name, () => {
      const { view } = modelOf(c.text, 't.yml');
      expect(view.layout).toBe(c.layout);
      const parsed = ok(c.text).prompts.map((p) => p.id);
      expect(view.prompts.map((p) => p.id)).toEqual(parsed);
      // explicit ids as written; a missing one is the parser's hash id
      c.ids.forEach((id, i) => (id ? expect(parsed[i]).toBe(id) : expect(parsed[i]).toMatch(/^hash-/)));
    });
  }

  it('reads Weval aliases, should_not, paths, questions, criteria and the short forms', () => {
    const text = [
      'title: T',
      '---',
      '- id: a',
      '  prompt: A',
      '  points:',
      '    - "Says hello": "Style guide"',
      '    - $contains: hi',
      '    - "$icontains: \'(A)\'"',
      '    - point: Polite',
      '      multiplier: 2',
      '      gate: true',
      '    - - one',
      '      - two',
      '    - - three',
      '    - score: How clear?',
      '      levels: [Muddled, Clear]',
      '    - choice: Which?',
      '      options: { yes: 1, no: 0, na: null }',
      '  should_not:',
      '    - Rude',
      '    - fn: contains',
      '      arg: damn',
    ].join('\n');
    const { view } = modelOf(text, 't.yml');
    const points = view.prompts[0]!.points;
    expect(view.prompts[0]!.rubricKey).toBe('points');
    expect(points.map((p) => [p.kind, p.block, p.path, p.text ?? p.fn])).toEqual([
      ['text', 'should', null, 'Says hello'],
      ['function', 'should', null, 'contains'],
      ['function', 'should', null, 'icontains'],
      ['text', 'should', null, 'Polite'],
      ['text', 'should', 'should:0', 'one'],
      ['text', 'should', 'should:0', 'two'],
      ['text', 'should', 'should:1', 'three'],
      ['question', 'should', null, 'How clear?'],
      ['question', 'should', null, 'Which?'],
      ['text', 'should_not', null, 'Rude'],
      ['function', 'should_not', null, 'contains'],
    ]);
    expect(points[0]!.citation).toBe('Style guide');
    expect(points[2]!.args).toBe('(A)');
    expect([points[3]!.weight, points[3]!.gate]).toEqual([2, true]);
    expect(points[7]!.question).toEqual({ type: 'score', text: 'How clear?', levels: ['Muddled', 'Clear'], options: null });
    expect(points[8]!.question?.options).toEqual({ yes: 1, no: 0, na: null });
    expect(points.length).toBe(ok(text).prompts[0]!.points.length);
  });

  it('takes a repeated id as the parser renames it', () => {
    const text = '- id: a\n  prompt: A\n- id: a\n  prompt: B\n';
    expect(modelOf(text, 't.yml').view.prompts.map((p) => p.id)).toEqual(['a', 'a-2']);
  });

  it('reads a `- kind:` criterion entry with its parameters', () => {
    const { view } = modelOf('- prompt: A\n  should:\n    - kind: reply.language\n      language: nl\n      weight: 2\n', 't.yml');
    expect(view.prompts[0]!.points[0]).toMatchObject({ kind: 'criterion', criterion: { kind: 'reply.language', params: { language: 'nl' } }, weight: 2 });
  });

  it('says where the YAML does not parse, and reads nothing', () => {
    const text = 'title: T\nprompts:\n  - prompt: "open\n';
    const parsed = parseBlueprint(text, { file: 't.yml' });
    expect(parsed.ok).toBe(false);
    // where the parser (and so the editor) puts the error
    if (!parsed.ok) expect(readForm(text, 't.yml')).toMatchObject({ ok: false, line: parsed.errors[0]!.line, col: parsed.errors[0]!.col });
  });
});

describe('point edits keep everything else byte for byte', () => {
  const text = '# top comment\ntitle: T   # kept\nprompts:\n  - id: a\n    prompt: A\n    should:\n      - "Says hello"   # why\n      - point: Polite\n        multiplier: 2\n      - {point: Brief, weight: 1}\n';

  it('a string point gains a weight by becoming a mapping', () => {
    expect(edit(text, { op: 'point', prompt: 0, point: 0, field: 'weight', value: 3 })).toBe(text.replace('- "Says hello"   # why', '- point: "Says hello"\n        weight: 3   # why'));
  });
  it('a written multiplier is set where it is written, and removed with null', () => {
    expect(edit(text, { op: 'point', prompt: 0, point: 1, field: 'weight', value: 0.5 })).toBe(text.replace('multiplier: 2', 'multiplier: 0.5'));
    expect(edit(text, { op: 'point', prompt: 0, point: 1, field: 'weight', value: null })).toBe(text.replace('        multiplier: 2\n', ''));
  });
  it('a flow mapping keeps its style', () => {
    expect(edit(text, { op: 'point', prompt: 0, point: 2, field: 'gate', value: true })).toBe(text.replace('{point: Brief, weight: 1}', '{point: Brief, weight: 1, gate: true}'));
    expect(edit(text, { op: 'point', prompt: 0, point: 2, field: 'citation', value: 'Guide: p. 2' })).toBe(text.replace('weight: 1}', 'weight: 1, citation: "Guide: p. 2"}'));
  });
  it('the text of a point keeps its quotes', () => {
    const after = edit(text, { op: 'point', prompt: 0, point: 0, field: 'text', value: 'Says "hi"' });
    expect(after).toBe(text.replace('"Says hello"', '"Says \\"hi\\""'));
    expect(ok(after).prompts[0]!.points[0]!.text).toBe('Says "hi"');
  });
  it('a criterion/citation pair becomes point + citation when it gains a weight', () => {
    const t = '- prompt: A\n  should:\n    - "Says hello": "Style guide"\n';
    expect(edit(t, { op: 'point', prompt: 0, point: 0, field: 'weight', value: 2 })).toBe('- prompt: A\n  should:\n    - point: Says hello\n      citation: Style guide\n      weight: 2\n');
  });
  it('a quoted "$fn: arg" becomes `$fn: arg` when it gains a gate; its arguments are edited in flow style', () => {
    const t = '- prompt: A\n  should:\n    - "$icontains: \'(A)\'"\n    - $contains_any_of: [a, b]\n';
    expect(edit(t, { op: 'point', prompt: 0, point: 0, field: 'gate', value: true })).toBe('- prompt: A\n  should:\n    - $icontains: (A)\n      gate: true\n    - $contains_any_of: [a, b]\n');
    const after = edit(t, { op: 'point', prompt: 0, point: 1, field: 'args', value: ['a', 'b', 'c, d'] });
    expect(after).toBe(t.replace('[a, b]', '[a, b, "c, d"]'));
    expect(ok(after).prompts[0]!.points[1]).toMatchObject({ kind: 'function', args: ['a', 'b', 'c, d'] });
  });
  it('a score question gets new levels and a choice new options', () => {
    const t = '- prompt: A\n  should:\n    - score: How clear?\n      levels: [Muddled, Clear]\n';
    const after = edit(t, { op: 'point', prompt: 0, point: 0, field: 'levels', value: ['Muddled', 'Mixed', 'Clear'] });
    expect(after).toBe(t.replace('[Muddled, Clear]', '[Muddled, Mixed, Clear]'));
    const choice = '- prompt: A\n  should:\n    - choice: Which?\n      options: { yes: 1, no: 0 }\n';
    const withNa = edit(choice, { op: 'point', prompt: 0, point: 0, field: 'options', value: { yes: 1, no: 0, 'not: sure': null } });
    expect(withNa).toBe(choice.replace('{ yes: 1, no: 0 }', '{yes: 1, no: 0, "not: sure": null}'));
    expect(ok(withNa).prompts[0]!.points[0]).toMatchObject({ question: { type: 'choice', options: { yes: 1, no: 0, 'not: sure': null } } });
    expect(ok(after).prompts[0]!.points[0]).toMatchObject({ question: { type: 'score', levels: ['Muddled', 'Mixed', 'Clear'] } });
  });
  it('a multi-line value of a block scalar stays a block at its indentation', () => {
    const t = '- prompt: A\n  should:\n    - point: |\n        line one\n        line two\n      weight: 2\n';
    const after = edit(t, { op: 'point', prompt: 0, point: 0, field: 'text', value: 'line one\nline 2\n' });
    expect(after).toBe('- prompt: A\n  should:\n    - point: |\n        line one\n        line 2\n      weight: 2\n');
  });
  it('refuses an alias, saying where to edit it', () => {
    const t = '- prompt: A\n  should:\n    - &p Polite\n- prompt: B\n  should:\n    - *p\n';
    expect(() => edit(t, { op: 'point', prompt: 1, point: 0, field: 'weight', value: 2 })).toThrow(FormEditError);
  });
});

describe('adding and removing points and prompts', () => {
  const text = 'title: T\n---\n- id: a\n  prompt: A\n  should:\n    - One   # first\n    - Two\n  # trailing comment\n- id: b\n  prompt: B\n';
  it('adds a point at the end of the rubric, and a rubric where there is none', () => {
    expect(edit(text, { op: 'add-point', prompt: 0, block: 'should', text: 'Three' })).toBe(text.replace('    - Two\n', '    - Two\n    - "Three"\n'));
    const after = edit(text, { op: 'add-point', prompt: 1, block: 'should_not', text: 'Rude' });
    expect(after).toBe(text + '  should_not:\n    - "Rude"\n');
    expect(ok(after).prompts[1]!.points).toMatchObject([{ text: 'Rude', source: 'should_not' }]);
  });
  it('removes a point\'s lines only', () => {
    expect(edit(text, { op: 'remove-point', prompt: 0, point: 0 })).toBe(text.replace('    - One   # first\n', ''));
  });
  it('removes a member of an alternative path that starts its line', () => {
    const t = '- prompt: A\n  should:\n    - - one\n      - two\n    - - three\n      - four\n';
    expect(edit(t, { op: 'remove-point', prompt: 0, point: 0 })).toBe('- prompt: A\n  should:\n    - - two\n    - - three\n      - four\n');
  });
  it('refuses to add a prompt to a flow list, saying where to write it', () => {
    expect(() => edit('title: T\nprompts: []\n', { op: 'add-prompt', id: 'c', prompt: 'C' })).toThrow(/prompts/);
  });
  it('adds a prompt to the list, and to a file of prompt documents as a document', () => {
    const after = edit(text, { op: 'add-prompt', id: 'c', prompt: 'C?' });
    expect(after).toBe(text + '- id: c\n  prompt: C?\n  should:\n    - "The reply …"\n');
    expect(ok(after).prompts.map((p) => p.id)).toEqual(['a', 'b', 'c']);
    const docs = 'id: a\nprompt: A\n---\nid: b\nprompt: B\n';
    expect(ok(edit(docs, { op: 'add-prompt', id: 'c', prompt: 'C' })).prompts.map((p) => p.id)).toEqual(['a', 'b', 'c']);
    const nested = 'title: T\nprompts:\n  - id: a\n    prompt: A\n';
    expect(edit(nested, { op: 'add-prompt', id: 'c', prompt: 'C' })).toBe(nested + '  - id: c\n    prompt: C\n    should:\n      - "The reply …"\n');
  });
  it('removes a prompt (list item or document)', () => {
    expect(edit(text, { op: 'remove-prompt', prompt: 1 })).toBe('title: T\n---\n- id: a\n  prompt: A\n  should:\n    - One   # first\n    - Two\n  # trailing comment\n');
    expect(edit('id: a\nprompt: A\n---\nid: b\nprompt: B\n', { op: 'remove-prompt', prompt: 1 })).toBe('id: a\nprompt: A\n');
  });
});

describe('header and prompt fields', () => {
  it('sets the title, adds a description, and edits a block list of models item by item', () => {
    const text = 'title: T # c\nmodels:\n  - openai:gpt-4o   # main\n  - anthropic:claude\n---\n- prompt: A\n';
    expect(edit(text, { op: 'header', field: 'title', value: 'New: title' })).toBe(text.replace('title: T', 'title: "New: title"'));
    expect(edit(text, { op: 'header', field: 'description', value: 'D' })).toBe(text.replace('  - anthropic:claude\n', '  - anthropic:claude\ndescription: D\n'));
    expect(edit(text, { op: 'header', field: 'models', value: ['openai:gpt-4o', 'google:gemini'] })).toBe(text.replace('anthropic:claude', 'google:gemini'));
    expect(edit(text, { op: 'header', field: 'models', value: ['openai:gpt-4o'] })).toBe(text.replace('  - anthropic:claude\n', ''));
  });
  it('gives a bare list a header document', () => {
    const after = edit('- prompt: A\n', { op: 'header', field: 'title', value: 'T' });
    expect(after).toBe('title: T\n---\n- prompt: A\n');
    expect(ok(after).title).toBe('T');
  });
  it('sets a prompt\'s weight where its alias is written, and its text', () => {
    const text = '- id: a\n  prompt: "A"\n  importance: 2\n';
    expect(edit(text, { op: 'prompt', prompt: 0, field: 'weight', value: 3 })).toBe(text.replace('importance: 2', 'importance: 3'));
    expect(edit(text, { op: 'prompt', prompt: 0, field: 'prompt', value: 'B' })).toBe(text.replace('"A"', '"B"'));
  });
  it('edits a message of a conversation', () => {
    const text = '- messages:\n    - user: Hi\n    - assistant: null\n    - user: "More?"\n';
    const after = edit(text, { op: 'message', prompt: 0, message: 2, value: 'Less?' });
    expect(after).toBe(text.replace('"More?"', '"Less?"'));
  });
});
