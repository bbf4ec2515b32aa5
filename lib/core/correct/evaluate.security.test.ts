/**
 * Issue 11, finding 2, in `correct:` assertions: besides `regex`/`jsonpath_regex` patterns
 * (on RE2 now, see points/text/regex.security.test.ts), a JSONPath filter is blueprint code
 * that jsonpath-plus evaluates on the main thread, method calls and regex literals included:
 * `[?(@.match(/(x+x+)+y/))]` took 25 s on 28 x's, and `@.repeat(1e9)` allocates gigabytes.
 * Such filters are now an error verdict saying why, in well under 50 ms.
 */
import { describe, expect, it } from 'vitest';
import { evaluateCorrect } from './evaluate';
import { unsafeJsonPath } from './jsonpath-guard';
import { buildResponseView } from './view';

const view = buildResponseView({ content: 'x'.repeat(3000), toolCalls: null });

describe('JSONPath filters cannot run regexes or allocate (finding 2)', () => {
  it.each([
    ['$.content[?(@.match(/(x+x+)+y/))]', 'call functions or methods (found "match(")'],
    ['$[?(/(x+x+)+y/.test(@.content))]', 'call functions or methods (found "test(")'],
    ['$[?(@.content.repeat(1e9))]', 'call functions or methods (found "repeat(")'],
    ['$[?(@.content =~ /(x+x+)+y/)]', 'regex literals or division'],
  ])('%s is an error, fast', (path, why) => {
    const started = performance.now();
    const r = evaluateCorrect({ type: 'jsonpath_exists', path }, view);
    expect(performance.now() - started).toBeLessThan(50);
    expect(r.status).toBe('error');
    expect(r.explanation).toContain(why);
  });

  it('plain filters still work, and quoted text is not code', () => {
    const v = buildResponseView({ content: '', toolCalls: [{ type: 'function', function: { name: 'get(x)/y', arguments: '{}' } }] });
    expect(evaluateCorrect({ type: 'jsonpath_exists', path: '$.tool_calls[?(@.name == "get(x)/y")]' }, v).status).toBe('pass');
    expect(evaluateCorrect({ type: 'jsonpath_exists', path: '$.tool_calls[?(@.name == "nope" || (@.name && @.name.length > 2))]' }, v).status).toBe('pass');
    expect(unsafeJsonPath("$['a/b(c)']")).toBeNull();
  });
});
