/**
 * A `$fn` point, checked when the blueprint is loaded: the name resolves through the registry's
 * explicit alias table (an unknown name is an error with "did you mean", never a point that is
 * silently dropped at scoring time as in Weval: defects 1 and 3), the argument is validated by
 * the function's own schema and stored parsed, and regular expressions are compiled now.
 */
import { resolvePointFunction, type Resolution } from '../points/registry';
import { checkPattern } from '../untrusted';
import type { Issues } from './errors';
import { describe, nodeAt, type YNode } from './positions';
import type { FunctionPoint, SourceLoc } from './schema';

export type ResolvePointFunction = (written: string) => Resolution;
export const defaultResolver: ResolvePointFunction = resolvePointFunction;

export const NOT = 'not_';

export interface FunctionCall {
  /** The name as written, without `$`. */
  written: string;
  /** `undefined` for a zero-argument call (`- $factcheck`). */
  args: unknown;
  /** The node holding the argument, for positions; the point's node when there is none. */
  argsNode: YNode | null;
  /** Where the name was written. */
  loc: SourceLoc;
}

export type FunctionPointBase = Omit<FunctionPoint, 'kind' | 'fn' | 'args' | 'text'>;

export function buildFunctionPoint(call: FunctionCall, base: FunctionPointBase, resolve: ResolvePointFunction, issues: Issues): FunctionPoint | null {
  const resolution = resolve(call.written);
  if (!resolution.ok) {
    issues.error(call.loc, 'unknown_function', resolution.message, unknownHint(resolution.suggestions));
    return null;
  }
  const { canonical, def } = resolution;
  // Under should_not a function is inverted: stored as its `not_` form (and `not_x` as `x`).
  const negated = resolution.negated !== (base.source === 'should_not');
  if (negated && !def.negatable) {
    issues.error(
      call.loc,
      'schema',
      `$${call.written} under should_not would need "not_${canonical}", but ${canonical}'s score cannot be inverted meaningfully`,
      `Move the check to \`should\` and express the condition you want directly (e.g. for $js, negate inside the code).`,
    );
    return null;
  }
  const parsed = def.args.safeParse(call.args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = call.argsNode ? nodeAt(call.argsNode, issue?.path ?? []) : null;
    const got = call.args === undefined ? 'no argument' : call.argsNode ? describe(call.argsNode) : typeof call.args;
    issues.error(at?.loc ?? call.loc, 'invalid_args', `$${call.written} got ${got}, which is not a valid argument`, issue?.message ?? `See the documentation of ${canonical} for its argument.`);
    return null;
  }
  if (!checkPatterns(canonical, parsed.data, call, issues)) return null;
  const fn = (negated ? NOT : '') + canonical;
  return { kind: 'function', ...base, fn, args: parsed.data, text: renderCall(fn, parsed.data) };
}

/** `contains("x")`, `word_count_between([50,100])`, `factcheck()`: what pages and reports show. */
export function renderCall(fn: string, args: unknown): string {
  return `${fn}(${args === undefined ? '' : JSON.stringify(args)})`;
}

function unknownHint(suggestions: string[]): string {
  if (suggestions.length === 0) return 'Use one of the point functions listed in the documentation (e.g. $contains, $icontains, $matches, $js).';
  return `Write ${suggestions.map((s) => `\`$${s}\``).join(' or ')} instead.`;
}

/** Functions whose arguments are regular expressions: `matches`, `imatches` and their list forms. */
const PATTERN_FUNCTION = /^(i?)matches(?:_any_of|_all_of|_at_least_n_of)?$/;

/** Checks every pattern now (as `compilePattern` would judge it), so a bad regex is a load-time error at its own position. */
function checkPatterns(canonical: string, args: unknown, call: FunctionCall, issues: Issues): boolean {
  const m = PATTERN_FUNCTION.exec(canonical);
  if (!m) return true;
  const caseInsensitive = m[1] === 'i';
  const located: { pattern: string; path: number[] }[] = [];
  if (typeof args === 'string') located.push({ pattern: args, path: [] });
  else if (Array.isArray(args)) {
    const [first, second] = args;
    if (typeof first === 'number' && Array.isArray(second)) {
      second.forEach((p, i) => typeof p === 'string' && located.push({ pattern: p, path: [1, i] }));
    } else {
      args.forEach((p, i) => typeof p === 'string' && located.push({ pattern: p, path: [i] }));
    }
  }
  let ok = true;
  for (const { pattern, path } of located) {
    const compiled = checkPattern(pattern, caseInsensitive);
    if (compiled.ok) continue;
    ok = false;
    const at = call.argsNode ? nodeAt(call.argsNode, path) : null;
    issues.error(
      at?.loc ?? call.loc,
      'invalid_regex',
      `$${call.written}: ${compiled.message}`,
      'Write a JavaScript regular expression (a leading (?i) is accepted for case-insensitivity); escape literal ( ) [ ] { } ? * + . with a backslash, doubled inside a double-quoted YAML string ("\\\\.").',
    );
  }
  return ok;
}
