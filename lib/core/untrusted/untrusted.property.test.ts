/**
 * Random regexes, JSONPaths and filter expressions, as a blueprint could write them, never call
 * a method on the reply's data and never run past a generous bound (measured per expression;
 * the bound is far above the milliseconds they take, and far below the seconds a backtracking
 * engine or a method-calling filter took before).
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileJsonPath, selectJsonPath } from './jsonpath';
import { compileLinear } from './linear';
import { compilePattern, testPattern } from './regex';

/** Far above any honest expression here; a catastrophic one took seconds to minutes. */
const BOUND_MS = 2_000;
const MARK = '\u2063trip';
const HOSTILE = `${'a'.repeat(28)}${MARK}`;
const DOC = {
  content: HOSTILE,
  a: [HOSTILE, { b: HOSTILE, c: [1, 2, { d: HOSTILE }] }, { b: 'kilo' }, 3],
  o: { p: HOSTILE, q: { r: [HOSTILE, 'x'] }, n: 5 },
};

/**
 * String methods an attacker needs to spend time or memory (jsonpath-plus let filters call
 * them): while a property runs, calling one on a string of the document (it carries MARK)
 * is recorded (only while a JSONPath is evaluated: our own code may normalise the text).
 */
const TRIPPED: string[] = [];
let armed = false;
const indexOf = String.prototype.indexOf;
const WIRED = ['padEnd', 'padStart', 'repeat', 'concat', 'split', 'match', 'matchAll', 'replace', 'replaceAll', 'includes', 'localeCompare', 'normalize', 'toUpperCase', 'at'] as const;
const originals = new Map<string, unknown>();
beforeEach(() => {
  const proto = String.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of WIRED) {
    const original = proto[name]!;
    originals.set(name, original);
    proto[name] = function (this: string, ...args: unknown[]) {
      if (armed && typeof this === 'string' && indexOf.call(this, MARK) >= 0) TRIPPED.push(name);
      return original.apply(this, args);
    };
  }
});
afterEach(() => {
  const proto = String.prototype as unknown as Record<string, unknown>;
  for (const [name, original] of originals) proto[name] = original;
  TRIPPED.length = 0;
});

function timed<T>(run: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
}

const regexAtom = fc.constantFrom('a', 'a+', 'a*', '(a+)+', '(a|aa)+', '(?:a+)+', '.', '.*', '[a-z]+', '\\w+', '(a)\\1', '(?=a)', '(?<!b)', '\\u0028', '\\d{2,}', 'b', '$', '^', '(', ')', '|', '+', '?', '{2}', '\\');
const regex = fc.array(regexAtom, { minLength: 1, maxLength: 10 }).map((parts) => parts.join(''));

const filterToken = fc.constantFrom(
  '@', '$', '.', '..', '*', 'b', 'content', 'slice', 'padEnd', 'match', 'search', 'length', 'count', 'value', 'repeat', 'split', 'concat',
  'constructor', '__proto__', 'toString', '(', ')', '?.(', '?.', '[', ']', '[?', '?', ',', ':', "'a'", '"x"', "'(a+)+$'", '1e8', '26', '0', '-1',
  '==', '!=', '<', '>=', '&&', '||', '!', ' ', '\\u0028', "'\\u0028'", '/', '~', '^', '=~', '=>', '`', ';', '{', '}', 'true', 'null',
);
const filter = fc.array(filterToken, { minLength: 1, maxLength: 14 }).map((t) => t.join(''));
const call = fc.tuple(fc.constantFrom('match', 'search'), fc.constantFrom('@', '@.b', '@.d', '@.*'), regex).map(([fn, arg, re]) => `${fn}(${arg}, '${re.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}')`);
const operand = fc.constantFrom('@', '@.b', '@.d', '@.*', '@..b', '$.o.n', "'a'", '"\\u0028"', '5', 'null', 'true', 'length(@)', 'length(@.b)', 'count(@.*)', 'value(@..d)');
const comparison = fc.tuple(operand, fc.constantFrom('==', '!=', '<', '<=', '>', '>='), operand).map(([l, op, r]) => `${l} ${op} ${r}`);
const wellFormed = fc.array(fc.oneof(comparison, call), { minLength: 1, maxLength: 3 }).map((parts) => parts.join(' || '));
const jsonPath = fc.oneof(
  wellFormed.map((f) => `$.a[?${f}]`),
  wellFormed.map((f) => `$..*[?!(${f})]`),
  fc.tuple(wellFormed, wellFormed).map(([f, g]) => `$[?@[?${f}] && ${g}]`),
  filter.map((f) => `$${f}`),
  filter.map((f) => `$.a[?${f}]`),
  filter.map((f) => `$..*[?(${f})]`),
  fc.tuple(filter, filter).map(([f, g]) => `$[?@[?${f}] || ${g}]`),
  call.map((c) => `$.a[?${c}]`),
  fc.tuple(call, filter).map(([c, f]) => `$..[?${c} && ${f}]`),
);

