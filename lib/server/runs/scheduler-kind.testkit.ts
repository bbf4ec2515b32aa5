/**
 * What the shared scheduler suite (scheduler-suite.testkit.ts) needs to know of a kind of run to
 * test any scheduler on it: how to store its blueprint and make the deps its runs use, what a
 * complete run holds, how much model work the fake answered, the results a reader sees, how to
 * make one model's provider fail every call, and the tests only that kind has. Each kind gives one
 * (runs/chat/scheduler-kind.testkit.ts, runs/retrieval/scheduler-kind.testkit.ts).
 */
import type { FakeLlm } from '@/testing/fakes/llm-server';
import type { TestDatabase } from '../db/db.testkit';
import type { RunDeps } from './engine/deps';
import type { requestRun } from './request-run';

/** Per provider, in each worker's gateway: the in-flight calls a kill may leave unrecorded. */
export const SUITE_CONCURRENCY = 2;

export type RunRequestExtra = Partial<Parameters<typeof requestRun>[1]>;

export interface SchedulerAdapter {
  name: string;
  /** Executes the run until it ends (or stops) and returns the status the scheduler reports. */
  run(deps: RunDeps, runId: string): Promise<string>;
  /**
   * Executes the run and kills the execution part-way, once `killNow()` says so, as a worker
   * that dies does: the run is left as it was at that moment (status running), nothing finishes
   * it. `oneAtATime`: one unit in flight, so the kill lands between two calls.
   */
  runAndKill(deps: RunDeps, runId: string, killNow: () => boolean, opts: { oneAtATime: boolean }): Promise<void>;
  /** Completed calls a resume may make again: those on the wire at the kill (0 when a kill falls between steps). */
  repeatsAfterKill: number;
}

/** What a kind's own tests get: the database, the fake, the deps, and a new run of the kind's blueprint. */
export interface SuiteContext {
  t: TestDatabase;
  fake: FakeLlm;
  deps: RunDeps;
  adapter: SchedulerAdapter;
  newRun(extra?: RunRequestExtra): Promise<string>;
}

export interface SuiteKind {
  name: 'chat' | 'retrieval';
  /** Stores the kind's blueprint and makes the deps its runs use, against the one fake server. */
  setUp(t: TestDatabase, fakeUrl: string): Promise<{ deps: RunDeps; blueprintId: string; request?: RunRequestExtra }>;
  /** Before each test (a retrieval run's vector store is its cache: emptied, every test embeds afresh). */
  reset?(t: TestDatabase): Promise<void>;
  /** The run's counters when complete. */
  complete: { doneCalls: number; doneVerdicts: number };
  /** The model work the fake answered: replies of the models under test (chat), texts embedded (retrieval). */
  work(fake: FakeLlm): number;
  /** The work of a complete run, and the most one call repeated by a resume adds to it. */
  workOfRun: number;
  workPerCall: number;
  /** Checks what only this kind's complete run holds (replies and verdicts; metric rows). */
  expectComplete(c: SuiteContext, runId: string): Promise<void>;
  /** What a stopped run has stored, by identity, that a resume must keep as it was (replies). */
  stored?(c: SuiteContext, runId: string): Promise<Array<[string, unknown]>>;
  /** A run stopped part-way by its budget has nothing summarised for the reader. */
  expectNothingSummarised(c: SuiteContext, runId: string): Promise<void>;
  /** The results a reader is shown, to compare two runs of the same blueprint. */
  results(c: SuiteContext, runId: string): Promise<unknown>;
  /** When to kill an execution: some work stored, most not. */
  killWhen(fake: FakeLlm): boolean;
  oneAtATime: boolean;
  /** A call budget that stops the run part-way. */
  budgetCalls: number;
  /** Makes one model's provider fail every call; what the run then holds is `expectOneModelFailed`'s to check. */
  failOneModel(fake: FakeLlm): void;
  /** The run ended with one model failing: the others' results stored as in a complete run, the failing model's not. */
  expectOneModelFailed(c: SuiteContext, runId: string, status: string, complete: unknown): Promise<void>;
  /** Tests only this kind has, run under every scheduler. */
  ownTests?(c: () => SuiteContext): void;
}
