import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { authorProblems, problemsSummary } from './author-problems';

const example = readFileSync('blueprints/examples/medical-facts-weights.yml', 'utf8');

describe('authorProblems', () => {
  it('finds nothing in an example blueprint', () => {
    expect(authorProblems(example, 'blueprints/examples/medical-facts-weights.yml')).toEqual([]);
  });

  it('places each issue at its line:col and underlines the token there, in text order', () => {
    const text = example.replace('weight: 3', 'weight: 30').replace('- $icontains: "8 grams"', '- $no_such_fn: "8 grams"');
    const problems = authorProblems(text, 'x.yml');
    expect(problems.map((p) => [p.severity, p.code, p.line, p.col, text.slice(p.from, p.to)])).toEqual([
      ['error', 'schema', 24, 17, '30'],
      ['error', 'unknown_function', 34, 9, '$no_such_fn'],
    ]);
    expect(problems[1]!.message).toBe('unknown point function "no_such_fn"');
    expect(problems[1]!.hint).toMatch(/\$contains/);
  });

  it('gives a position with nothing to underline an empty range (the end of the text)', () => {
    expect(authorProblems('title: [', 'x.yml')).toMatchObject([{ code: 'syntax', line: 1, col: 9, from: 8, to: 8 }]);
  });

  it('finds no problem in an empty draft, and the list says so neutrally (an empty editor is a start, not an error)', () => {
    expect(authorProblems('', 'blueprints/my-blueprint.yml')).toEqual([]);
    expect(authorProblems(' \n\n', 'blueprints/my-blueprint.yml')).toEqual([]);
    expect(problemsSummary([], { checked: true, empty: true })).toBe('none yet: write a blueprint here, or start from an example above');
    expect(problemsSummary([], { checked: true, empty: false })).toBe('none: the blueprint is valid');
    expect(problemsSummary([], { checked: false, empty: true })).toBe('checking…');
    expect(problemsSummary(authorProblems('title: [', 'x.yml'), { checked: true, empty: false })).toBe('1 error, 0 warnings');
  });
});
