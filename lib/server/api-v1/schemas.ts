/**
 * The answers of the public API (`/api/v1`), one zod schema each: the route validates what it
 * sends against it, and the OpenAPI document (openapi.ts) is generated from it, so the document
 * cannot describe a field the API does not send, nor miss one it does.
 *
 * Field names are snake_case and never change within v1: a new field may be added, none renamed
 * or removed. Scores are fractions (0–1) as stored, never the rounded "out of 100" a page prints;
 * timestamps are ISO 8601 in UTC; money is USD.
 *
 * These schemas are the API's own and not the core's: a core schema may be renamed inside Assay
 * without the public names moving with it.
 */
import { z } from 'zod';
import { BoardIntervalMethodSchema, IntervalMethodSchema, RunStatusSchema } from '@/lib/core';

const Score = z.number().min(0).max(1);
const Timestamp = z.iso.datetime({ offset: false });
const Count = z.number().int().nonnegative();

/** Every paged list: the page's items and the cursor of the next page, null on the last. */
export const PageFields = {
  next_cursor: z.string().nullable().describe('Pass as `cursor` to read the next page; null on the last page.'),
};

export const CoverageSchema = z
  .object({
    judged_verdicts: Count.describe('Judged verdicts planned (plain-language and question points).'),
    judged_scored: Count.describe('Judged verdicts that got an answer from the judges.'),
    deterministic_verdicts: Count.describe('Deterministic verdicts planned (functions and `correct:` checks).'),
    deterministic_scored: Count.describe('Deterministic verdicts that got a result.'),
  })
  .describe('How many planned verdicts got a result: a score rests only on those.');

export const IntervalSchema = z
  .object({
    low: z.number(),
    high: z.number(),
    level: z.number().gt(0).lt(1).describe('Confidence level, e.g. 0.95.'),
    method: IntervalMethodSchema,
    n: Count.describe('Observations the interval rests on (attempts).'),
    clusters: Count.describe('Independent units resampled or clustered on (prompts).'),
    resamples: z.number().int().positive().nullable().describe('Bootstrap resamples; null for closed-form methods.'),
  })
  .describe('The stored interval of a score, with how it was made.');

export const BandSchema = z
  .object({ best: z.number().int().positive(), worst: z.number().int().positive() })
  .describe('The ranks a model is statistically tied over (paired tests, Holm-corrected at 0.05).');

// ───────────── the leaderboard ─────────────

const BoardEntryFields = {
  model_id: z.string(),
  display_name: z.string().nullable(),
  score: Score.nullable().describe('Mean over the blueprints the model scored on; null when none did.'),
  ci_low: Score.nullable(),
  ci_high: Score.nullable(),
  interval_method: BoardIntervalMethodSchema.nullable(),
  interval_prompts: Count.nullable().describe('The scored prompts the interval rests on; null for the combined method.'),
  blueprints: Count.describe('Blueprints the model has a result on.'),
  scored_blueprints: Count.describe('Of those, the blueprints where it scored.'),
  errors: Count.describe('Failed replies or verdicts behind the scores.'),
  coverage: CoverageSchema,
  cost_per_prompt_usd: z.number().nonnegative().nullable(),
  latency_ms_p50: z.number().nonnegative().nullable(),
};

export const RankedEntrySchema = z.object({
  rank: z.number().int().positive().nullable().describe('Competition rank on the score as the pages round it (1, 2, 2, 4).'),
  band: BandSchema.nullable(),
  ...BoardEntryFields,
});

export const LeaderboardAnswer = z
  .object({
    tag: z.string().nullable().describe('The tag whose blueprints the board covers; null for the overall board.'),
    blueprint_count: Count,
    min_coverage: z.number().min(0).max(1).describe('The share of the blueprints a model needs a score on to be ranked.'),
    required_blueprints: Count,
    ranked: z.array(RankedEntrySchema).describe('Models at or over the required coverage, best first.'),
    unranked: z.array(z.object(BoardEntryFields)).describe('Models under the required coverage: listed, never ranked.'),
  })
  .describe('A leaderboard as the home page shows it: the stored board, made once from the stored per-blueprint results.');

