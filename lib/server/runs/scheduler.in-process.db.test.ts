/**
 * The shared scheduler suite (scheduler-suite.testkit.ts) against the in-process runner. A kill
 * is the execution stopped from outside part-way: its lease is taken from it (as when the
 * process dies and its lease lapses), so it stops before its next call and leaves the run
 * running; the calls on the wire then may be repeated by the resume, at most the concurrency.
 */
import { executeRun } from './engine/execute-run';
import { runSchedulerSuite, SUITE_CONCURRENCY } from './scheduler-suite.testkit';

runSchedulerSuite({
  name: 'in-process',
  run: (deps, runId) => executeRun(deps, runId),
  async runAndKill(deps, runId, killNow) {
    const execution = executeRun(deps, runId);
    let killed = false;
    const watch = setInterval(() => {
      if (killed || !killNow()) return;
      killed = true;
      // (a Prisma query runs only once it is awaited or then'd)
      deps.db.$executeRaw`UPDATE runs SET lease_holder = 'killed-worker', lease_expires_at = now() - interval '1 second' WHERE id = ${runId}`.then(
        () => {},
        () => {},
      );
    }, 2);
    try {
      if ((await execution) !== 'busy') throw new Error('the run ended before the kill: give the kill an earlier moment');
    } finally {
      clearInterval(watch);
    }
  },
  repeatsAfterKill: SUITE_CONCURRENCY * 2,
});
