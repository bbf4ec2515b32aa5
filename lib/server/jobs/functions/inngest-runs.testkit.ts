/**
 * Runs under the Inngest functions, executed by the strict harness (testing/inngest/harness.ts:
 * events delivered concurrently and out of order, Inngest's published limits enforced, a fresh
 * deploy before every step). A test sends a run's execution event as the dispatcher does and
 * reads what the run's finish decided.
 */
import { randomUUID } from 'node:crypto';
import { InngestHarness, type HarnessEvent, type HarnessOptions, type HarnessRun } from '@/testing/inngest/harness';
import type { RunDeps } from '../../runs/engine/deps';
import { batchFunctions } from './run-batch';
import { runExecutionEvent, runFunctions } from './run-functions';
import { sweepRunsFunction } from './sweep-runs';

export interface InngestRunsOptions extends Omit<HarnessOptions, 'functions'> {
  /** The deps the functions get (a test may make them fail for a window: the database unreachable). */
  deps: () => Promise<RunDeps>;
  providerConcurrency?: number;
  /** The sweeper's quiet time (default 0: a test fires it when it means it). */
  sweepQuietMs?: number;
}

const FINAL = new Set(['completed', 'failed', 'budget_exceeded']);

export function inngestRuns(opts: InngestRunsOptions) {
  const { deps, providerConcurrency = 4, sweepQuietMs = 0, ...harness } = opts;
  const h = new InngestHarness({
    ...harness,
    functions: () => [...runFunctions(deps, { providerConcurrency }), ...batchFunctions(deps), sweepRunsFunction(deps, { quietMs: sweepQuietMs })],
  });

  /** What the run's finish (or cancel) said, else its stored status when final (a settled run asked again). */
  const statusOf = async (runId: string, from: number): Promise<string | null> => {
    const finished = h.runs
      .slice(from)
      .filter((r) => (r.fnId === 'run-finish' || r.fnId === 'run-cancel') && r.status === 'completed' && (r.output as { runId?: string; status?: string | null })?.runId === runId)
      .map((r) => (r.output as { status: string | null }).status)
      .filter((s): s is string => s !== null);
    if (finished.length > 1) throw new Error(`run ${runId} finished ${finished.length} times in one execution`);
    if (finished[0]) return finished[0];
    const run = await (await deps()).db.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true } });
    return FINAL.has(run.status) ? run.status : null;
  };

  return {
    harness: h,
    /** Dispatches a new execution of the run and delivers everything it leads to; the status its finish decided. */
    async run(runId: string): Promise<string> {
      const from = h.runs.length;
      h.send(runExecutionEvent(runId, randomUUID()) as HarnessEvent);
      await h.settle();
      const status = await statusOf(runId, from);
      if (status === null) throw new Error(`run ${runId} never finished (${summary(h.runs.slice(from))})`);
      return status;
    },
    /** As `run`, but the queue is lost once `killNow()` says so (steps in flight still end). */
    async runAndKill(runId: string, killNow: () => boolean): Promise<void> {
      h.send(runExecutionEvent(runId, randomUUID()) as HarnessEvent);
      await h.settle({ until: killNow });
    },
    /** Sends events (as the event API) and delivers what they lead to. */
    async send(events: HarnessEvent | HarnessEvent[]) {
      const from = h.runs.length;
      h.send(events);
      await h.settle();
      return h.runs.slice(from);
    },
    /** Fires the sweeper once and delivers what it leads to. */
    async sweep(): Promise<HarnessRun[]> {
      const from = h.runs.length;
      h.cron('sweep-runs');
      await h.settle();
      return h.runs.slice(from);
    },
  };
}

/** Function runs by function and status, for a message. */
export function summary(runs: HarnessRun[]): string {
  const n = new Map<string, number>();
  for (const r of runs) n.set(`${r.fnId}:${r.status}`, (n.get(`${r.fnId}:${r.status}`) ?? 0) + 1);
  return [...n].map(([k, v]) => `${k}×${v}`).join(', ') || 'no function ran';
}
