/**
 * `$js`: blueprint-supplied JavaScript, run ONLY through `ctx.sandbox` (quickjs in wasm;
 * Weval used node's `vm`, which is no security boundary: defect 12 in docs/compatibility.md).
 * Semantics follow Weval: the code runs as a script and its completion value is the result;
 * a top-level `return` makes it a function body instead. Globals: `r` and `response` (the
 * text), `context` ({ messages, modelId, toolCalls }).
 */
import { z } from 'zod';
import { SandboxError, type FnOutcome, type PointContext } from '../types';
import { defineFunction, show } from './define';

const MESSAGE = 'js expects JavaScript source as a string, e.g. `$js: "r.length > 100"` (use `return` for multi-line code)';

/** QuickJS reports a top-level `return` as "return not in a function"; V8 as "Illegal return statement". */
const TOP_LEVEL_RETURN = /return not in a function|illegal return/i;

function runScript(code: string, globals: Record<string, unknown>, ctx: PointContext): unknown {
  try {
    return ctx.sandbox!.run(code, globals);
  } catch (error) {
    if (error instanceof SandboxError && error.kind === 'syntax' && TOP_LEVEL_RETURN.test(error.message)) {
      return ctx.sandbox!.run(`(() => {\n${code}\n})()`, globals);
    }
    throw error;
  }
}

function clamp(score: number): number {
  return Math.max(0, Math.min(1, score));
}

/** The result a script may give: boolean, number, nothing (= false), or { score, explain }. */
export function interpretJsResult(result: unknown): FnOutcome {
  if (typeof result === 'boolean') return { score: result ? 1 : 0, detail: `js returned ${result}` };
  // NaN would survive clamping and poison every average above it (defect 10 in docs/compatibility.md).
  if (typeof result === 'number') {
    if (Number.isNaN(result)) return { error: 'js returned NaN; return a number in [0, 1] or a boolean' };
    return { score: clamp(result), detail: `js returned ${result}` };
  }
  if (result === undefined) return { score: 0, detail: 'js returned nothing (counted as false)' };
  if (typeof result === 'object' && result !== null && 'score' in result) {
    const { score, explain } = result as { score: unknown; explain?: unknown };
    const detail = typeof explain === 'string' && explain !== '' ? explain : undefined;
    if (typeof score === 'boolean') return { score: score ? 1 : 0, detail: detail ?? `js returned score ${score}` };
    if (typeof score === 'number' && !Number.isNaN(score)) return { score: clamp(score), detail: detail ?? `js returned score ${score}` };
    return { error: `js returned an invalid score ${show(score)}; use a boolean or a number in [0, 1]` };
  }
  const kind = result === null ? 'null' : Array.isArray(result) ? 'array' : typeof result;
  return { error: `js returned ${kind} ${show(result, 60)}; it must return a boolean, a number in [0, 1] or { score, explain }` };
}

export const jsFunctions = [
  defineFunction<string>({
    name: 'js',
    description: 'A JavaScript expression or script (sandboxed) over `r`/`response` and `context`; returns a boolean, a number in [0, 1] or { score, explain }.',
    negatable: true,
    args: z.string({ error: MESSAGE }).refine((code) => code.trim() !== '', { error: MESSAGE }),
    evaluate(response, code, ctx) {
      if (!ctx.sandbox) return { error: 'js needs a sandbox (none is configured)' };
      const globals = {
        r: response,
        response,
        context: { messages: ctx.messages ?? [], modelId: ctx.modelId ?? null, toolCalls: ctx.toolCalls ?? [] },
      };
      try {
        return interpretJsResult(runScript(code, globals, ctx));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { error: `js failed: ${message}` };
      }
    },
  }),
];
