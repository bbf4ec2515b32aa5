/**
 * Small helpers every function module uses: typed definition, outcomes, and argument
 * schemas whose every failure carries one message that says how to write the argument
 * (not only that it is wrong). The same message is attached at every nesting level because zod reports
 * the innermost failing schema.
 */
import { z } from 'zod';
import type { FnOutcome, PointFunctionDef } from '../types';

/** Erases the argument type for the registry (the schema guarantees `evaluate` gets an `A`). */
export function defineFunction<A>(def: PointFunctionDef<A>): PointFunctionDef<unknown> {
  return def as PointFunctionDef<unknown>;
}

export function verdict(passed: boolean, detail: string): FnOutcome {
  return { score: passed ? 1 : 0, detail };
}

export function graded(score: number, detail: string): FnOutcome {
  return { score, detail };
}

/** Short, quoted rendering of an argument for details ("contains "x": found"). */
export function show(value: unknown, max = 80): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function stringArg(message: string) {
  return z.string({ error: message });
}

export function stringListArg(message: string) {
  return z.array(z.string({ error: message }), { error: message });
}

/** `[n, [strings…]]` for the *_at_least_n_of family; n may exceed the list length, and 0 is vacuous (Weval). */
export function atLeastNArg(message: string) {
  return z.tuple(
    [
      z.number({ error: message }).int({ error: message }).min(0, { error: message }),
      z.array(z.string({ error: message }), { error: message }),
    ],
    { error: message },
  );
}

/** Error option for strict objects: names the unknown keys (typos such as `normalise`), else `message`. */
export function objectError(message: string) {
  return {
    error: (issue: z.core.$ZodRawIssue) => {
      if (issue.code === 'unrecognized_keys' && 'keys' in issue && Array.isArray(issue.keys)) {
        return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}: ${message}`;
      }
      return message;
    },
  };
}
