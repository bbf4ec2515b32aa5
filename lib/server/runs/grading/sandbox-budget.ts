/**
 * The sandbox time a run may still spend (docs/compatibility.md, "Sandboxed code"). Each reply's
 * grading gets a reply budget and shares the run's: `$js` points and sandboxed regexes draw from
 * both, and once either is used up the remaining sandbox points are error verdicts saying so.
 *
 * The run's pool lives once per process beside its cached RunContext (so concurrent replies
 * of a run share it exactly: sandbox code runs synchronously on this thread), starts from
 * `runs.sandbox_ms` (a resumed run keeps what it spent) and each reply adds what it used.
 * Several processes grading one run each start from the stored figure, so together they can
 * overshoot by at most one reply budget each.
 */
import { budgetedSandbox, SANDBOX_BUDGET_DEFAULTS, SandboxTimeBudget, type SandboxPort } from '@/lib/core';
import type { RunDeps } from '../engine/deps';
import type { RunContext } from '../engine/run-context';

const runBudgets = new WeakMap<RunContext, Promise<SandboxTimeBudget>>();

async function loadRunBudget(deps: Pick<RunDeps, 'db' | 'sandboxBudget'>, runId: string): Promise<SandboxTimeBudget> {
  const run = await deps.db.run.findUniqueOrThrow({ where: { id: runId }, select: { maxSandboxMs: true, sandboxMs: true } });
  const platform = deps.sandboxBudget?.perRunMs ?? SANDBOX_BUDGET_DEFAULTS.perRunMs;
  const limit = run.maxSandboxMs !== null ? Math.min(platform, run.maxSandboxMs) : platform;
  return new SandboxTimeBudget('run', limit, run.sandboxMs);
}

function runBudget(deps: Pick<RunDeps, 'db' | 'sandboxBudget'>, ctx: RunContext): Promise<SandboxTimeBudget> {
  let budget = runBudgets.get(ctx);
  if (!budget) {
    budget = loadRunBudget(deps, ctx.runId);
    runBudgets.set(ctx, budget);
  }
  return budget;
}

const runTurns = new WeakMap<RunContext, Promise<unknown>>();

/**
 * Runs `work` with this reply's and the run's budgets, one reply of a run at a time: in a worker
 * a reply's sandbox time is only known when its job ends, so a second reply of the run starting
 * meanwhile would see the run's budget as it was and together they could overshoot it. Replies
 * of other runs go on in parallel. What the reply spent is stored on the run afterwards.
 */
export async function withReplyBudgets<T>(deps: Pick<RunDeps, 'db' | 'sandboxBudget'>, ctx: RunContext, work: (budgets: { reply: SandboxTimeBudget; run: SandboxTimeBudget }) => Promise<T>): Promise<T> {
  const before = runTurns.get(ctx) ?? Promise.resolve();
  const turn = before.then(async () => {
    const run = await runBudget(deps, ctx);
    const reply = new SandboxTimeBudget('reply', deps.sandboxBudget?.perReplyMs ?? SANDBOX_BUDGET_DEFAULTS.perReplyMs);
    try {
      return await work({ reply, run });
    } finally {
      if (reply.usedMs > 0) await deps.db.run.update({ where: { id: ctx.runId }, data: { sandboxMs: { increment: reply.usedMs } } });
    }
  });
  runTurns.set(ctx, turn.catch(() => undefined));
  return turn;
}

export interface ReplySandbox {
  sandbox: SandboxPort;
  /** Stores what this reply's grading spent against the run (call once, after grading). */
  record(): Promise<void>;
}

/** A sandbox for grading one reply, bounded by the reply's and the run's budgets. */
export async function replySandbox(deps: Pick<RunDeps, 'db' | 'sandbox' | 'sandboxBudget'>, ctx: RunContext): Promise<ReplySandbox | null> {
  if (!deps.sandbox) return null;
  const run = await runBudget(deps, ctx);
  const reply = new SandboxTimeBudget('reply', deps.sandboxBudget?.perReplyMs ?? SANDBOX_BUDGET_DEFAULTS.perReplyMs);
  return {
    sandbox: budgetedSandbox(deps.sandbox, [reply, run], { now: () => performance.now() }),
    async record() {
      if (reply.usedMs <= 0) return;
      await deps.db.run.update({ where: { id: ctx.runId }, data: { sandboxMs: { increment: reply.usedMs } } });
    },
  };
}
