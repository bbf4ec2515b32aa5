import { describe, expect, it } from 'vitest';
import { ALIASES } from './aliases';
import { checkPointArgs } from './evaluate';
import { acceptedNames, listPointFunctions, resolvePointFunction } from './registry';

function resolved(written: string) {
  const r = resolvePointFunction(written);
  return r.ok ? { canonical: r.canonical, negated: r.negated } : { error: r.message, suggestions: r.suggestions };
}

function argsMessage(fn: string, args: unknown): string {
  const r = resolvePointFunction(fn);
  if (!r.ok) throw new Error(r.message);
  const checked = checkPointArgs(r.def, args);
  return checked.ok ? 'valid' : checked.message;
}

describe('resolvePointFunction', () => {
  it('resolves canonical names, with or without $', () => {
    expect(resolved('contains')).toEqual({ canonical: 'contains', negated: false });
    expect(resolved('$icontains_word')).toEqual({ canonical: 'icontains_word', negated: false });
  });

  it('resolves every alias to its canonical function', () => {
    for (const [alias, canonical] of Object.entries(ALIASES)) expect(resolved(alias), alias).toEqual({ canonical, negated: false });
    expect(resolved('$imatch')).toEqual({ canonical: 'imatches', negated: false });
    expect(resolved('expr')).toEqual({ canonical: 'js', negated: false });
    expect(resolved('external')).toEqual({ canonical: 'call', negated: false });
  });

  it('negates any negatable function, through its aliases too', () => {
    expect(resolved('not_contains')).toEqual({ canonical: 'contains', negated: true });
    expect(resolved('$not_imatch')).toEqual({ canonical: 'imatches', negated: true });
    expect(resolved('not_start_with')).toEqual({ canonical: 'starts_with', negated: true });
    expect(resolved('not_tool_called')).toEqual({ canonical: 'tool_called', negated: true });
    expect(resolved('not_is_json')).toEqual({ canonical: 'is_json', negated: true });
  });

  it('negates every function as 1 − score, as Weval scores each of them under should_not, but never twice', () => {
    for (const name of ['js', 'word_count_between', 'call', 'factcheck']) {
      expect(resolvePointFunction(`not_${name}`)).toMatchObject({ ok: true, canonical: name, negated: true });
    }
    expect(resolved('not_not_contains')).toMatchObject({ error: expect.stringMatching(/unknown/) });
  });

  it('never rewrites prefixes blindly (README item 3): unknown names get suggestions', () => {
    expect(resolved('containing')).toMatchObject({ suggestions: expect.arrayContaining(['contains']) });
    expect(resolved('matching')).toMatchObject({ suggestions: expect.arrayContaining(['matches']) });
    expect(resolved('$contians')).toMatchObject({ error: expect.stringMatching(/did you mean \$contains/) });
    expect(resolved('regex')).toMatchObject({ suggestions: ['matches'] });
    expect(resolved('not_regex')).toMatchObject({ suggestions: expect.arrayContaining(['not_matches']) });
    expect(resolved('json')).toMatchObject({ suggestions: expect.arrayContaining(['is_json']) });
    expect(resolved('Contains')).toMatchObject({ suggestions: expect.arrayContaining(['contains']) });
  });

  it('explains a function and argument glued into one quoted string (README item 1)', () => {
    expect(resolved("icontains: '(A)'")).toEqual({
      error: expect.stringMatching(/YAML mapping .*`- \$icontains: '\(A\)'`/) as string,
      suggestions: ['icontains'],
    });
  });
});

describe('the catalogue', () => {
  const names = listPointFunctions().map((def) => def.name);

  it('has every function of SPEC §2.4 under its canonical name', () => {
    for (const name of ['contains', 'icontains', 'starts_with', 'istarts_with', 'ends_with', 'iends_with', 'matches', 'imatches', 'contains_any_of', 'icontains_any_of', 'contains_all_of', 'icontains_all_of', 'contains_at_least_n_of', 'icontains_at_least_n_of', 'matches_all_of', 'imatches_all_of', 'matches_at_least_n_of', 'imatches_at_least_n_of', 'contains_word', 'icontains_word', 'word_count_between', 'is_json', 'js', 'tool_called', 'tool_args_match', 'tool_call_count_between', 'tool_call_order', 'call', 'factcheck']) {
      expect(names, name).toContain(name);
    }
  });

  it('describes every function and lists every accepted spelling once', () => {
    for (const def of listPointFunctions()) expect(def.description.length, def.name).toBeGreaterThan(10);
    expect(new Set(acceptedNames).size).toBe(acceptedNames.length);
    expect(acceptedNames).toContain('not_icontain_word');
  });
});

describe('argument schemas say how to write the argument', () => {
  it.each([
    ['contains', 123, /contains expects a string \(quote numbers\)/],
    ['icontains', ['a'], /icontains expects a string/],
    ['contains_any_of', 'world', /expects a list of strings, e\.g\./],
    ['contains_all_of', ['a', 2], /expects a list of strings/],
    ['contains_at_least_n_of', [3, 'one'], /expects \[n, \[strings…\]\]/],
    ['contains_at_least_n_of', [-1, ['a']], /n a whole number/],
    ['contains_at_least_n_of', [1.5, ['a']], /n a whole number/],
    ['imatch_at_least_n_of', ['2', ['a']], /expects \[n, \[strings…\]\]/],
    ['word_count_between', [5, 3], /0 ≤ min ≤ max/],
    ['word_count_between', [-1, 3], /0 ≤ min ≤ max/],
    ['word_count_between', [1, 2, 3], /\[min, max\]/],
    ['is_json', false, /is_json takes no argument/],
    ['js', '   ', /js expects JavaScript source/],
    ['js', 42, /js expects JavaScript source/],
    ['tool_called', '', /tool_called expects a tool name/],
    ['tool_call_count_between', [3, 1], /0 ≤ min ≤ max/],
    ['tool_call_count_between', [1, 2, 3], /"tool_name"/],
    ['tool_call_order', [], /non-empty list of tool names/],
    ['tool_args_match', { name: 'x' }, /tool_args_match expects \{ name/],
    ['tool_args_match', { name: 'x', where: {}, extra: 1 }, /extra|tool_args_match expects/],
    ['call', { claim: 'x' }, /\$call expects \{ service/],
    ['call', { service: 'a', url: 'b' }, /\$call expects/],
    ['factcheck', 42, /\$factcheck takes no argument or an instruction string/],
  ])('%s %j', (fn, args, message) => {
    expect(argsMessage(fn, args)).toMatch(message);
  });

  it.each([
    ['contains', ''],
    ['contains_all_of', []],
    ['contains_at_least_n_of', [4, ['a', 'b']]],
    ['word_count_between', [0, 0]],
    ['word_count_between', [1.5, 2.5]],
    ['is_json', undefined],
    ['is_json', null],
    ['is_json', true],
    ['tool_call_count_between', [1, 1, 'calculator']],
    ['tool_args_match', { name: 'calculator', where: { expression: '1+1' }, normalizeWhitespace: true }],
    ['tool_args_match', { name: 'calculator', where: 'args.expression.length > 0' }],
    ['call', { service: 'fact-checker', claim: 'Paris is the capital', response: '{response}' }],
    ['call', { url: 'https://api.example.com/validate', method: 'POST', headers: { a: 'b' }, timeout_ms: 100 }],
    ['factcheck', undefined],
    ['factcheck', 'focus on dates'],
  ])('accepts %s %j', (fn, args) => {
    expect(argsMessage(fn, args)).toBe('valid');
  });
});
