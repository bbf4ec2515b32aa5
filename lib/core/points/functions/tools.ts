/**
 * Tool-use checks over the calls the model made (structured, or TOOL_CALL trace lines).
 * `tool_args_match` with a string `where` runs that expression in the sandbox only.
 */
import { z } from 'zod';
import { SandboxError, type FnOutcome, type PointContext } from '../types';
import { defineFunction, objectError, show, verdict } from './define';
import { toolCallsOf } from './tool-trace';

const CALLED = 'tool_called expects a tool name, e.g. `$tool_called: "web_search"`';
const COUNT = 'tool_call_count_between expects [min, max] or [min, max, "tool_name"] with 0 ≤ min ≤ max, e.g. `$tool_call_count_between: [1, 2, "search"]`';
const ORDER = 'tool_call_order expects a non-empty list of tool names, e.g. `$tool_call_order: ["search", "retrieve"]`';
const ARGS = 'tool_args_match expects { name: "<tool>", where: {partial arguments} or "<JS expression over args>", normalizeWhitespace?: true|false }';

const countBound = z.number({ error: COUNT }).min(0, { error: COUNT });

/**
 * Every key of `partial` is in `actual` with an equal value, recursively (Weval's rule,
 * including arrays compared index by index). Weval threw a TypeError when `actual` held a
 * primitive where `partial` had an object; here that is simply "does not match".
 */
export function matchesPartial(actual: unknown, partial: unknown, normalizeWhitespace: boolean): boolean {
  if (typeof partial !== 'object' || partial === null) return false;
  if (typeof actual !== 'object' || actual === null) return false;
  const strip = (s: string) => (normalizeWhitespace ? s.replace(/\s+/g, '') : s);
  for (const [key, expected] of Object.entries(partial)) {
    if (!(key in actual)) return false;
    const value = (actual as Record<string, unknown>)[key];
    if (typeof expected === 'object' && expected !== null) {
      if (!matchesPartial(value, expected, normalizeWhitespace)) return false;
    } else if (typeof expected === 'string' && typeof value === 'string') {
      if (strip(value) !== strip(expected)) return false;
    } else if (value !== expected) {
      return false;
    }
  }
  return true;
}

interface ArgsMatchSpec {
  name: string;
  where: Record<string, unknown> | string;
  normalizeWhitespace?: boolean;
}

/**
 * The expression runs once per call to the named tool, with `args` bound to that call's
 * arguments. The guest coerces to boolean so no value needs to cross the boundary.
 * A call whose arguments make the expression throw (e.g. a missing field) does not match,
 * as in Weval; a syntax error, timeout or memory blow-up is the point's error.
 */
function matchExpression(expression: string, calls: unknown[], ctx: PointContext): FnOutcome | boolean {
  if (!ctx.sandbox) return { error: 'tool_args_match with an expression needs a sandbox (none is configured)' };
  for (const args of calls) {
    try {
      if (ctx.sandbox.run(`!!(${expression}\n)`, { args }) === true) return true;
    } catch (error) {
      if (error instanceof SandboxError && error.kind === 'runtime') continue;
      const message = error instanceof Error ? error.message : String(error);
      return { error: `tool_args_match expression ${show(expression)}: ${message}` };
    }
  }
  return false;
}

export const toolFunctions = [
  defineFunction<string>({
    name: 'tool_called',
    description: 'The model called the named tool at least once.',
    negatable: true,
    args: z.string({ error: CALLED }).min(1, { error: CALLED }),
    evaluate(response, name, ctx) {
      const calls = toolCallsOf(response, ctx);
      const count = calls.filter((call) => call.name === name).length;
      return verdict(count > 0, `tool_called ${show(name)}: ${count} call${count === 1 ? '' : 's'}`);
    },
  }),
  defineFunction<[number, number] | [number, number, string]>({
    name: 'tool_call_count_between',
    description: 'The number of tool calls (of one tool, if named) is within [min, max].',
    negatable: true,
    args: z
      .union([z.tuple([countBound, countBound]), z.tuple([countBound, countBound, z.string({ error: COUNT }).min(1, { error: COUNT })])], { error: COUNT })
      .refine(([min, max]) => min <= max, { error: COUNT }),
    evaluate(response, [min, max, name], ctx) {
      const count = toolCallsOf(response, ctx).filter((call) => name === undefined || call.name === name).length;
      return verdict(count >= min && count <= max, `tool_call_count_between [${min}, ${max}]${name ? ` of ${show(name)}` : ''}: ${count} calls`);
    },
  }),
  defineFunction<string[]>({
    name: 'tool_call_order',
    description: 'The tools were called in this order (other calls may come in between).',
    negatable: true,
    args: z.array(z.string({ error: ORDER }).min(1, { error: ORDER }), { error: ORDER }).min(1, { error: ORDER }),
    evaluate(response, expected, ctx) {
      const calls = toolCallsOf(response, ctx);
      let next = 0;
      for (const call of calls) {
        if (call.name === expected[next]) next++;
        if (next === expected.length) break;
      }
      const ok = next === expected.length;
      const seen = calls.map((call) => call.name).join(' → ') || 'no calls';
      return verdict(ok, `tool_call_order ${show(expected)}: ${ok ? 'yes' : `no (${seen})`}`);
    },
  }),
  defineFunction<ArgsMatchSpec>({
    name: 'tool_args_match',
    description: 'Some call to the named tool has arguments matching `where` (a partial object, or a sandboxed JS expression over `args`).',
    negatable: true,
    args: z
      .object(
        {
          name: z.string({ error: ARGS }).min(1, { error: ARGS }),
          where: z.union([z.record(z.string(), z.unknown()), z.string().min(1)], { error: ARGS }),
          normalizeWhitespace: z.boolean({ error: ARGS }).optional(),
        },
        objectError(ARGS),
      )
      .strict(),
    evaluate(response, spec, ctx) {
      const calls = toolCallsOf(response, ctx)
        .filter((call) => call.name === spec.name && call.arguments != null)
        .map((call) => call.arguments);
      const label = `tool_args_match ${show(spec.name)} where ${show(spec.where)}`;
      if (typeof spec.where === 'string') {
        const result = matchExpression(spec.where, calls, ctx);
        if (typeof result !== 'boolean') return result;
        return verdict(result, `${label}: ${result ? 'yes' : `no (${calls.length} call${calls.length === 1 ? '' : 's'} checked)`}`);
      }
      const where = spec.where;
      const ok = calls.some((args) => matchesPartial(args, where, spec.normalizeWhitespace ?? false));
      return verdict(ok, `${label}: ${ok ? 'yes' : `no (${calls.length} call${calls.length === 1 ? '' : 's'} checked)`}`);
    },
  }),
];