// ───────────── blueprints ─────────────

export const BlueprintItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  tags: z.array(z.string()),
  prompt_count: Count.describe('Prompts in the latest version, sealed ones included (they are counted, never shown).'),
  retrieval: z.object({ queries: Count, documents: Count }).nullable().describe('A retrieval blueprint’s data; null for a chat blueprint.'),
  valid: z.boolean().describe('Whether the latest version parsed without errors.'),
  error_count: Count,
  updated_at: Timestamp,
});

export const BlueprintListAnswer = z.object({ items: z.array(BlueprintItemSchema), ...PageFields }).describe('Live blueprints by title, then id.');

export const BlueprintVersionSchema = z.object({
  id: z.string(),
  content_hash: z.string().describe('sha256 of the file’s text: one version per distinct content.'),
  source_commit: z.string().nullable(),
  path: z.string(),
  valid: z.boolean(),
  prompt_count: Count,
  created_at: Timestamp,
});

export const BlueprintRunSchema = z.object({
  id: z.string(),
  status: RunStatusSchema,
  trigger: z.string(),
  version_id: z.string(),
  source_commit: z.string().nullable(),
  created_at: Timestamp,
  finished_at: Timestamp.nullable(),
});

export const BlueprintAnswer = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  tags: z.array(z.string()),
  path: z.string(),
  removed: z.boolean().describe('No longer at the source’s head; its runs stay readable.'),
  source: z.object({ kind: z.string(), owner: z.string().nullable(), repo: z.string().nullable(), branch: z.string().nullable() }),
  latest_version: z
    .object({
      id: z.string(),
      valid: z.boolean(),
      validation_error_count: Count,
      source_commit: z.string().nullable(),
      created_at: Timestamp,
      visible_prompt_count: Count,
      sealed_prompt_count: Count.describe('Held-out prompts: scored, never shown.'),
    })
    .nullable(),
  versions: z.array(BlueprintVersionSchema).describe('Newest first, at most 100.'),
  runs: z.array(BlueprintRunSchema).describe('Newest first, at most 30.'),
  latest_completed_run_id: z.string().nullable(),
});

// ───────────── runs ─────────────

export const RunModelResultSchema = z.object({
  rank: z.number().int().positive().nullable().describe('Competition rank in this run (1, 2, 2, 4); null without a score.'),
  model_id: z.string(),
  display_name: z.string().nullable(),
  score: Score.nullable().describe('Prompt-weighted mean score; null when withheld or nothing scored.'),
  ci_low: Score.nullable(),
  ci_high: Score.nullable(),
  interval: IntervalSchema.nullable(),
  withheld_reason: z.string().nullable().describe('Why the score is withheld (too little coverage); null when it is not.'),
  prompt_count: Count,
  reply_count: Count,
  verdict_count: Count,
  error_count: Count,
  coverage: CoverageSchema,
  cost_usd: z.number().nonnegative().describe('What the priced calls cost.'),
  cost_complete: z.boolean().describe('False when some calls had no known price: `cost_usd` then leaves them out.'),
  latency_ms_p50: z.number().nonnegative().nullable(),
});

