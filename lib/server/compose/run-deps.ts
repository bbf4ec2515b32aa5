/**
 * Part of the composition root (lib/server/platform.ts and this folder): the run pipeline's
 * real adapters: providers from the environment, the response cache and budget in the database,
 * the grading workers (each with its wasm sandbox), the maintainer's external services, and the
 * dispatcher (Inngest when configured, otherwise the in-process runner). The app (platform.ts) and the
 * CLI (`assay run`, `assay rescore`) both build the pipeline with these functions.
 */
import { randomUUID } from 'node:crypto';
import type { FixtureSet } from '@/lib/core';
import { besideBlueprint } from '../blueprints/beside-blueprint';
import type { Env } from '../env';
import { inngestDevMode } from '../env-inngest';
import type { Db } from '../db/client';
import { providerConfigFromEnv } from './provider-config';
import { createExternalCallPort } from '../external/services';
import type { RunDispatcher } from '../runs/contracts';
import type { RunDeps } from '../runs/engine/deps';
import { executeRun } from '../runs/engine/execute-run';
import { lazy } from '../providers/lazy-module';
import { LlmGateway } from '../runs/calls/gateway';
import { databaseSlots } from '../runs/calls/provider-slots';
import { EmbeddingLimiters } from '../runs/retrieval/embed-texts';
import { resolveEmbeddingClient } from '../providers/embeddings';
import { sharedGradingPool } from '../runs/grading/grading-pool';
import type { RunDefaults } from '../runs/request-run';

export function runDefaults(env: Env): RunDefaults {
  return {
    judges: env.ASSAY_JUDGES.split(',').map((s) => s.trim()).filter(Boolean),
    defaultCollection: 'CORE',
    judgeSamples: 3,
  };
}

export async function createRunDeps(
  db: Db,
  env: Env,
  opts: {
    fixtures?: FixtureSet | null;
    concurrency?: number;
    processEnv?: Record<string, string | undefined>;
    onFinished?: (runId: string) => Promise<void>;
    /** The folder blueprint paths are relative to, for the files they name (`corpus:`); default ASSAY_BLUEPRINTS_DIR. */
    blueprintRoot?: string;
  } = {},
): Promise<RunDeps> {
  const providers = providerConfigFromEnv(opts.processEnv ?? process.env);
  const gradingPool = sharedGradingPool({ size: env.ASSAY_GRADING_WORKERS });
  // started now, not on the first reply (see `warm`); runs do not wait for it
  void gradingPool.warm();
  return {
    db,
    gateway: new LlmGateway({
      db,
      providers,
      concurrency: opts.concurrency ?? env.ASSAY_RUN_CONCURRENCY,
      ...(env.ASSAY_PROVIDER_TIMEOUTS ? { timeouts: env.ASSAY_PROVIDER_TIMEOUTS } : {}),
      // Under Inngest any instance runs any step: the per-provider maximum is shared through the
      // database (runs/calls/provider-slots.ts). One process alone (the in-process runner) needs no more
      // than its gateway's own limit.
      ...(inngestConfigured(env) ? { sharedSlots: databaseSlots(db) } : {}),
    }),
    // sandboxed code runs in the grading pool's workers, each with its own sandbox: none on this
    // thread (it was two QuickJS modules loaded at every start, ~100 ms of `assay run` and their memory)
    sandbox: null,
    gradingPool,
    sandboxBudget: { perReplyMs: env.ASSAY_SANDBOX_REPLY_SECONDS * 1000, perRunMs: env.ASSAY_SANDBOX_RUN_SECONDS * 1000 },
    external: env.ASSAY_EXTERNAL_SERVICES ? createExternalCallPort(env.ASSAY_EXTERNAL_SERVICES) : null,
    fixtures: opts.fixtures ?? null,
    embeddings: { client: (modelId) => resolveEmbeddingClient(modelId, providers), limiters: new EmbeddingLimiters(opts.concurrency ?? env.ASSAY_RUN_CONCURRENCY) },
    runLimits: { leaseMs: env.ASSAY_RUN_LEASE_SECONDS * 1000, deadlineMs: env.ASSAY_RUN_DEADLINE_MINUTES * 60_000 },
    batchPollMs: env.ASSAY_BATCH_POLL_SECONDS * 1000,
    readBesideBlueprint: besideBlueprint(opts.blueprintRoot ?? env.ASSAY_BLUEPRINTS_DIR),
    ...(opts.onFinished ? { onFinished: opts.onFinished } : {}),
  };
}

/**
 * Runs go to Inngest when an event key or the dev server is configured (INNGEST_DEV as the
 * SDK reads it: `0` is not dev mode). Half a configuration never gets here: env.ts refuses it
 * at start (env-inngest.ts).
 */
export function inngestConfigured(env: Env): boolean {
  return Boolean(env.INNGEST_EVENT_KEY) || inngestDevMode(env.INNGEST_DEV);
}

/**
 * The Inngest client and the run event, imported by the first dispatch: a process that never
 * sends to Inngest (`assay run`, the in-process runner) never loads `inngest` (lazy-module.ts).
 */
const inngestRuns = lazy(async () => {
  const [{ inngest }, { runExecutionEvent }] = await Promise.all([import('../jobs/client'), import('../jobs/functions/run-functions')]);
  return { inngest, runExecutionEvent };
});

export function inngestDispatcher(): RunDispatcher {
  return {
    dispatch: async (runId) => {
      const { inngest, runExecutionEvent } = await inngestRuns();
      await inngest.send(runExecutionEvent(runId, randomUUID()));
    },
  };
}

/**
 * The in-process dispatcher: starts the run in the background of this process. Its
 * durability comes from the database: a run interrupted by a restart is resumed by
 * `resumeInterruptedRuns` (called at start) or `assay run --resume`.
 */
export function localDispatcher(deps: () => Promise<RunDeps>, onError: (runId: string, e: unknown) => void = () => {}): RunDispatcher {
  return {
    async dispatch(runId) {
      void deps()
        .then((d) => executeRun(d, runId))
        .catch((e: unknown) => onError(runId, e));
    },
  };
}
