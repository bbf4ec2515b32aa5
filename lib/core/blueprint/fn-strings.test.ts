import { describe, expect, it } from 'vitest';
import { parseFnString } from './fn-strings';

describe('parseFnString', () => {
  it.each([
    ['$factcheck', { kind: 'function', name: 'factcheck', hasArgs: false }],
    ["$icontains: '(A)'", { kind: 'function', name: 'icontains', hasArgs: true, args: '(A)' }],
    ["$icontains: 'it''s'", { kind: 'function', name: 'icontains', hasArgs: true, args: "it's" }],
    ['$matches: "-50\\."', { kind: 'function', name: 'matches', hasArgs: true, args: '-50\\.' }],
    ['$matches: "a\\nb \\u00e9 \\\\d"', { kind: 'function', name: 'matches', hasArgs: true, args: 'a\nb é \\d' }],
    ['$word_count_between: [50, 100]', { kind: 'function', name: 'word_count_between', hasArgs: true, args: [50, 100] }],
    ['$icontains: European Portuguese', { kind: 'function', name: 'icontains', hasArgs: true, args: 'European Portuguese' }],
    ['$icontains: "label": "x"', { kind: 'function', name: 'icontains', hasArgs: true, args: '"label": "x"' }],
    ['$js:', { kind: 'function', name: 'js', hasArgs: true, args: null }],
    ['Plain criterion', { kind: 'text' }],
    ['$', { kind: 'text' }],
    ['$100 is the answer', { kind: 'text' }],
  ])('%j', (text, expected) => expect(parseFnString(text)).toEqual(expected));

  it('reports strings that start like a function but are not one', () => {
    expect(parseFnString('$contains x')).toMatchObject({ kind: 'invalid', name: 'contains' });
    expect(parseFnString('$contains_all_of: [unclosed')).toMatchObject({ kind: 'invalid', name: 'contains_all_of' });
  });
});
