/**
 * A grading worker's entry (a worker_threads script, started by grading-pool.ts): grades the
 * points of a reply that run code in the QuickJS sandbox (`$js`, string `tool_args_match`,
 * sandboxed regexes) off the server's event loop. It keeps one sandbox for its life and draws
 * each job's sandbox time from the budgets the server sent, answering point by point so a
 * worker killed midway (memory, wall clock) loses only the points it had not finished.
 *
 * The worker says it is ready once its code has loaded; the sandbox (two QuickJS wasm modules)
 * loads with the first job that may use it. Most runs grade only plain points (`$contains`,
 * `$matches`, paths), and waiting for an engine they never call held the first reply's grading
 * of a small `assay run` for ~0.1 s (bench/cli-start.bench.ts).
 */
import { parentPort } from 'node:worker_threads';
import { budgetedSandbox, createQuickJsSandbox, evaluateDeterministicPoint, mayUseSandbox, SandboxError, SandboxTimeBudget, verdictFromOutcome, type QuickJsSandbox, type SandboxPort, type Verdict } from '@/lib/core';
import type { GradingJob, WorkerMessage } from './grading-protocol';

const port = parentPort;
if (!port) throw new Error('grading-worker.ts runs as a worker thread (lib/server/runs/grading/grading-pool.ts)');
const send = (m: WorkerMessage) => port.postMessage(m);

// no top-level await: the same file is bundled by Next as a worker chunk
let loading: Promise<QuickJsSandbox> | null = null;
let jobs: Promise<void> = Promise.resolve();

/** A job of plain points is given this: reaching it would mean `mayUseSandbox` missed a point. */
const NO_SANDBOX: SandboxPort & { ready(): Promise<void> } = {
  run() {
    throw new SandboxError('unavailable', 'this point was sent to grading as one that runs no code');
  },
  ready: () => Promise.resolve(),
};

async function sandboxFor(job: GradingJob): Promise<SandboxPort & { ready(): Promise<void> }> {
  if (!job.points.some(({ point }) => mayUseSandbox(point))) return NO_SANDBOX;
  loading ??= createQuickJsSandbox();
  try {
    return await loading;
  } catch (e) {
    loading = null; // the next job tries again
    const reason = `the sandbox did not start (${e instanceof Error ? e.message : String(e)})`;
    return { run: () => { throw new SandboxError('unavailable', reason); }, ready: () => Promise.resolve() };
  }
}

async function grade(job: GradingJob): Promise<void> {
  const sandbox = await sandboxFor(job);
  const reply = new SandboxTimeBudget('reply', job.budgets.reply.limitMs, job.budgets.reply.usedMs);
  const run = new SandboxTimeBudget('run', job.budgets.run.limitMs, job.budgets.run.usedMs);
  const bounded = budgetedSandbox(sandbox, [reply, run], { now: () => performance.now() });
  const spent = () => reply.usedMs - job.budgets.reply.usedMs;
  for (const [position, { index, point }] of job.points.entries()) {
    let verdict: Verdict | 'needs-judge';
    try {
      verdict = await evaluateDeterministicPoint(point, job.reply, { pointIndex: index, messages: job.context.messages, modelId: job.context.modelId, promptId: job.context.promptId, sandbox: bounded });
    } catch (e) {
      // core turns a point's own failures into verdicts; anything escaping is ours, still one point's error
      verdict = verdictFromOutcome(point, index, { error: `grading failed: ${e instanceof Error ? e.message : String(e)}` });
    }
    send({ type: 'point', id: job.id, position, verdict, spentMs: spent() });
    // a recycled engine (after a memory bomb or a trap) is reloaded before the next point
    await sandbox.ready();
  }
  send({ type: 'done', id: job.id, spentMs: spent() });
}

port.on('message', (job: GradingJob) => {
  jobs = jobs.then(() => grade(job));
});
send({ type: 'ready' });
