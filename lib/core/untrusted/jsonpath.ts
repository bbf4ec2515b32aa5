/**
 * JSONPath as RFC 9535 defines it, for paths written in blueprints (`correct:` assertions) and
 * in operator configuration (custom providers' reply mappings). The implementation is json-p3
 * (an RFC 9535 parser and evaluator with no script evaluation: a filter is comparisons, `&&`,
 * `||`, `!`, nested queries and the registered functions, nothing else), set up here with:
 *
 * - `length()`, `count()`, `value()` as in the RFC, and `match()` / `search()` on RE2 through
 *   linear.ts instead of the JS engine, so `match(@.x, '(a+)+$')` cannot backtrack;
 * - no non-standard syntax (json-p3's strict mode);
 * - a bound on descendant segments (`..`), each of which multiplies the nodes visited by the
 *   size of the document: at most two in a path, at most one inside filters.
 *
 * Paths written for jsonpath-plus (Weval) that change meaning or stop parsing are refused
 * with what to write instead (`wevalHint`): method calls and `.length` on a value, `@.x.includes('a')`,
 * regex literals, script expressions `[(…)]`, jsonpath-plus's `@path`/`@parent`/`@property`/`@root`,
 * `^` and `~`, `===`/`!==`. jsonpath-plus ran filters as JavaScript (its "safe" evaluator still
 * called string methods: `@.slice?.(0,0).padEnd?.(26,'a').match?.('^(a+)+$')` blocked the
 * thread for seconds); RFC 9535 has no syntax for a method call.
 */
import { FunctionExpressionType, JSONPathEnvironment, type FilterFunction, type JSONPathQuery, type JSONValue } from 'json-p3';
import { compileLinear, type LinearPattern } from './linear';

export interface CompiledJsonPath {
  /** The path as written. */
  readonly path: string;
  /** The values the path selects in `json`, in document order. */
  select(json: unknown): unknown[];
}

export type JsonPathCompiled = { ok: true; query: CompiledJsonPath } | { ok: false; message: string };

const MAX_DESCENDANTS = 2;
const MAX_DESCENDANTS_IN_FILTERS = 1;

/** I-Regexp patterns of `match()`/`search()`, compiled once (a filter runs per node). */
const patterns = new Map<string, LinearPattern | null>();
function linear(pattern: string): LinearPattern | null {
  let hit = patterns.get(pattern);
  if (hit === undefined) {
    const compiled = compileLinear(pattern);
    hit = compiled.ok ? compiled.regex : null;
    if (patterns.size >= 500) patterns.delete(patterns.keys().next().value!);
    patterns.set(pattern, hit);
  }
  return hit;
}

/** RFC 9535 §2.4.6/§2.4.7: a pattern that is not a string or does not compile yields LogicalFalse. */
function regexFunction(whole: boolean): FilterFunction {
  return {
    argTypes: [FunctionExpressionType.ValueType, FunctionExpressionType.ValueType],
    returnType: FunctionExpressionType.LogicalType,
    call(value: unknown, pattern: unknown): boolean {
      if (typeof value !== 'string' || typeof pattern !== 'string') return false;
      const re = linear(pattern);
      if (!re) return false;
      return whole ? re.matchWhole(value) !== null : re.test(value);
    },
  };
}

class UntrustedEnvironment extends JSONPathEnvironment {
  constructor() {
    super({ strict: true });
  }

  override setupFilterFunctions(): void {
    super.setupFilterFunctions();
    this.functionRegister.set('match', regexFunction(true));
    this.functionRegister.set('search', regexFunction(false));
  }
}

const environment = new UntrustedEnvironment();

/** The path with quoted strings blanked, so their contents never look like syntax. */
function withoutStrings(path: string): string {
  return path.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, (s) => `'${' '.repeat(Math.max(0, s.length - 2))}'`);
}