export const RunAnswer = z.object({
  id: z.string(),
  kind: z.string().describe('chat or retrieval.'),
  status: RunStatusSchema,
  trigger: z.string(),
  blueprint: z.object({ id: z.string(), title: z.string() }),
  version: z.object({ id: z.string(), source_commit: z.string().nullable() }),
  parent_run_id: z.string().nullable().describe('The run this one re-graded (a rescore); null otherwise.'),
  models: z.array(z.string()),
  judges: z.array(z.string()),
  counts: z.object({
    total_calls: Count,
    done_calls: Count,
    error_calls: Count,
    total_verdicts: Count,
    done_verdicts: Count,
    error_verdicts: Count,
  }),
  coverage: CoverageSchema,
  cost_usd: z.number().nonnegative(),
  unpriced_models: z.array(z.string()).describe('Models called at a price nobody knows: their calls are not in `cost_usd`.'),
  created_at: Timestamp,
  started_at: Timestamp.nullable(),
  finished_at: Timestamp.nullable(),
  results: z.array(RunModelResultSchema).describe('One stored summary per model, best first.'),
});

export const RunPromptCellSchema = z.object({
  model_id: z.string(),
  score: Score.nullable().describe('The cell’s stored score (its attempts reduced); null when nothing scored.'),
  attempts: Count,
  error_count: Count,
  gate_failed: z.boolean().describe('An attempt failed a gate (scored 0 whatever its other points).'),
});

export const RunPromptSchema = z.object({
  prompt_key: z.string(),
  position: Count,
  weight: z.number(),
  snippet: z.string().describe('The first user turn, cut to 160 characters.'),
  cells: z.array(RunPromptCellSchema).describe('One per model, by model id.'),
});

export const RunPromptsAnswer = z.object({
  run_id: z.string(),
  run_status: RunStatusSchema.describe('The run’s status: a completed run’s list is final.'),
  total: Count.describe('Visible prompts with results in this run.'),
  sealed_count: Count.describe('Sealed prompts scored in this run: counted, never listed.'),
  items: z.array(RunPromptSchema),
  ...PageFields,
});

const ComparedRunSchema = z.object({ id: z.string(), status: RunStatusSchema, created_at: Timestamp });

export const RunComparisonAnswer = z
  .object({
    blueprint_id: z.string(),
    older: ComparedRunSchema,
    newer: ComparedRunSchema,
    models: z
      .array(
        z.object({
          model_id: z.string(),
          paired: Count.describe('Prompts both runs scored for the model (sealed ones included).'),
          older_score: Score.nullable().describe('The older run’s stored score for the model.'),
          newer_score: Score.nullable().describe('The newer run’s stored score for the model.'),
          difference: z.number().nullable().describe('Newer − older over the paired prompts, prompt-weighted; > 0: the newer run scored higher.'),
          from_drift_check: z.boolean().describe('The difference is the stored drift check’s between these two runs.'),
          better: Count,
          worse: Count,
          same: Count,
        }),
      )
      .describe('The models both runs have.'),
    moved_cells: z
      .array(z.object({ prompt_key: z.string(), model_id: z.string(), older_score: Score.nullable(), newer_score: Score.nullable(), delta: z.number() }))
      .describe('The visible cells that moved most (at most 30), largest change first.'),
    unchanged_cells: Count.describe('Visible cells scored the same in both runs: counted, not listed.'),
    models_only_in_older: Count,
    models_only_in_newer: Count,
  })
  .describe('Two runs of one blueprint compared, as the compare page shows them (stored once both are finished).');

// ───────────── models ─────────────

export const ModelBlueprintSchema = z.object({
  blueprint_id: z.string(),
  blueprint_title: z.string(),
  tags: z.array(z.string()),
  run_id: z.string().describe('The blueprint’s latest completed run in which the model scored.'),
  score: Score.nullable(),
  ci_low: Score.nullable(),
  ci_high: Score.nullable(),
  error_count: Count,
  coverage: CoverageSchema,
  cost_usd: z.number().nonnegative().nullable().describe('That run’s cost for the model; null when unknown.'),
  prompt_count: Count.nullable(),
  latency_ms_p50: z.number().nonnegative().nullable(),
});

export const BoardPlaceSchema = z.object({
  tag: z.string().nullable().describe('null: the overall board.'),
  ranked: z.boolean(),
  ...RankedEntrySchema.omit({ model_id: true, display_name: true }).shape,
});

