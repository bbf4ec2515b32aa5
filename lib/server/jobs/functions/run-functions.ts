/**
 * A run under Inngest, chat or retrieval alike: one set of functions over the run's units
 * (runs/units/: the kind says what the units are and how each is processed; the plan lives in
 * the database, never in a step's output):
 *
 *  - run-plan      (assay/run.requested, assay/run.rescore.requested): starts the run and stores
 *                  its plan, one row per unit; a batch-mode chat run hands over to its batch
 *                  rounds instead (run-batch.ts) and is planned when they end
 *                  (assay/run.batch.finished). Then fans out the open units, a chunk of
 *                  FAN_OUT_CHUNK events per send, each chunk its own steps; past
 *                  CHUNKS_PER_RUN chunks it goes on in a function run of its own
 *                  (assay/run.fan-out.requested), so no run of it nears 1,000 steps.
 *  - run-unit      one unit under its lease (runs/units/slice.ts), keyed by the unit's two
 *                  concurrency keys (its providers); then sends the unit it unblocked, and when
 *                  the plan's count reached 0, asks for the finish.
 *  - run-finish    the one finish of an execution (claimed in run_plans), through the kind.
 *  - run-cancel    assay/run.cancelled: finishes the run as stopped; run-plan and run-unit are
 *                  cancelled by the same event (`cancelOn`, matched on data.runId).
 * Every function has a failure handler: a unit that failed after its retries is marked failed
 * (settled, with what it led to) and the finish waits for its siblings; an orchestrator that
 * failed records why on the run and leaves it to the sweeper (sweep-runs.ts) to resume.
 *
 * Inngest's limits (https://www.inngest.com/docs/usage-limits/inngest): 5,000 events per send
 * (chunks of 500 here), 4 MB per step output and 32 MB per function run state (each step here
 * returns a few numbers, or one chunk of unit ids), 1,000 steps per function run. Event ids
 * name their execution: Inngest drops an id it saw in the last 24 h
 * (https://www.inngest.com/docs/guides/handling-idempotency), so a repeat within an execution is
 * dropped and a resume's events are not.
 */
import { inngest } from '../client';
import { rescoreRequested, runRequested } from '../events';
import { runBatchFinished } from '../batch-events';
import { runCancelled, runFanOutRequested, runFinishRequested, runUnitRequested } from '../run-unit-events';
import { batchRoundsEvent } from './run-batch';
import type { RunDeps } from '../../runs/engine/deps';
import { DEFAULT_RUN_DEADLINE_MS } from '../../runs/engine/execute-run';
import { loadRunContext } from '../../runs/engine/run-context';
import { storableText } from '../../db/storable-text';
import { kindOf } from '../../runs/units/kinds';
import { runSlice } from '../../runs/units/slice';
import { afterUnit, claimFinish, failUnit, openUnits, storePlan, type PlannedUnit } from '../../runs/units/unit-store';

export interface RunFunctionOptions {
  /** Concurrent steps per provider across all workers (generation, judging and embedding alike). */
  providerConcurrency: number;
}

/** Events per send: far under Inngest's 5,000, and a chunk's step output stays under 100 kB. */
export const FAN_OUT_CHUNK = 500;
/** Chunks one function run sends before handing over (2 steps each: far under 1,000 steps). */
export const CHUNKS_PER_RUN = 40;

type Exec = { runId: string; execution?: string | undefined };
const execOf = (e: Exec) => e.execution ?? 'first';
const exec = (e: Exec) => `${e.runId}-${execOf(e)}`;

/** The event an Inngest dispatcher sends for one execution of a run (a first start or a resume). */
export function runExecutionEvent(runId: string, execution: string) {
  return runRequested.create({ runId, execution }, { id: `run-${exec({ runId, execution })}` });
}

