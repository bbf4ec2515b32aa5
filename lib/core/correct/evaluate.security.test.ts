/**
 * A JSONPath in a `correct:` assertion is blueprint text. jsonpath-plus evaluated filters as
 * JavaScript and its "safe" evaluator still called string methods (`@.slice?.(0,0).padEnd?.(26,'a')
 * .match?.('^(a+)+$')` blocked the thread for 5 s, `padEnd?.(1e8,'a').split?.('')` exhausted
 * memory). Paths are RFC 9535 now (lib/core/untrusted/jsonpath.ts): no syntax calls a method,
 * and such a path is an error verdict saying what to write instead.
 */
import { describe, expect, it } from 'vitest';
import { evaluateCorrect } from './evaluate';
import { buildResponseView } from './view';

const view = buildResponseView({ content: 'x'.repeat(3000), toolCalls: null });

describe('JSONPath filters cannot call methods', () => {
  it.each([
    ["$[?(@.content.slice?.(0,0).padEnd?.(26,'a').concat?.('!').match?.('^(a+)+$'))]", 'cannot call methods (found "?.(")'],
    ["$[?(@.content.padEnd?.(1e8,'a').split?.(''))]", 'cannot call methods'],
    ['$.content[?(@.match(/(x+x+)+y/))]', 'cannot call methods (found ".match(")'],
    ['$[?(@.content.repeat(1e9))]', 'cannot call methods (found ".repeat(")'],
    ['$[?(@.content =~ /(x+x+)+y/)]', 'regex literals are not JSONPath'],
    ['$[?(@.content.length > 2)]', 'length(@.name)'],
  ])('%s is an error', (path, why) => {
    const r = evaluateCorrect({ type: 'jsonpath_exists', path }, view);
    expect(r.status).toBe('error');
    expect(r.explanation).toContain(why);
  });

  it('RFC 9535 filters work, match() runs on RE2, and quoted text is not code', () => {
    const v = buildResponseView({ content: 'a'.repeat(40) + '!', toolCalls: [{ type: 'function', function: { name: 'get(x)/y', arguments: '{}' } }] });
    expect(evaluateCorrect({ type: 'jsonpath_exists', path: '$.tool_calls[?(@.name == "get(x)/y")]' }, v).status).toBe('pass');
    expect(evaluateCorrect({ type: 'jsonpath_exists', path: '$.tool_calls[?@.name == "nope" || length(@.name) > 2]' }, v).status).toBe('pass');
    expect(evaluateCorrect({ type: 'jsonpath_exists', path: "$[?search(@, 'a.c')]" }, v).status).toBe('fail');
    // Catastrophic on a backtracking engine (2^40 steps); RE2 answers at once.
    expect(evaluateCorrect({ type: 'jsonpath_exists', path: "$[?match(@, '(a+)+$')]" }, v).status).toBe('fail');
    expect(evaluateCorrect({ type: 'jsonpath_exists', path: "$[?match(@, '(a+)+!')]" }, v).status).toBe('pass');
  });
});