export const ModelAnswer = z.object({
  model_id: z.string(),
  display_name: z.string().nullable(),
  provider: z.string().nullable(),
  boards: z.array(BoardPlaceSchema).describe('The model’s place on the overall board and on each tag’s board it is on.'),
  blueprints: z.array(ModelBlueprintSchema).describe('Its result on each live blueprint, by blueprint id.'),
  history: z
    .array(
      z.object({
        run_id: z.string(),
        blueprint_id: z.string(),
        blueprint_title: z.string(),
        created_at: Timestamp,
        score: Score.nullable(),
        ci_low: Score.nullable(),
        ci_high: Score.nullable(),
        error_count: Count,
      }),
    )
    .describe('Its score in each completed run, newest first, at most 200.'),
});

// ───────────── errors ─────────────

export const ErrorAnswer = z.object({
  error: z.object({ code: z.string(), message: z.string().describe('What went wrong and how to fix the request.'), details: z.unknown().optional() }),
});

// ───────────── drift checks ─────────────

export const DriftCheckSchema = z.strictObject({
  id: z.string(),
  blueprint_id: z.string(),
  blueprint_title: z.string(),
  model_id: z.string(),
  from_run_id: z.string().describe('The earlier scheduled run.'),
  from_run_at: Timestamp,
  to_run_id: z.string().describe('The later scheduled run, of the same blueprint version.'),
  to_run_at: Timestamp,
  paired: Count.describe('Prompts both runs scored, the difference rests on (sealed ones included, never named).'),
  difference: z.number().nullable().describe('Mean score change over the paired prompts (later − earlier), on the 0–1 scale.'),
  ci_low: z.number().nullable(),
  ci_high: z.number().nullable(),
  mde: z.number().nullable().describe('The blueprint’s minimum detectable effect the change is held against.'),
  flagged: z.boolean().describe('The 95% interval excludes zero and reaches the MDE.'),
  reason: z.string().describe('Why the check is (or is not) flagged, in words.'),
  served_model_before: z.string().nullable(),
  served_model_after: z.string().nullable(),
  fingerprint_before: z.string().nullable(),
  fingerprint_after: z.string().nullable(),
  served_changed: z.boolean().describe('The provider reported another model or fingerprint between the runs.'),
  moved: z.array(z.strictObject({ prompt_key: z.string(), before: z.number(), after: z.number(), delta: z.number() })).describe('The visible prompts that moved most.'),
  created_at: Timestamp,
});

export const DriftListAnswer = z.strictObject({
  total: Count.describe('Drift checks stored, whatever the filters.'),
  flagged: Count.describe('Of those, the flagged ones.'),
  items: z.array(DriftCheckSchema),
  ...PageFields,
});

// ───────────── the retrieval leaderboard ─────────────

export const RetrievalBoardAnswer = z
  .object({
    tag: z.string().nullable(),
    models: z.array(
      z.object({
        model_id: z.string(),
        rank: z.number().int().positive(),
        mean: z.number().nullable().describe('Mean of the primary metrics over the blueprints with a value; the board’s order.'),
        results: z.array(
          z.object({
            blueprint_id: z.string(),
            blueprint_title: z.string(),
            run_id: z.string().describe('The blueprint’s latest completed run that scored the model.'),
            metric: z.string().describe('The blueprint’s primary metric (trec_eval’s name).'),
            value: z.number().nullable().describe('0–1.'),
            interval: IntervalSchema.nullable().describe('Over queries, as stored.'),
            model_status: z.enum(['pass', 'warn', 'fail']).nullable().describe('The model’s status on that run over every metric the blueprint sets a minimum for.'),
            finished_at: Timestamp.nullable(),
          }),
        ),
      }),
    ),
  })
  .describe('Embedding models on the retrieval blueprints, as the home page’s retrieval board shows them.');
