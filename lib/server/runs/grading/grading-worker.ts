/**
 * A grading worker's entry (a worker_threads script, started by grading-pool.ts): grades the
 * points of a reply that run code in the QuickJS sandbox (`$js`, string `tool_args_match`,
 * sandboxed regexes) off the server's event loop. It keeps one sandbox for its life and draws
 * each job's sandbox time from the budgets the server sent, answering point by point so a
 * worker killed midway (memory, wall clock) loses only the points it had not finished.
 */
import { parentPort } from 'node:worker_threads';
import { budgetedSandbox, createQuickJsSandbox, evaluateDeterministicPoint, SandboxTimeBudget, verdictFromOutcome, type Verdict } from '@/lib/core';
import type { GradingJob, WorkerMessage } from './grading-protocol';

const port = parentPort;
if (!port) throw new Error('grading-worker.ts runs as a worker thread (lib/server/runs/grading/grading-pool.ts)');
const send = (m: WorkerMessage) => port.postMessage(m);

// no top-level await: the same file is bundled by Next as a worker chunk
const loading = createQuickJsSandbox();
let jobs: Promise<void> = Promise.resolve();

async function grade(job: GradingJob): Promise<void> {
  const sandbox = await loading;
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
void loading.then(() => send({ type: 'ready' }));
