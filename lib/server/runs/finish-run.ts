/**
 * The one place a run's end is decided, for both schedulers (the in-process runner and the
 * Inngest run-finish function): what is left, what the run stored, and `finalStatus` (lib/core)
 * decide the status; then the summaries, the leaderboard (only for a completed run) and the
 * finished hook (PR comments). Idempotent: finishing twice decides the same from the same rows.
 */
import { finalStatus, type FinalStatus } from '@/lib/core';
import type { RunDeps } from './deps';
import { budgetSpent } from './budget';
import { pendingGroups } from './cell-group';
import { forgetRunContext, loadRunContext } from './run-context';
import { runErrors } from './run-errors';
import { summariseRun } from './summarise';

export type { FinalStatus } from '@/lib/core';

/** `budgetStop`: the reason a scheduler saw the budget stop the run (else the budget is checked here). */
export async function finishRun(deps: RunDeps, runId: string, opts: { budgetStop?: string | null } = {}): Promise<FinalStatus> {
  const ctx = await loadRunContext(deps.db, runId);
  const groupsLeft = (await pendingGroups(deps, ctx)).length;
  const budgetStop = opts.budgetStop ?? (groupsLeft > 0 && (await budgetSpent(deps, runId)) ? 'stopped by its budget' : null);
  const replyWhere = { runId: ctx.replySourceRunId, promptKey: { in: [...ctx.prompts.keys()] } };
  const [replies, failedReplies, verdicts, errorVerdicts, errors] = await Promise.all([
    deps.db.reply.count({ where: replyWhere }),
    deps.db.reply.count({ where: { ...replyWhere, error: { not: null } } }),
    deps.db.verdict.count({ where: { runId } }),
    deps.db.verdict.count({ where: { runId, status: 'error' } }),
    runErrors(deps.db, runId, { replyRunId: ctx.replySourceRunId, take: 1 }),
  ]);
  const decision = finalStatus({ groupsLeft, budgetStop, replies, failedReplies, verdicts, errorVerdicts, replyErrors: errors.replies, verdictErrors: errors.verdicts });

  const run = await deps.db.run.update({ where: { id: runId }, data: { status: 'summarising' }, select: { trigger: true } });
  // A pull request's run grades unmerged content: it never reaches the public leaderboard.
  await summariseRun(deps.db, runId, { publish: decision.status === 'completed' && run.trigger !== 'pull_request' });
  await deps.db.run.update({ where: { id: runId }, data: { status: decision.status, error: decision.error, finishedAt: new Date() } });
  forgetRunContext(runId); // a long-lived server keeps no finished run in memory
  await deps.onFinished?.(runId);
  return decision.status;
}
