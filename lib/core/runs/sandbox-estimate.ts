/**
 * The most sandbox time a run of a blueprint could use (so that a pull request's budget counts
 * `$js` points too, not only model calls). For each prompt the run would grade: its sandbox points
 * (`$js`, string `tool_args_match`, regexes that need the JS engine) × the per-point limit, at most
 * the per-reply budget, × the replies it gets (models × system prompts × temperatures × repeats).
 * An upper bound: points that finish early cost less, and the run enforces its budget anyway.
 */
import type { Blueprint, SourceLoc } from '../blueprint/schema';
import { SANDBOX_BUDGET_DEFAULTS, sandboxTimeEstimateMs, type SandboxBudgetLimits } from '../points/sandbox/budget';
import { usesSandbox } from '../points/sandbox/needs-sandbox';
import { planGenerations } from './plan';

export interface SandboxEstimate {
  estimateMs: number;
  /** Sandbox points over the prompts the run grades. */
  sandboxPoints: number;
  /** Replies those points are graded on, in all. */
  replies: number;
  /** Where the first sandbox point is written (for a file:line:col message). */
  firstLoc: SourceLoc | null;
}

export function estimateSandboxTime(
  bp: Blueprint,
  run: { models: number; maxPrompts: number | null },
  limits: Pick<SandboxBudgetLimits, 'perPointMs' | 'perReplyMs'> = SANDBOX_BUDGET_DEFAULTS,
): SandboxEstimate {
  const models = Array.from({ length: Math.max(1, run.models) }, (_, i) => `model-${i}`);
  const replies = new Map<string, number>();
  for (const cell of planGenerations(bp, { models, repeats: null, maxPrompts: run.maxPrompts })) {
    replies.set(cell.promptKey, (replies.get(cell.promptKey) ?? 0) + 1);
  }
  const perPrompt: Array<{ sandboxPoints: number; replies: number }> = [];
  let firstLoc: SourceLoc | null = null;
  for (const prompt of bp.prompts) {
    const count = replies.get(prompt.id);
    if (!count) continue;
    const points = prompt.points.filter(usesSandbox);
    if (points.length === 0) continue;
    firstLoc ??= points[0]!.loc;
    perPrompt.push({ sandboxPoints: points.length, replies: count });
  }
  return {
    estimateMs: sandboxTimeEstimateMs(perPrompt, limits),
    sandboxPoints: perPrompt.reduce((n, p) => n + p.sandboxPoints, 0),
    replies: perPrompt.reduce((n, p) => n + p.replies, 0),
    firstLoc,
  };
}
