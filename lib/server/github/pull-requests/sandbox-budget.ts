/**
 * A pull request's blueprint may not plan more sandbox time than a PR run may use
 * (docs/compatibility.md, "Sandboxed code"): `$js` points cost server time as model calls cost
 * money, and a stranger's PR is checked before anyone approves it. The estimate is an upper bound
 * (lib/core/runs/sandbox-estimate.ts); the run also enforces the same budget as it grades.
 */
import { estimateSandboxTime, SANDBOX_BUDGET_DEFAULTS, type Blueprint } from '@/lib/core';
import type { PullRequestPolicy } from '../config';
import type { FileIssue } from './validation';

function seconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? String(s) : s.toFixed(1);
}

/** The error for a blueprint whose sandbox points could exceed the PR sandbox budget, or null. */
export function sandboxBudgetIssue(bp: Blueprint, policy: PullRequestPolicy): FileIssue | null {
  const models = policy.models.length ? Math.min(policy.models.length, policy.budget.maxModels) : policy.budget.maxModels;
  const e = estimateSandboxTime(bp, { models, maxPrompts: policy.budget.maxPrompts });
  const limitMs = policy.budget.maxSandboxSeconds * 1000;
  if (e.estimateMs <= limitMs) return null;
  return {
    line: e.firstLoc?.line ?? 1,
    col: e.firstLoc?.col ?? 1,
    message:
      `this blueprint's sandbox points ($js, tool_args_match expressions, regexes with lookaround or backreferences) could use up to ${seconds(e.estimateMs)} s of sandbox time in a pull-request run ` +
      `(${e.sandboxPoints} point${e.sandboxPoints === 1 ? '' : 's'} × ${seconds(SANDBOX_BUDGET_DEFAULTS.perPointMs)} s each, at most ${seconds(SANDBOX_BUDGET_DEFAULTS.perReplyMs)} s per reply, over ${e.replies} replies); ` +
      `a pull-request run may use at most ${seconds(limitMs)} s`,
    hint: 'Use fewer $js points (a point function such as $contains or $matches often does the same), or fewer prompts; a maintainer can raise ASSAY_PR_MAX_SANDBOX_SECONDS.',
  };
}
