/**
 * Running a resolved point function: re-validate the stored arguments, evaluate, then make
 * the outcome safe for aggregation — a throw becomes `{error}`, a non-finite score becomes
 * `{error}` (never a 0, never NaN: defects 9–10 in docs/compatibility.md), scores are clamped to [0,1], and a
 * negated point (`not_…`) scores 1 − score. Errors are not negated: unscored stays unscored.
 */
import type { Resolution } from './registry';
import type { FnOutcome, PointContext, PointFunctionDef } from './types';

type Resolved = Extract<Resolution, { ok: true }>;

export type ArgsCheck = { ok: true; args: unknown } | { ok: false; message: string };

/** Validates an argument as written; the message says how to write it (one line per distinct problem). */
export function checkPointArgs(def: PointFunctionDef<unknown>, raw: unknown): ArgsCheck {
  const parsed = def.args.safeParse(raw);
  if (parsed.success) return { ok: true, args: parsed.data };
  const messages = [...new Set(parsed.error.issues.map((issue) => issue.message))];
  return { ok: false, message: messages.join('; ') };
}

/**
 * Runs a resolved function on stored arguments (validated again: a stored blueprint may predate
 * a schema change), turning a throw into `{error}`. The score is returned as the function gave
 * it: the scoring policy (clamping, NaN, negation) is the caller's — `verdictFromOutcome` in a
 * run, `evaluatePoint` below for a bare outcome.
 */
export async function runPointFunction(resolved: Resolved, response: string, rawArgs: unknown, ctx: PointContext): Promise<FnOutcome> {
  const { def, canonical } = resolved;
  const checked = checkPointArgs(def, rawArgs);
  if (!checked.ok) return { error: checked.message };
  try {
    return await def.evaluate(response, checked.args, ctx);
  } catch (error) {
    return { error: `${canonical} failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

export async function evaluatePoint(resolved: Resolved, response: string, rawArgs: unknown, ctx: PointContext): Promise<FnOutcome> {
  const { negated, canonical } = resolved;
  const outcome = await runPointFunction(resolved, response, rawArgs, ctx);
  if ('error' in outcome) return outcome;
  if (typeof outcome.score !== 'number' || !Number.isFinite(outcome.score)) {
    return { error: `${canonical} produced no valid score (${String(outcome.score)})` };
  }
  const score = Math.max(0, Math.min(1, outcome.score));
  const engine = outcome.regexEngine ? { regexEngine: outcome.regexEngine } : {};
  return negated ? { score: 1 - score, detail: `not (${outcome.detail})`, ...engine } : { score, detail: outcome.detail, ...engine };
}
