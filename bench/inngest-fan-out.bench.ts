/**
 * A wide run to its end under the Inngest functions: 1,500 prompts × 4 models (6,000 prompt ×
 * model groups, one function point each, so one generation per group and no judge call) through
 * the strict harness (testing/inngest/harness.ts: Inngest's published limits, out-of-order
 * delivery, a deploy before every step) against the fake LLM and a fresh PostgreSQL database.
 *
 * The test suite checks the fan-out of the same run (every group's unit sent once, in sends
 * Inngest accepts: lib/server/jobs/functions/run-functions.db.test.ts); this runs all 12,000
 * units (generate, then grade) to the finish and prints how long that took. It fails if the run
 * does not complete with each call made once and one finish.
 */
import { freshDatabase } from '@/lib/server/db/db.testkit';
import { inngestRuns } from '@/lib/server/jobs/functions/inngest-runs.testkit';
import { requestRun } from '@/lib/server/runs/request-run';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from '@/lib/server/runs/runs.testkit';
import { startFakeLlm } from '@/testing/fakes/llm-server';
import { wideBlueprint, WIDE_GROUPS } from '@/lib/server/jobs/functions/wide-run.testkit';
import { reportFigure } from './targets';

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`the wide run under the Inngest harness: ${what}`);
}

export async function bench(): Promise<void> {
  const t = await freshDatabase('postgres');
  const fake = await startFakeLlm({ keepRequests: 20_000 });
  try {
    const deps = await fakeDeps(t.db, fake.url, { concurrency: 16 });
    const { blueprintId } = await storeBlueprint(t.db, 'wide.yml', wideBlueprint());
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', judges: ['openai:judge-a'], bypassCache: true }, noDispatch, TEST_DEFAULTS);
    const started = Date.now();
    const inngest = inngestRuns({ deps: async () => deps, providerConcurrency: 32, parallel: 32, seed: 5 });
    const status = await inngest.run(runId);
    const seconds = (Date.now() - started) / 1000;
    const runs = inngest.harness.runs;
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    check(status === 'completed' && run.status === 'completed', `finished as ${status} (stored ${run.status})`);
    check(run.doneCalls === WIDE_GROUPS && run.errorCalls === 0, `${run.doneCalls} calls done, ${run.errorCalls} failed; ${WIDE_GROUPS} expected`);
    check(fake.calls() === WIDE_GROUPS && fake.duplicateCompletedCalls() === 0, `${fake.calls()} calls at the fake, ${fake.duplicateCompletedCalls()} of them repeated`);
    const units = runs.filter((r) => r.fnId === 'run-unit' && r.status === 'completed').length;
    check(units === 2 * WIDE_GROUPS, `${units} units completed; ${2 * WIDE_GROUPS} expected (generate, then grade)`);
    const finishes = runs.filter((r) => r.fnId === 'run-finish' && (r.output as { status: string | null }).status !== null).length;
    check(finishes === 1, `finished ${finishes} times`);
    console.log(`${WIDE_GROUPS} groups under the strict harness: ${seconds.toFixed(1)} s, ${runs.length} function runs, ${units} units`);
    reportFigure({ name: `Inngest functions: a run of ${WIDE_GROUPS} groups to its finish (strict harness, PostgreSQL)`, value: Math.round(seconds), unit: 's', note: `${runs.length} function runs` });
  } finally {
    await fake.close();
    await t.close();
  }
}
