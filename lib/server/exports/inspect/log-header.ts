/**
 * A run and one of its models as the header of an Inspect `EvalLog` (everything but the
 * samples). Pure: the reader (read-run.ts) hands in the stored rows. The figures in `results`
 * are the ones Assay stored when it summarised the run (`run_model_summaries`), never computed
 * again here, so the log says what the run's pages say.
 */
import type { Interval } from '@/lib/core';
import { InspectLogHeaderSchema, type InspectError, type InspectLogHeader } from './inspect-log';
import { inspectModelName, modelSlug } from './names';

/** The name of the one Inspect score Assay's attempt score goes under, in the results and in every sample. */
export const ASSAY_SCORER = 'assay';

export interface RunForExport {
  id: string;
  /** Assay's run status (queued … completed, failed, cancelled, budget_exceeded). */
  status: string;
  trigger: string;
  parentRunId: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  error: string | null;
  sourceCommit: string | null;
  judges: unknown;
  blueprint: { id: string; title: string; description: string | null; path: string; tags: string[] };
  version: { id: string; contentHash: string };
  /** Where the blueprint came from: a GitHub source gives the log a git revision. */
  source: { kind: string; owner: string | null; repo: string | null } | null;
  /** Sealed prompts (`split: test`) of the run's version: scored, never exported. */
  sealedPrompts: number;
}

/** A model's stored summary (`run_model_summaries`), with its interval already read (stored-interval.ts). */
export interface ModelSummaryForExport {
  score: number | null;
  interval: Interval | null;
  attemptCount: number;
  promptCount: number;
  errorCount: number;
  withheldReason: string | null;
}

/** Counts over the exported (non-sealed) replies of one model, made by the database. */
export interface ModelTotals {
  samples: number;
  /** Replies without an error. */
  completed: number;
  inputTokens: number;
  outputTokens: number;
  /** Null when no reply had a priced call. */
  costUsd: number | null;
  /** The most attempts a prompt had (Inspect's epochs); null without replies. */
  epochs: number | null;
  /** True when the run varies the system prompt or temperature: sample ids then name the variant. */
  variants: boolean;
}

export interface ModelForExport {
  modelId: string;
  /** Null while the run is not summarised. */
  summary: ModelSummaryForExport | null;
  totals: ModelTotals;
}

/**
 * Inspect's log status. `budget_exceeded` and `failed` are `error` (the run stopped before its
 * end, as an Inspect eval that raised); a run still going is `started`.
 */
export function inspectStatus(status: string): InspectLogHeader['status'] {
  if (status === 'completed') return 'success';
  if (status === 'cancelled') return 'cancelled';
  if (status === 'failed' || status === 'budget_exceeded') return 'error';
  return 'started';
}

export function logHeader(run: RunForExport, model: ModelForExport): InspectLogHeader {
  const inspectModel = inspectModelName(model.modelId);
  const status = inspectStatus(run.status);
  const tags = [...new Set(run.blueprint.tags)].sort();
  // Inspect rebuilds a log's `metadata` from `eval.metadata` when it reads the file
  // (log/_log.py `recompute_tags_and_metadata`), so the same object goes in both places.
  const metadata = {
    assay_run_id: run.id,
    blueprint_id: run.blueprint.id,
    version_id: run.version.id,
    model_id: model.modelId,
    trigger: run.trigger,
    rescore_of: run.trigger === 'rescore' ? run.parentRunId : null,
    sealed_prompts_left_out: run.sealedPrompts,
  };
  const usage = { input_tokens: model.totals.inputTokens, output_tokens: model.totals.outputTokens, total_tokens: model.totals.inputTokens + model.totals.outputTokens, total_cost: model.totals.costUsd };
  const error: InspectError | null = status === 'error' || status === 'cancelled' ? { message: run.error ?? `the run ended ${run.status}`, traceback: '', traceback_ansi: '' } : null;
  return InspectLogHeaderSchema.parse({
    version: 2,
    status,
    eval: {
      eval_id: `${run.id}-${modelSlug(model.modelId)}`,
      run_id: run.id,
      created: run.createdAt.toISOString(),
      task: run.blueprint.id,
      task_id: run.version.id,
      task_version: run.version.contentHash,
      task_display_name: run.blueprint.title,
      task_attribs: { path: run.blueprint.path, description: run.blueprint.description },
      task_args: {},
      task_args_passed: {},
      solver: null,
      tags,
      dataset: { name: run.blueprint.id, location: run.blueprint.path, samples: model.totals.samples, shuffled: false },
      model: inspectModel,
      model_generate_config: {},
      model_args: {},
      config: { epochs: model.totals.epochs, epochs_reducer: ['mean'] },
      revision: run.source?.kind === 'github' && run.source.owner && run.source.repo && run.sourceCommit ? { type: 'git', origin: `https://github.com/${run.source.owner}/${run.source.repo}`, commit: run.sourceCommit } : null,
      packages: {},
      metadata,
      scorers: [{ name: ASSAY_SCORER, options: { judges: run.judges }, metadata: null }],
    },
    plan: { name: 'plan', steps: [{ solver: 'generate', params: {}, params_passed: {} }], config: {} },
    results: model.summary ? results(run, model.summary, model.totals) : null,
    stats: {
      started_at: run.startedAt?.toISOString() ?? '',
      completed_at: run.finishedAt?.toISOString() ?? '',
      model_usage: { [inspectModel]: usage },
      role_usage: {},
      connection_limit_history: [],
    },
    error,
    invalidated: false,
    tags,
    metadata,
  });
}

/**
 * The model's stored score and interval as one Inspect score with metrics `score`, `ci_low`,
 * `ci_high`: Inspect's readers take the first metric as the headline (analysis
 * `score_headline_value`), so the score comes first. A withheld score has no metric at all
 * (unscored is not zero); why is in the score's metadata.
 */
function results(run: RunForExport, s: ModelSummaryForExport, totals: ModelTotals): NonNullable<InspectLogHeader['results']> {
  const metric = (name: string, value: number) => ({ name, value, params: {} });
  const metrics: Record<string, ReturnType<typeof metric>> = {};
  if (s.score !== null) metrics.score = metric('score', s.score);
  if (s.score !== null && s.interval) {
    metrics.ci_low = metric('ci_low', s.interval.low);
    metrics.ci_high = metric('ci_high', s.interval.high);
  }
  return {
    total_samples: totals.samples,
    completed_samples: totals.completed,
    scores: [
      {
        name: ASSAY_SCORER,
        scorer: ASSAY_SCORER,
        reducer: 'mean',
        scored_samples: s.attemptCount,
        unscored_samples: null,
        params: {},
        metrics,
        metadata: {
          interval: s.interval,
          withheld_reason: s.withheldReason,
          prompt_count: s.promptCount,
          error_verdicts: s.errorCount,
          // the stored score covers every prompt the run graded, the sealed ones too
          includes_sealed_prompts: run.sealedPrompts,
        },
      },
    ],
    metadata: null,
  };
}
