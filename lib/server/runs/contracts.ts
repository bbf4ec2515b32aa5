/**
 * The run use cases' public contract: what the GitHub side (PR runs, cron re-runs) and the
 * admin area call, and the ports they receive it through. The composition root
 * (lib/server/platform.ts) binds the platform's defaults and dispatcher into these ports;
 * tests pass spies.
 */
import type { JudgeMode } from '@/lib/core';
import type { Db } from '../db/client';
import type { RunMode } from '@/lib/core';

export type RunTrigger = 'manual' | 'schedule' | 'pull_request' | 'cli' | 'rescore' | 'try';

export interface RunRequest {
  blueprintId: string;
  /** Defaults to the blueprint's latest version. */
  versionId?: string;
  /** Model ids; default: the blueprint's own `models` (collections resolved). */
  models?: string[];
  /** Judge model ids; default: the blueprint's evaluationConfig or the platform's panel. */
  judges?: string[];
  repeats?: number;
  /** Overrides the blueprint's `judge_mode` (per-point or batched). */
  judgeMode?: JudgeMode;
  trigger: RunTrigger;
  pullRequestId?: string;
  createdById?: string;
  budget?: { maxCalls?: number; maxCostUsd?: number; maxModels?: number; maxPrompts?: number; maxSandboxSeconds?: number };
  /** Scheduled re-runs bypass the response cache so drift is real. */
  bypassCache?: boolean;
  /** `batch`: provider batch APIs where the provider has one (run-mode.ts); default live. */
  mode?: RunMode;
  /** A try-it run of an author's draft (createdById): never published, seen only by its author and maintainers. */
  draft?: boolean;
  /** Skip when an identical run (same identity hash) already completed or is in progress. */
  skipIfIdentical?: boolean;
}

export interface RequestedRun {
  runId: string;
  identityHash: string;
  /** True when skipIfIdentical found an identical run and no new run was created. */
  deduplicated: boolean;
}

/** Where a requested run goes to be executed: Inngest at scale, the in-process runner locally. */
export interface RunDispatcher {
  dispatch(runId: string): Promise<void>;
}

export type RequestRun = (db: Db, req: RunRequest, dispatcher: RunDispatcher) => Promise<RequestedRun>;

/** A rescore request (lib/server/runs/request-rescore.ts) with the platform's defaults bound. */
export type RequestRescore = (
  db: Db,
  req: { runId: string; versionId?: string; judges?: string[]; createdById?: string },
  dispatcher: RunDispatcher,
) => Promise<RequestedRun>;

/** The run pipeline as the pull-request approval, the admin "run now" and the cron re-runs need it. */
export interface RunPorts {
  requestRun: RequestRun;
  dispatcher: RunDispatcher;
}

/** The run pipeline's rescore, as the admin action needs it. */
export interface RescorePorts {
  requestRescore: RequestRescore;
  dispatcher: RunDispatcher;
}
