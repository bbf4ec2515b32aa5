/**
 * The shared scheduler suite (scheduler-suite.testkit.ts), over every kind of run, against the
 * Inngest functions, under the strict harness (testing/inngest/harness.ts): events delivered
 * concurrently and in a seeded random order, each event id once, Inngest's published limits
 * enforced, the functions deployed afresh before every step, a failing step retried as its
 * function's `retries` say and a failed run handed to its failure handler. A kill is the queue
 * lost (every queued event and function run dropped; steps in flight end, each under its unit's
 * lease); the resume is a new dispatch (a new execution).
 */
import { inngestRuns } from '../jobs/functions/inngest-runs.testkit';
import { runSchedulerSuite } from './scheduler-suite.testkit';

runSchedulerSuite({
  name: 'inngest',
  run: (deps, runId) => inngestRuns({ deps: async () => deps, seed: 11 }).run(runId),
  async runAndKill(deps, runId, killNow, { oneAtATime }) {
    const limits = oneAtATime ? { providerConcurrency: 1, parallel: 1 } : {};
    await inngestRuns({ deps: async () => deps, seed: 12, ...limits }).runAndKill(runId, killNow);
  },
  // a kill ends the steps in flight: each stores what it called before the queue is dropped
  repeatsAfterKill: 0,
});