/** A method call is `name(` after a dot, or `?.(`; RFC 9535 has only the five functions, never after a dot. */
function callsOutsideFunctions(path: string): boolean {
  const code = path.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, "''");
  return /\?\.\s*\(|\.\s*[\w$]+\s*\(/.test(code) || /[\w$]+\s*\(/.test(code.replace(/(?<![\w$.])(?:length|count|match|search|value)\s*\(/g, ' '));
}

describe('untrusted expressions (property)', () => {
  it('JSONPaths and filters never call a method on the data and stay within the bound', () => {
    let slowest = 0;
    let evaluated = 0;
    fc.assert(
      fc.property(jsonPath, (path) => {
        const compiled = compileJsonPath(path);
        if (compiled.ok) {
          evaluated++;
          expect(callsOutsideFunctions(path), path).toBe(false);
        }
        armed = true;
        const run = timed(() => selectJsonPath(path, DOC));
        armed = false;
        slowest = Math.max(slowest, run.ms);
        expect(run.ms, path).toBeLessThan(BOUND_MS);
        expect(TRIPPED, path).toEqual([]);
      }),
      { numRuns: 400 },
    );
    expect(slowest).toBeLessThan(BOUND_MS);
    // The generator reaches the evaluator, not only the parser's refusals.
    expect(evaluated).toBeGreaterThan(60);
  });

  it('the wire itself fires on a method called on the data (so an empty record means something)', () => {
    armed = true;
    DOC.content.padEnd(40, 'a');
    armed = false;
    expect(TRIPPED).toEqual(['padEnd']);
  });

  it('the red-team filters are refused and call nothing', () => {
    for (const path of ["$[?(@.content.slice?.(0,0).padEnd?.(26,'a').concat?.('!').match?.('^(a+)+$'))]", "$[?(@.content.padEnd?.(1e8,'a').split?.(''))]", '$[?(@.content.padEnd\\u0028 1e8)]']) {
      armed = true;
      const selected = selectJsonPath(path, DOC);
      armed = false;
      expect(selected.ok, path).toBe(false);
    }
    expect(TRIPPED).toEqual([]);
  });

  it('regexes from blueprint positions run on RE2 or are refused; none reaches V8 or passes the bound', () => {
    fc.assert(
      fc.property(regex, fc.boolean(), (source, ignoreCase) => {
        const linear = compileLinear(source, { ignoreCase });
        if (linear.ok) {
          const run = timed(() => [linear.regex.matchWhole(HOSTILE), linear.regex.test(HOSTILE)]);
          expect(run.ms, source).toBeLessThan(BOUND_MS);
        }
        const compiled = compilePattern(source, ignoreCase);
        if (compiled.ok) {
          // No sandbox given: what RE2 cannot run is an error, never V8's backtracking engine.
          const run = timed(() => testPattern(compiled, HOSTILE));
          expect(run.ms, source).toBeLessThan(BOUND_MS);
          if (run.value.ok) expect(run.value.engine).toBe('re2');
          else expect(run.value.message).toMatch(/needs the JavaScript engine/);
        }
      }),
      { numRuns: 400 },
    );
  });
});
