/**
 * Evaluating a `correct:` tree over the response view: `any` passes when one
 * branch passes, `all` when every branch passes, `not` when its child fails, and an
 * `assertions` list when every assertion holds. The result explains which branch or
 * assertion decided it, so an author can fix a scenario from the verdict alone.
 *
 * An assertion that cannot be evaluated (a regex that does not compile, a JSONPath that
 * throws) makes the whole check `error`, wherever it sits: an `any` must not pass or fail
 * because one of its branches is broken.
 */
import type { Assertion, CorrectNode } from './schema';
import type { ResponseView } from './view';
import { combinedEngine, compilePattern, selectJsonPath, testPattern } from '../untrusted';
import type { RegexEngine, SandboxPort } from '../points/types';

export type CorrectStatus = 'pass' | 'fail' | 'error';
export interface CorrectResult {
  status: CorrectStatus;
  explanation: string;
  /** Which regex engine ran, when the tree has regex assertions: RE2, or the sandbox if any needed it. */
  regexEngine?: RegexEngine;
}

/** Where regex assertions that need the JS engine run (lookaround, backreferences). */
export interface CorrectOptions {
  sandbox?: SandboxPort;
}

/** What one evaluation carries down the tree: the options and the engines used so far. */
interface Env extends CorrectOptions {
  engines: RegexEngine[];
}

const DEFAULT_TEXT_PATH = '$.content';

function show(value: unknown, max = 80): string {
  const text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** JSON deep equality (object key order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao);
  return ak.length === Object.keys(bo).length && ak.every((k) => Object.hasOwn(bo, k) && jsonEqual(ao[k], bo[k]));
}

/** `needle` inside `hay`: substring of a string, element of an array, or sub-object of an object. */
function jsonContains(hay: unknown, needle: unknown): boolean {
  if (typeof hay === 'string') return typeof needle === 'string' && hay.includes(needle);
  if (Array.isArray(hay)) return hay.some((v) => jsonEqual(v, needle));
  if (hay !== null && typeof hay === 'object' && needle !== null && typeof needle === 'object' && !Array.isArray(needle)) {
    const h = hay as Record<string, unknown>;
    return Object.entries(needle as Record<string, unknown>).every(([k, v]) => Object.hasOwn(h, k) && jsonEqual(h[k], v));
  }
  return false;
}

/** Strings as they are; other values as their JSON text, so a regex can still test them. */
function asText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

type Query = { ok: true; values: unknown[] } | { ok: false; error: string };

/** RFC 9535 JSONPath (lib/core/untrusted/jsonpath.ts): filters compare and call length/count/match/search/value, nothing else. */
function query(view: ResponseView, path: string): Query {
  const selected = selectJsonPath(path, view);
  if (!selected.ok) return { ok: false, error: selected.message };
  return { ok: true, values: selected.values.filter((v) => v !== undefined) };
}

function found(values: unknown[]): string {
  if (values.length === 0) return 'nothing';
  return values.length === 1 ? show(values[0]) : `${values.length} values (${values.slice(0, 3).map((v) => show(v, 40)).join(', ')}${values.length > 3 ? ', …' : ''})`;
}

/** Short human rendering of an assertion for explanations. */
export function describeAssertion(a: Assertion): string {
  switch (a.type) {
    case 'jsonpath_equals':
      return `${a.path} == ${show(a.value)}`;
    case 'jsonpath_regex':
      return `${a.path} =~ /${a.pattern}/${a.flags ?? ''}`;
    case 'jsonpath_exists':
      return `${a.path} exists`;
    case 'jsonpath_not_exists':
      return `${a.path} does not exist`;
    case 'jsonpath_contains':
      return `${a.path} contains ${show(a.value)}`;
    case 'regex':
      return `${a.path ?? DEFAULT_TEXT_PATH} =~ /${a.pattern}/${a.flags ?? ''}`;
    case 'equals':
      return `${a.path ?? DEFAULT_TEXT_PATH} == ${show(a.value)}`;
    case 'contains':
      return `${a.path ?? DEFAULT_TEXT_PATH} contains ${show(a.value)}`;
  }
}

/**
 * One assertion. A path may select several values (`$.tool_calls[*].name`): the assertion
 * holds when any selected value satisfies it (`jsonpath_not_exists`: when none is selected).
 */
