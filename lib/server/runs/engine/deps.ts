/** What the run steps need, wired once per process (lib/server/compose/run-deps.ts). */
import type { ExternalCallPort, FixtureSet, SandboxBudgetLimits, SandboxPort } from '@/lib/core';
import type { Db } from '../../db/client';
import type { CallGateway } from '../calls/gateway';
import type { GradingPool } from '../grading/grading-pool';
import type { RetryOptions } from '../../providers';
import type { EmbeddingClient } from '../../providers/embeddings';
import type { EmbeddingLimiters } from '../retrieval/embed-texts';

export interface RunDeps {
  db: Db;
  /** Only `call` is used by the steps: batch mode hands them a round's gateway (batch-gateway.ts) with the live one behind it. */
  gateway: CallGateway;
  /**
   * For `$js` and string `tool_args_match` graded on this thread, when there is no grading pool;
   * null then leaves those points as error verdicts. With a pool it is not used: its workers hold
   * a sandbox each.
   */
  sandbox: SandboxPort | null;
  /** Where every `correct:` and function point is graded, off this thread, each worker with its own sandbox; null or absent: on it, with `sandbox`. */
  gradingPool?: GradingPool | null;
  /** Total sandbox time per reply and per run (default SANDBOX_BUDGET_DEFAULTS; a run's `maxSandboxMs` can lower the latter). */
  sandboxBudget?: Pick<SandboxBudgetLimits, 'perReplyMs' | 'perRunMs'>;
  external: ExternalCallPort | null;
  /** Fixed replies (`--fixtures`): used instead of the provider for the models they cover. */
  fixtures: FixtureSet | null;
  /**
   * Retrieval runs' embeddings: the client of a model id (resolveEmbeddingClient with the
   * providers' configuration), the per-provider limits shared by the process, the retry policy.
   * Absent: a worker that runs no retrieval blueprint (such a run fails saying so).
   */
  embeddings?: { client: (modelId: string) => EmbeddingClient; limiters?: EmbeddingLimiters; retry?: RetryOptions };
  /**
   * Reads a file named by a blueprint (its `corpus:`), `relative` to the blueprint file at
   * `blueprintPath` in its source. Absent: such files cannot be read, and the criteria that need
   * them give `error` verdicts saying so.
   */
  readBesideBlueprint?: (blueprintPath: string, relative: string) => Promise<string>;
  /** Called once when a run reaches a final status (PR result comments, notifications). */
  onFinished?: (runId: string) => Promise<void>;
  /** The in-process runner's lease length and per-execution deadline (env: ASSAY_RUN_LEASE_SECONDS, ASSAY_RUN_DEADLINE_MINUTES). */
  runLimits?: { leaseMs?: number; deadlineMs?: number };
  /** Batch mode: how long to wait between polls of a provider batch (ASSAY_BATCH_POLL_SECONDS; default 60 s). */
  batchPollMs?: number;
}