const unitEvent = (e: Exec, u: PlannedUnit) => runUnitRequested.create({ runId: e.runId, execution: execOf(e), unitId: u.id, key1: u.key1, key2: u.key2 }, { id: `unit-${u.id}` });
/** Why the finish is asked for names the event id: a planner's failure never uses up the last unit's finish. */
const finishEvent = (e: Exec, why: 'last' | 'stop' | 'empty' | 'planner-failed', budgetStop?: string) =>
  runFinishRequested.create({ runId: e.runId, execution: execOf(e), ...(budgetStop ? { budgetStop } : {}) }, { id: `finish-${exec(e)}-${why}` });

const cancelOn = [{ event: runCancelled, match: 'data.runId' }];

export function runFunctions(deps: () => Promise<RunDeps>, opts: RunFunctionOptions) {
  const limit = opts.providerConcurrency;

  /** An orchestrator out of retries: why it failed goes on the run; the sweeper resumes it. */
  const recordFailure = async (runId: string, what: string, error: Error) => {
    const d = await deps();
    await d.db.run.update({ where: { id: runId }, data: { error: storableText(`${what} failed after its retries: ${error.message}`) } });
  };

  const planFn = inngest.createFunction(
    {
      id: 'run-plan',
      triggers: [runRequested, rescoreRequested, runBatchFinished, runFanOutRequested],
      cancelOn,
      retries: 3,
      onFailure: async ({ event, error, step }) => {
        const e = (event.data.event as { data: Exec }).data;
        await step.run('record-failure', () => recordFailure(e.runId, 'planning the run', error));
        await step.sendEvent('finish-after-failure', finishEvent(e, 'planner-failed'));
      },
    },
    async ({ event, step }) => {
      const e = event.data as Exec & { cursor?: string | null; budgetStop?: string };
      let cursor: string | null = null;
      if (event.name === runFanOutRequested.name) {
        cursor = e.cursor ?? null;
      } else if (event.name === runBatchFinished.name && e.budgetStop) {
        await step.sendEvent('budget-stop', finishEvent(e, 'stop', e.budgetStop));
        return { runId: e.runId, budgetStop: e.budgetStop };
      } else {
        const planned = await step.run(`plan:${exec(e)}`, async () => {
          const d = await deps();
          const kind = await kindOf(d, e.runId);
          if (event.name !== runBatchFinished.name) {
            if (await kind.settled(d, e.runId)) return { settled: true as const };
            await kind.start(d, e.runId);
            // batch mode: the batch rounds first (run-batch.ts); they hand the run back when done
            if (kind.name === 'chat' && (await loadRunContext(d.db, e.runId)).mode === 'batch') return { batch: true as const };
          }
          const plan = await storePlan(d.db, e.runId, execOf(e), await kind.plan(d, e.runId), d.runLimits?.deadlineMs ?? DEFAULT_RUN_DEADLINE_MS);
          return { ...plan, kind: kind.name };
        });
        if ('settled' in planned) return { runId: e.runId, settled: true };
        if ('batch' in planned) {
          await step.sendEvent('batch-rounds', batchRoundsEvent(e.runId, e.execution));
          return { runId: e.runId, batch: true };
        }
        if (planned.units === 0) {
          await step.sendEvent('nothing-to-do', finishEvent(e, 'empty'));
          return { runId: e.runId, units: 0 };
        }
      }
      let sent = 0;
      for (let chunk = 0; chunk < CHUNKS_PER_RUN; chunk++) {
        const from: string | null = cursor;
        const units = await step.run(`fan-out-read:${from ?? 'start'}`, async () => openUnits((await deps()).db, e.runId, execOf(e), from, FAN_OUT_CHUNK));
        if (units.length > 0) await step.sendEvent(`fan-out:${from ?? 'start'}`, units.map((u) => unitEvent(e, u)));
        sent += units.length;
        if (units.length < FAN_OUT_CHUNK) return { runId: e.runId, sent, done: true };
        cursor = units[units.length - 1]!.id;
      }
      await step.sendEvent(`fan-out-next:${cursor}`, runFanOutRequested.create({ runId: e.runId, execution: execOf(e), cursor }, { id: `fan-out-${exec(e)}-${cursor}` }));
      return { runId: e.runId, sent, done: false };
    },
  );

  const unitFn = inngest.createFunction(
    {
      id: 'run-unit',
      triggers: [runUnitRequested],
      // env-scoped: every function calling a provider shares that provider's queue across workers
      concurrency: [
        { key: 'event.data.key1', limit, scope: 'env' },
        { key: 'event.data.key2', limit, scope: 'env' },
      ],
      cancelOn,
      retries: 5,
      onFailure: async ({ event, error, step }) => {
        const u = (event.data.event as { data: Exec & { unitId: string } }).data;
        const after = await step.run(`fail:${u.unitId}`, async () => {
          const d = await deps();
          const message = storableText(`a unit failed after its retries: ${error.message}`);
          // why goes on the run (the finish names it) unless the unit had settled after all
          if (await failUnit(d.db, u.unitId, message)) await d.db.run.update({ where: { id: u.runId }, data: { error: message } });
          return afterUnit(d.db, u.unitId);
        });
        // the finish waits for the siblings: only the last unit to settle asks for it
        if (after.finish) await step.sendEvent('finish', finishEvent(u, 'last'));
        return after;
      },
    },
    async ({ event, step }) => {
      const u = event.data as Exec & { unitId: string };
      const slice = await step.run(`unit:${u.unitId}`, async () => {
        const d = await deps();
        const outcome = await runSlice(d, u.unitId);
        return { outcome, after: outcome.status === 'done' || outcome.status === 'settled' ? await afterUnit(d.db, u.unitId) : null };
      });
      if (slice.outcome.status === 'budget') {
        await step.sendEvent('budget-stop', finishEvent(u, 'stop', slice.outcome.budgetStop));
        return slice;
      }
      const events = [...(slice.after?.next ? [unitEvent(u, slice.after.next)] : []), ...(slice.after?.finish ? [finishEvent(u, 'last')] : [])];
      if (events.length > 0) await step.sendEvent('after', events);
      return slice;
    },
  );

  const finishFn = inngest.createFunction(
    {
      id: 'run-finish',
      triggers: [runFinishRequested],
      retries: 3,
      onFailure: async ({ event, error, step }) => {
        const e = (event.data.event as { data: Exec }).data;
        await step.run('record-failure', () => recordFailure(e.runId, 'finishing the run', error));
      },
    },
    async ({ event, step }) => {
      const e = event.data as Exec & { budgetStop?: string };
      return step.run(`finish:${exec(e)}`, async () => {
        const d = await deps();
        // a stop finishes at once; otherwise only an execution whose units are all settled
        const by = event.id ?? `finish-${exec(e)}`;
        if (!(await claimFinish(d.db, e.runId, execOf(e), { force: e.budgetStop !== undefined, by }))) return { runId: e.runId, status: null };
        return { runId: e.runId, status: await (await kindOf(d, e.runId)).finish(d, e.runId, e.budgetStop ?? null) };
      });
    },
  );

  const cancelFn = inngest.createFunction(
    {
      id: 'run-cancel',
      triggers: [runCancelled],
      retries: 3,
      onFailure: async ({ event, error, step }) => {
        const e = (event.data.event as { data: Exec }).data;
        await step.run('record-failure', () => recordFailure(e.runId, 'cancelling the run', error));
      },
    },
    async ({ event, step }) => {
      const { runId, by } = event.data as { runId: string; by?: string };
      return step.run(`cancel:${runId}`, async () => {
        const d = await deps();
        const plan = await d.db.runPlan.findUnique({ where: { runId }, select: { execution: true } });
        if (!(await claimFinish(d.db, runId, plan?.execution ?? 'cancelled', { force: true, by: event.id ?? `cancel-${runId}` }))) return { runId, status: null };
        return { runId, status: await (await kindOf(d, runId)).finish(d, runId, `cancelled${by ? ` by ${by}` : ''}`) };
      });
    },
  );

  return [planFn, unitFn, finishFn, cancelFn] as const;
}
