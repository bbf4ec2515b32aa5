/**
 * RFC 9535 behaviour of the one JSONPath evaluator, checked on the RFC's own examples (the
 * bookstore of §1.5 and the filter examples of §2.3.5.3 and §2.4), plus what jsonpath-plus
 * (Weval) paths now say.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonPath, selectJsonPath, wevalHint } from './jsonpath';

const BOOKSTORE = {
  store: {
    book: [
      { category: 'reference', author: 'Nigel Rees', title: 'Sayings of the Century', price: 8.95 },
      { category: 'fiction', author: 'Evelyn Waugh', title: 'Sword of Honour', price: 12.99 },
      { category: 'fiction', author: 'Herman Melville', title: 'Moby Dick', isbn: '0-553-21311-3', price: 8.99 },
      { category: 'fiction', author: 'J. R. R. Tolkien', title: 'The Lord of the Rings', isbn: '0-395-19395-8', price: 22.99 },
    ],
    bicycle: { color: 'red', price: 399 },
  },
};

const FILTERS = {
  a: [3, 5, 1, 2, 4, 6, { b: 'j' }, { b: 'k' }, { b: {} }, { b: 'kilo' }],
  o: { p: 1, q: 2, r: 3, s: 5, t: { u: 6 } },
  e: 'f',
};

const select = (path: string, json: unknown) => {
  const r = selectJsonPath(path, json);
  if (!r.ok) throw new Error(r.message);
  return r.values;
};

describe('RFC 9535 §1.5: the bookstore', () => {
  it.each([
    ['$.store.book[*].author', ['Nigel Rees', 'Evelyn Waugh', 'Herman Melville', 'J. R. R. Tolkien']],
    ['$..author', ['Nigel Rees', 'Evelyn Waugh', 'Herman Melville', 'J. R. R. Tolkien']],
    ['$.store..price', [8.95, 12.99, 8.99, 22.99, 399]],
    ['$..book[2].author', ['Herman Melville']],
    ['$..book[-1].title', ['The Lord of the Rings']],
    ['$..book[:2].price', [8.95, 12.99]],
    ['$..book[?@.isbn].title', ['Moby Dick', 'The Lord of the Rings']],
    ['$..book[?@.price<10].title', ['Sayings of the Century', 'Moby Dick']],
  ])('%s', (path, expected) => {
    expect(select(path, BOOKSTORE)).toEqual(expected);
  });
});

describe('RFC 9535 §2.3.5.3 and §2.4: filters and functions', () => {
  it.each([
    ["$.a[?@.b == 'kilo']", [{ b: 'kilo' }]],
    ["$.a[?(@.b == 'kilo')]", [{ b: 'kilo' }]],
    ['$.a[?@>3.5]', [5, 4, 6]],
    ['$.a[?@.b]', [{ b: 'j' }, { b: 'k' }, { b: {} }, { b: 'kilo' }]],
    ['$[?@[?@.b]]', [FILTERS.a]],
    ['$.o[?@>1 && @<4]', [2, 3]],
    ['$.o[?@.u || @.x]', [{ u: 6 }]],
    ['$.a[?@.b == $.x]', [3, 5, 1, 2, 4, 6]],
    ['$.a[?match(@.b, "[jk]")]', [{ b: 'j' }, { b: 'k' }]],
    ['$.a[?search(@.b, "[jk]")]', [{ b: 'j' }, { b: 'k' }, { b: 'kilo' }]],
    ['$.a[?length(@.b) == 4]', [{ b: 'kilo' }]],
    ['$[?count(@.*) == 5]', [FILTERS.o]],
    ['$.o[?value(@.u) == 6]', [{ u: 6 }]],
  ])('%s', (path, expected) => {
    expect(select(path, FILTERS)).toEqual(expected);
  });

  it.each(['$[?length(@.*) < 3]', '$[?count(1) == 1]', "$[?match(@.timezone, 'Europe/.*') == true]", '$[?nope(@)]'])('%s is not well-typed (refused)', (path) => {
    expect(compileJsonPath(path).ok).toBe(false);
  });

  it('match() and search() run on RE2: a pattern that backtracks on V8 answers at once', () => {
    const json = { s: `${'a'.repeat(5000)}!` };
    expect(select("$[?match(@, '(a+)+$')]", json)).toEqual([]);
    expect(select("$[?search(@, '(a|aa)+!')]", json)).toEqual([json.s]);
    // What RE2 cannot run is an invalid I-Regexp there: LogicalFalse, as the RFC says of a bad pattern.
    expect(select("$[?search(@, '(a)\\\\1')]", { s: 'aa' })).toEqual([]);
  });
});

describe('jsonpath-plus (Weval) paths', () => {
  it.each([
    ["$.tool_calls[?(@.name.includes('get'))]", "search(@.name, 'text')"],
    ["$[?(@.slice?.(0,0).padEnd?.(26,'a'))]", 'found "?.("'],
    ['$.tool_calls.length', 'length(@.name) > 0'],
    ['$.tool_calls[?(@.arguments.length > 2)]', 'length(@.name) > 0'],
    ['$.tool_calls[(@.length-1)]', 'script expressions'],
    ['$.tool_calls[(1)]', 'script expressions'],
    ['$.content[?(@ =~ /x/)]', 'regex literals'],
    ['$..[?(@parent.name)]', '@parent'],
    ['$.tool_calls[*]~', 'property-name (~)'],
    ["$.tool_calls[?(@.name === 'x')]", 'write == and !='],
  ])('%s says what to write instead', (path, hint) => {
    const compiled = compileJsonPath(path);
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.message).toContain(hint);
  });

  it('text inside quotes is never taken for syntax', () => {
    expect(wevalHint("$.tool_calls[?(@.name == 'a.length(b)~^/')]")).toBeNull();
    expect(select("$[?(@.name == 'a.length(b)~^/')].x", [{ name: 'a.length(b)~^/', x: 1 }])).toEqual([1]);
    expect(select("$['length']", { length: 3 })).toEqual([3]);
  });

  it('bounds descendant segments, each of which multiplies the work by the size of the reply', () => {
    expect(compileJsonPath('$..a..b').ok).toBe(true);
    expect(compileJsonPath('$..a..b..c').ok).toBe(false);
    expect(compileJsonPath('$..*[?@..x[?@..y]]').ok).toBe(false);
  });
});