/** What a jsonpath-plus (Weval) path should be written as now, or null when it is not one. */
export function wevalHint(path: string): string | null {
  const code = withoutStrings(path);
  const call = /\?\.\s*\(|\.\s*[A-Za-z_$][\w$]*\s*\(/.exec(code) ?? /[\w$]\s*\(/.exec(code.replace(/\b(?:length|count|match|search|value)\s*\(/g, ' '));
  if (call) {
    return `JSONPath filters cannot call methods (found "${call[0].trim()}"); use the RFC 9535 functions: search(@.name, 'text') for "contains", match(@.name, 'regex') for a whole match, length(@.name), count(@.*), e.g. $.tool_calls[?search(@.name, 'weather')]`;
  }
  if (/\[\s*\(/.test(code)) return 'script expressions [(…)] are not JSONPath (RFC 9535); write an index or a slice, e.g. [-1] for the last element';
  if (/\.\s*length\b(?!\s*\()/.test(code)) {
    return '`.length` selects a member named "length" in RFC 9535 JSONPath, not the size of a string or array; in a filter write length(@.name) > 0, or [\'length\'] for a member of that name';
  }
  if (/\[\s*\?[^\]]*\//.test(code)) return "regex literals are not JSONPath (RFC 9535); write match(@.name, 'regex') or search(@.name, 'regex')";
  if (/@(?:path|parent|parentProperty|property|root)\b/.test(code)) return 'jsonpath-plus variables (@path, @parent, @property, @root) are not JSONPath (RFC 9535); use @ for the current value and $ for the root';
  if (/[\^~]/.test(code)) return 'jsonpath-plus parent (^) and property-name (~) selectors are not JSONPath (RFC 9535)';
  if (/===|!==/.test(code)) return 'write == and != (RFC 9535 JSONPath compares JSON values; there is no === or !==)';
  return null;
}

function descendants(code: string): { total: number; inFilters: number } {
  let total = 0;
  let inFilters = 0;
  let depth = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === '[' && /^\[\s*\?/.test(code.slice(i, i + 8))) depth++;
    else if (c === '[') depth += depth > 0 ? 1 : 0;
    else if (c === ']' && depth > 0) depth--;
    else if (c === '.' && code[i + 1] === '.') {
      total++;
      if (depth > 0) inFilters++;
      i++;
    }
  }
  return { total, inFilters };
}

const cache = new Map<string, JsonPathCompiled>();

/** Parses a JSONPath (RFC 9535); a bad or Weval-only path is `{ ok: false }` with what to write. */
export function compileJsonPath(path: string): JsonPathCompiled {
  const hit = cache.get(path);
  if (hit) return hit;
  const compiled = compileUncached(path);
  if (cache.size >= 1_000) cache.delete(cache.keys().next().value!);
  cache.set(path, compiled);
  return compiled;
}

function compileUncached(path: string): JsonPathCompiled {
  const hint = wevalHint(path);
  if (hint) return { ok: false, message: `invalid JSONPath ${path}: ${hint}` };
  const count = descendants(withoutStrings(path));
  if (count.total > MAX_DESCENDANTS || count.inFilters > MAX_DESCENDANTS_IN_FILTERS) {
    return { ok: false, message: `invalid JSONPath ${path}: at most ${MAX_DESCENDANTS} descendant segments (..) in a path and ${MAX_DESCENDANTS_IN_FILTERS} inside filters (each one multiplies the work by the size of the reply)` };
  }
  let query: JSONPathQuery;
  try {
    query = environment.compile(path);
  } catch (error) {
    return { ok: false, message: `invalid JSONPath ${path}: ${(error as Error).message}` };
  }
  return {
    ok: true,
    query: {
      path,
      select: (json) => query.query(json as JSONValue).values() as unknown[],
    },
  };
}

/** The values `path` selects in `json`, or the reason the path is refused. */
export function selectJsonPath(path: string, json: unknown): { ok: true; values: unknown[] } | { ok: false; message: string } {
  const compiled = compileJsonPath(path);
  if (!compiled.ok) return compiled;
  try {
    return { ok: true, values: compiled.query.select(json) };
  } catch (error) {
    return { ok: false, message: `JSONPath ${path}: ${(error as Error).message}` };
  }
}
