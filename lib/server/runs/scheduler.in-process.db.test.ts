/**
 * The shared scheduler suite (scheduler-suite.testkit.ts), over every kind of run, against the
 * in-process runner. A kill is the execution stopped from outside part-way: its lease is taken
 * from it (as when the process dies and its lease lapses), so it stops before its next call and
 * leaves the run running; the calls on the wire then may be repeated by the resume, at most the
 * concurrency.
 */
import { executeRun } from './engine/execute-run';
import { runSchedulerSuite, SUITE_CONCURRENCY } from './scheduler-suite.testkit';
import { runAndKillInProcess } from './runs.testkit';

runSchedulerSuite({
  name: 'in-process',
  run: (deps, runId) => executeRun(deps, runId),
  runAndKill: (deps, runId, killNow, { oneAtATime }) => runAndKillInProcess(deps, runId, killNow, oneAtATime ? { inFlight: 1 } : {}),
  repeatsAfterKill: SUITE_CONCURRENCY * 2,
});
