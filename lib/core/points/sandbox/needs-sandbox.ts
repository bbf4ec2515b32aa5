/**
 * Which points run in the sandbox: blueprint code (`$js`, a string `tool_args_match`) always;
 * regex points when a pattern needs the JS engine (lookaround, backreferences), or may need it
 * for some texts (`mayUseSandbox`). Used to count sandbox points in PR budgets and to load the
 * wasm engine only when a point can need it (`assay check`).
 */
import type { Point } from '../../blueprint/schema';
import type { CorrectNode } from '../../correct/schema';
import { compilePattern } from '../../untrusted';

const CODE_FUNCTIONS = /(^|_)js$/;
const TOOL_ARGS = /(^|_)tool_args_match$/;
const REGEX_FUNCTIONS = /(^|_)i?matches(_all_of|_at_least_n_of)?$/;

type Need = 'always' | 'maybe' | 'never';

function patternNeed(pattern: string, ci: boolean, flags = ''): Need {
  const c = compilePattern(pattern, ci, flags);
  if (!c.ok) return 'never'; // an error verdict, without running anything
  if (c.re2 === null) return 'always';
  return c.jsOnlyText ? 'maybe' : 'never';
}

function strongest(needs: Need[]): Need {
  return needs.includes('always') ? 'always' : needs.includes('maybe') ? 'maybe' : 'never';
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.flatMap(strings) : [];
}

function correctNeed(node: CorrectNode): Need {
  if ('any' in node) return strongest(node.any.map(correctNeed));
  if ('all' in node) return strongest(node.all.map(correctNeed));
  if ('not' in node) return correctNeed(node.not);
  if ('assertions' in node) return strongest(node.assertions.map(correctNeed));
  return node.type === 'regex' || node.type === 'jsonpath_regex' ? patternNeed(node.pattern, false, node.flags ?? '') : 'never';
}

function need(point: Point): Need {
  if (point.kind === 'correct') return correctNeed(point.check);
  if (point.kind !== 'function') return 'never';
  if (CODE_FUNCTIONS.test(point.fn)) return 'always';
  if (TOOL_ARGS.test(point.fn)) return typeof (point.args as { where?: unknown } | null)?.where === 'string' ? 'always' : 'never';
  if (REGEX_FUNCTIONS.test(point.fn)) return strongest(strings(point.args).map((p) => patternNeed(p, /(^|_)imatches/.test(point.fn))));
  return 'never';
}

/** The point runs in the sandbox on every reply. */
export function usesSandbox(point: Point): boolean {
  return need(point) === 'always';
}

/** The point may run in the sandbox on some reply. */
export function mayUseSandbox(point: Point): boolean {
  return need(point) !== 'never';
}
