/**
 * Sandbox time budgets (docs/compatibility.md, "Sandboxed code"). Each sandbox run already stops at
 * its own limit (1 s), but 60 `while(true){}` points on one prompt took 60 s. A budget is a pool of
 * sandbox time shared by several runs of the sandbox: one per reply and one per run.
 * `budgetedSandbox` wraps a `SandboxPort` so that each run gets at most what the tightest pool has
 * left, and a run once a pool is empty fails at once with a `budget` error (its point is an `error`
 * verdict saying which budget is used up: never a 0, never a hang).
 *
 * The clock is injected (the server passes `performance.now`): it only measures time spent,
 * never feeds a result.
 */
import { SandboxError, type SandboxPort } from '../types';

export interface SandboxBudgetLimits {
  /** One sandbox run (one `$js` point, one sandboxed regex). */
  perPointMs: number;
  /** Every sandbox run while grading one reply. */
  perReplyMs: number;
  /** Every sandbox run of one run (all its replies, across resumes). */
  perRunMs: number;
}

/** The documented defaults (docs/compatibility.md, "Sandboxed code"): 1 s per point, 5 s per reply, 5 minutes per run. */
export const SANDBOX_BUDGET_DEFAULTS: SandboxBudgetLimits = { perPointMs: 1_000, perReplyMs: 5_000, perRunMs: 300_000 };

export type BudgetScope = 'reply' | 'run';

function seconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? String(s) : s.toFixed(1);
}

/** A pool of sandbox time. `usedMs` starts from what was already spent (a resumed run). */
export class SandboxTimeBudget {
  constructor(
    readonly scope: BudgetScope,
    readonly limitMs: number,
    public usedMs = 0,
  ) {}

  get remainingMs(): number {
    return Math.max(0, this.limitMs - this.usedMs);
  }

  charge(ms: number): void {
    this.usedMs += ms;
  }

  usedUpMessage(): string {
    return `sandbox time budget of ${seconds(this.limitMs)} s for this ${this.scope} is used up`;
  }
}

/**
 * A sandbox whose runs draw from `budgets`. A run is given the smaller of its own limit and the
 * tightest budget's remainder; when that remainder stopped it, the error names the budget.
 */
export function budgetedSandbox(inner: SandboxPort, budgets: readonly SandboxTimeBudget[], opts: { now: () => number; perPointMs?: number }): SandboxPort {
  const perPointMs = opts.perPointMs ?? SANDBOX_BUDGET_DEFAULTS.perPointMs;
  return {
    run(code, globals, limits) {
      const tightest = budgets.reduce<SandboxTimeBudget | null>((t, b) => (t === null || b.remainingMs < t.remainingMs ? b : t), null);
      if (tightest && tightest.remainingMs <= 0) throw new SandboxError('budget', tightest.usedUpMessage());
      const wanted = Math.min(limits?.timeoutMs ?? perPointMs, perPointMs);
      const timeoutMs = tightest ? Math.min(wanted, tightest.remainingMs) : wanted;
      const started = opts.now();
      try {
        return inner.run(code, globals, { ...limits, timeoutMs });
      } catch (error) {
        if (tightest && error instanceof SandboxError && error.kind === 'timeout' && timeoutMs < wanted) {
          throw new SandboxError('budget', tightest.usedUpMessage());
        }
        throw error;
      } finally {
        const spent = opts.now() - started;
        for (const b of budgets) b.charge(spent);
      }
    },
  };
}

/**
 * What a blueprint's sandbox points could cost at most: points that run code in the sandbox
 * (`$js`, string `tool_args_match`) × the per-point limit × the replies each is graded on,
 * capped by the per-reply budget. For PR budgets: an estimate that is an upper bound.
 */
export function sandboxTimeEstimateMs(prompts: ReadonlyArray<{ sandboxPoints: number; replies: number }>, limits: Pick<SandboxBudgetLimits, 'perPointMs' | 'perReplyMs'>): number {
  return prompts.reduce((sum, p) => sum + Math.min(p.sandboxPoints * limits.perPointMs, limits.perReplyMs) * p.replies, 0);
}
