/**
 * The point-function port: every `$fn` a blueprint can name is one `PointFunctionDef`
 * registered in `registry.ts` under its canonical name, with a zod parameter schema
 * that the parser uses at load time (unknown names and wrong argument shapes are
 * load-time errors, never silently dropped points).
 */
import type { z } from 'zod';
import type { Message } from '../blueprint/schema';
import type { ToolCall } from '../evidence/tool-call';

export type { ToolCall };

/** A sandbox for blueprint-supplied code (`$js`, string `tool_args_match`). Implemented with quickjs (wasm). */
export interface SandboxPort {
  /** Runs `code` with `globals` injected as JSON values; returns the JSON-serialisable result or throws SandboxError. */
  run(code: string, globals: Record<string, unknown>, limits?: { timeoutMs?: number; memoryBytes?: number }): unknown;
}

/**
 * Why sandboxed code produced no value: `syntax` (did not compile), `runtime` (the code threw),
 * `timeout`, `memory`, `stack` (a limit stopped it), `result` (the value cannot leave the
 * sandbox as JSON: a function, a Promise, a cycle), `unavailable` (the engine itself failed),
 * `budget` (the reply's or the run's total sandbox time is used up: sandbox/budget.ts).
 */
export type SandboxErrorKind = 'syntax' | 'runtime' | 'timeout' | 'memory' | 'stack' | 'result' | 'unavailable' | 'budget';

/** The one error a `SandboxPort` throws; anything else escaping `run` is a bug in the adapter. */
export class SandboxError extends Error {
  override readonly name = 'SandboxError';
  constructor(
    readonly kind: SandboxErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/** External services (`$call`, `factcheck`): defined here, implemented by lib/server with a maintainer's allow-list. */
export interface ExternalCallPort {
  call(service: string, payload: unknown): Promise<unknown>;
}

export interface PointContext {
  /** The conversation that led to the response (prompt messages, generated turns). */
  messages?: Message[];
  toolCalls?: ToolCall[];
  modelId?: string;
  /** The prompt's id, for `$call` templates (`{promptId}`). */
  promptId?: string;
  sandbox?: SandboxPort;
  external?: ExternalCallPort;
}

/** Which regex engine decided a pattern point: RE2 (linear time) or the JS engine in the sandbox. */
export type RegexEngine = 're2' | 'sandbox';

/**
 * A function's outcome: a score in [0,1] (booleans are 1/0) with an explanation, or an error
 * (never a 0). Regex functions say which engine ran (stored on the verdict).
 */
export type FnOutcome = { score: number; detail: string; regexEngine?: RegexEngine } | { error: string; regexEngine?: RegexEngine };

export interface PointFunctionDef<A = unknown> {
  /** Canonical name, e.g. `contains`. */
  name: string;
  /** One-line description for docs and the JSON Schema. */
  description: string;
  /** Validates and normalises the argument as written in the blueprint. */
  args: z.ZodType<A>;
  /** Whether `not_<name>` is meaningful (1 − score). */
  negatable: boolean;
  evaluate(response: string, args: A, ctx: PointContext): FnOutcome | Promise<FnOutcome>;
}
