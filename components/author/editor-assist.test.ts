import { CompletionContext } from '@codemirror/autocomplete';
import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { authoringCatalog } from '@/lib/core';
import { blueprintCompletions, docAt, scopeAt } from './editor-assist';

const catalog = authoringCatalog();

const TEXT = `title: T
models: [openai:gpt-4o-mini]
prompts:
  - id: p
    prompt: hi
    should:
      - $contains: "x"
        weight: 2
      - 
`;
const state = EditorState.create({ doc: TEXT });
const at = (needle: string, delta = 0) => TEXT.indexOf(needle) + delta;

describe('scopeAt', () => {
  it('reads header, prompt and point scopes from the indentation above', () => {
    expect(scopeAt(state, at('models'))).toBe('header');
    expect(scopeAt(state, at('prompt: hi'))).toBe('prompt');
    expect(scopeAt(state, at('$contains'))).toBe('point');
    expect(scopeAt(state, at('weight: 2'))).toBe('point');
  });
});

describe('docAt', () => {
  it('documents a $function with its argument shape and example, and a key with its schema description', () => {
    const fn = docAt(catalog, state, at('$contains', 3))!;
    expect(TEXT.slice(fn.from, fn.to)).toBe('$contains');
    expect(fn.text).toContain('The response contains the string (case-sensitive).');
    expect(fn.text).toContain('Argument: string');
    expect(fn.text).toContain('Example: - $contains: "fiduciary duty"');
    expect(docAt(catalog, state, at('title', 1))!.text).toBe("title: The blueprint's title.");
    expect(docAt(catalog, state, at('weight: 2', 1))!.text).toMatch(/^weight: The point's relative weight, 0.1–10/);
    // a value is not a key
    expect(docAt(catalog, state, at('hi', 1))).toBeNull();
  });
});

describe('blueprintCompletions', () => {
  const complete = (pos: number, explicit = false) => blueprintCompletions(catalog)(new CompletionContext(state, pos, explicit));
  it('offers $functions where a point starts and keys of the scope, never inside a value', () => {
    const fns = complete(at('$contains', 4))!;
    expect(fns.from).toBe(at('$contains'));
    expect(fns.options.map((o) => o.label)).toEqual(expect.arrayContaining(['$contains', '$contain', '$not_contains', '$icontains_all_of']));
    expect(fns.options.find((o) => o.label === '$icontains_all_of')!.detail).toBe('string[]');
    const header = complete(at('models', 3))!;
    expect(header.options.map((o) => o.label)).toContain('models');
    expect(header.options.map((o) => o.label)).not.toContain('should');
    // explicitly asked for on the empty list item: the point's keys and functions
    const empty = complete(TEXT.length - 1, true)!;
    expect(empty.options.map((o) => o.label)).toEqual(expect.arrayContaining(['weight', 'gate', 'citation', '$js']));
    expect(complete(at('hi', 1))).toBeNull();
  });
});