export function evaluateAssertion(a: Assertion, view: ResponseView, env: Env = { engines: [] }): CorrectResult {
  const what = `${a.type} ${describeAssertion(a)}`;
  const path = 'path' in a && a.path !== undefined ? a.path : DEFAULT_TEXT_PATH;
  const q = query(view, path);
  if (!q.ok) return { status: 'error', explanation: `${what}: ${q.error}` };
  const values = q.values;
  const result = (ok: boolean, why: string): CorrectResult => ({ status: ok ? 'pass' : 'fail', explanation: `${what}: ${why}` });

  switch (a.type) {
    case 'jsonpath_exists':
      return result(values.length > 0, values.length > 0 ? `found ${found(values)}` : 'found nothing');
    case 'jsonpath_not_exists':
      return result(values.length === 0, values.length === 0 ? 'found nothing' : `found ${found(values)}`);
    case 'jsonpath_equals':
    case 'equals':
      return result(values.some((v) => jsonEqual(v, a.value)), `found ${found(values)}`);
    case 'jsonpath_contains':
    case 'contains':
      return result(values.some((v) => jsonContains(v, a.value)), `found ${found(values)}`);
    case 'jsonpath_regex':
    case 'regex': {
      const compiled = compilePattern(a.pattern, false, a.flags ?? '');
      if (!compiled.ok) return { status: 'error', explanation: `${what}: ${compiled.message}` };
      let ok = false;
      for (const v of values) {
        const tested = testPattern(compiled, asText(v), env.sandbox);
        if (!tested.ok) {
          if (!compiled.re2) env.engines.push('sandbox');
          return { status: 'error', explanation: `${what}: ${tested.message}` };
        }
        env.engines.push(tested.engine);
        if (tested.matched) {
          ok = true;
          break;
        }
      }
      return result(ok, ok ? 'matched' : `no match in ${found(values)}`);
    }
  }
}

function isAssertion(node: CorrectNode): node is Assertion {
  return 'type' in node;
}

function label(node: CorrectNode, fallback: string): string {
  return 'name' in node && typeof node.name === 'string' ? `'${node.name}'` : fallback;
}

function firstError(results: CorrectResult[], names: string[]): CorrectResult | null {
  const i = results.findIndex((r) => r.status === 'error');
  return i === -1 ? null : { status: 'error', explanation: `${names[i]}: ${results[i]?.explanation}` };
}

function evaluateNode(node: CorrectNode, view: ResponseView, env: Env): CorrectResult {
  if (isAssertion(node)) return evaluateAssertion(node, view, env);

  if ('assertions' in node) {
    const results = node.assertions.map((a) => evaluateAssertion(a, view, env));
    const names = node.assertions.map((_a, i) => `assertion ${i + 1}`);
    const err = firstError(results, names);
    const who = label(node, 'assertions');
    if (err) return { status: 'error', explanation: `${who} ${err.explanation}` };
    const failed = results.findIndex((r) => r.status === 'fail');
    if (failed === -1) return { status: 'pass', explanation: `${who}: all ${results.length} assertions hold` };
    return { status: 'fail', explanation: `${who}: assertion ${failed + 1} failed (${results[failed]?.explanation})` };
  }

  if ('not' in node) {
    const inner = evaluateNode(node.not, view, env);
    const who = label(node, 'not');
    if (inner.status === 'error') return { status: 'error', explanation: `${who}: ${inner.explanation}` };
    return inner.status === 'pass'
      ? { status: 'fail', explanation: `${who}: the negated check passed (${inner.explanation})` }
      : { status: 'pass', explanation: `${who}: the negated check failed as required (${inner.explanation})` };
  }

  const children = 'any' in node ? node.any : node.all;
  const results = children.map((c) => evaluateNode(c, view, env));
  const names = children.map((c, i) => `branch ${i + 1}${'name' in c && c.name ? ` '${c.name}'` : ''}`);
  const who = label(node, 'any' in node ? 'any' : 'all');
  const err = firstError(results, names);
  if (err) return { status: 'error', explanation: `${who}: ${err.explanation}` };

  if ('any' in node) {
    const passed = results.findIndex((r) => r.status === 'pass');
    if (passed !== -1) return { status: 'pass', explanation: `${who}: ${names[passed]} passed (${results[passed]?.explanation})` };
    return {
      status: 'fail',
      explanation: `${who}: no branch passed; ${results.map((r, i) => `${names[i]} failed (${r.explanation})`).join('; ')}`,
    };
  }
  const failed = results.findIndex((r) => r.status === 'fail');
  if (failed === -1) return { status: 'pass', explanation: `${who}: all ${results.length} branches passed` };
  return { status: 'fail', explanation: `${who}: ${names[failed]} failed (${results[failed]?.explanation})` };
}

/** Evaluates a `correct:` tree to one pass/fail (or error) with an explanation. */
export function evaluateCorrect(node: CorrectNode, view: ResponseView, options: CorrectOptions = {}): CorrectResult {
  const env: Env = { ...options, engines: [] };
  const result = evaluateNode(node, view, env);
  const regexEngine = combinedEngine(env.engines);
  return regexEngine ? { ...result, regexEngine } : result;
}
