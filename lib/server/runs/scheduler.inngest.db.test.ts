/**
 * The shared scheduler suite (scheduler-suite.testkit.ts) against the Inngest functions, each
 * execution run by @inngest/test's engine with its real steps. Sending events is the boundary
 * to Inngest's server: those steps are mocked, and the events they were asked to send are
 * delivered here in order (each event id once, as Inngest deduplicates them), a failing
 * function retried as its `retries` say and then handed to its failure handler. A kill is a
 * worker lost between steps: the events still queued are dropped; the resume is a new dispatch
 * (a new execution), and event ids are remembered across executions as Inngest remembers them.
 */
import { randomUUID } from 'node:crypto';
import { InngestTestEngine } from '@inngest/test';
import { inngest } from '../jobs/client';
import { runExecutionEvent, runFunctions } from '../jobs/functions/run-functions';
import type { RunDeps } from './deps';
import { runSchedulerSuite } from './scheduler-suite.testkit';

interface QueuedEvent {
  name: string;
  data: Record<string, unknown>;
  id?: string;
}

/** Fresh per engine: mock steps shared between engines replay one execution's step results in the next. */
const sent = () => ['fan-out', 'nothing-to-do', 'generated', 'budget-stop', 'all-cells-done', 'finish-after-failure'].map((id) => ({ id, handler: () => ({ ids: [] }) }));

type Fn = ReturnType<typeof runFunctions>[number];

/** A fresh function set per execution: a function object remembers step results between executions. */
function functionFor(deps: RunDeps, name: string): Fn {
  const [start, cell, judge, finish] = runFunctions(async () => deps, { providerConcurrency: 4 });
  const byEvent: Record<string, Fn> = {
    'assay/run.requested': start,
    'assay/run.rescore.requested': start,
    'assay/run.cell.requested': cell,
    'assay/run.judge.requested': judge,
    'assay/run.cells.finished': finish,
  };
  const fn = byEvent[name];
  if (!fn) throw new Error(`no run function is triggered by ${name}`);
  return fn;
}

/** The failure handler of a function, as Inngest runs it: a function triggered by `inngest/function.failed`. */
function failureFunction(fn: Fn) {
  const handler = (fn.opts as { onFailure?: (ctx: unknown) => unknown }).onFailure;
  if (!handler) return null;
  return inngest.createFunction({ id: `${fn.id()}-failure`, triggers: [{ event: 'inngest/function.failed' }] }, (ctx) =>
    handler({ ...ctx, error: new Error((ctx.event.data as { error: { message: string } }).error.message) }),
  );
}

function sentEvents(ctx: { step: { sendEvent: unknown } }): QueuedEvent[] {
  const calls = (ctx.step.sendEvent as { mock: { calls: [string, QueuedEvent | QueuedEvent[]][] } }).mock.calls;
  return calls.flatMap(([, e]) => (Array.isArray(e) ? e : [e]));
}

/** Event ids already delivered, across executions, as Inngest remembers them (for 24 h). */
const seen = new Set<string>();

async function deliver(deps: RunDeps, first: QueuedEvent, killNow: () => boolean = () => false): Promise<{ status: string | null; killed: boolean }> {
  const queue = [first];
  let status: string | null = null;
  while (queue.length > 0) {
    if (killNow()) return { status, killed: true };
    const e = queue.shift()!;
    if (e.id) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
    }
    const fn = functionFor(deps, e.name);
    const retries = (fn.opts as { retries?: number }).retries ?? 0;
    let out: Awaited<ReturnType<InngestTestEngine['execute']>> | null = null;
    let firstError: unknown = null;
    for (let attempt = 0; attempt <= retries; attempt++) {
      out = await new InngestTestEngine({ function: functionFor(deps, e.name), steps: sent() }).execute({ events: [{ name: e.name, data: e.data }] });
      if (!out.error) break;
      firstError ??= out.error;
    }
    if (out!.error) {
      const failure = failureFunction(fn);
      if (!failure) throw firstError;
      const message = (firstError as Error).message ?? String(firstError);
      const failed = await new InngestTestEngine({ function: failure, steps: sent() }).execute({
        events: [{ name: 'inngest/function.failed', data: { function_id: fn.id(), error: { message }, event: { name: e.name, data: e.data } } }],
      });
      if (failed.error) throw failed.error;
      queue.push(...sentEvents(failed.ctx as never));
      continue;
    }
    if (e.name === 'assay/run.cells.finished') status = (out!.result as { status: string }).status;
    if (e.name === 'assay/run.requested' && (out!.result as { settled?: boolean }).settled) status = 'completed';
    queue.push(...sentEvents(out!.ctx as never));
  }
  return { status, killed: false };
}

/** What the Inngest dispatcher sends for each dispatch (a first start or a resume): a new execution. */
async function request(_deps: RunDeps, runId: string): Promise<QueuedEvent> {
  const e = runExecutionEvent(runId, randomUUID());
  return { name: e.name, data: e.data as Record<string, unknown>, id: e.id };
}

runSchedulerSuite({
  name: 'inngest',
  async run(deps, runId) {
    const { status } = await deliver(deps, await request(deps, runId));
    if (status === null) throw new Error('the run never asked for its finish');
    return status;
  },
  async runAndKill(deps, runId, killNow) {
    const { killed } = await deliver(deps, await request(deps, runId), killNow);
    if (!killed) throw new Error('the run ended before the kill: give the kill an earlier moment');
  },
  repeatsAfterKill: 0,
});
