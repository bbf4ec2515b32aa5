/**
 * The tables a run is exported as (JSONL or CSV, `assay export` and the run page's Download
 * links): one row per reply, per verdict, per attempt score. Each table is one zod object: its
 * keys in order are the columns, each `.describe()` is the column's entry in the dictionary
 * (docs/exports.md is generated from these), and a test reads exported files back through the
 * same schemas. Names are snake_case and stable: a column may be added, never renamed or
 * dropped, so a notebook written against one export reads the next.
 *
 * JSON columns (turns, distributions, judge records) are nested values in JSONL and JSON text
 * in CSV. A number the pages show (a model's score and interval) is not here: those are the
 * run's summaries, served by the read API; these are the raw records behind them.
 */
import { z } from 'zod';

const json = (what: string) => z.unknown().describe(`${what} (JSON: nested in JSONL, JSON text in CSV)`);
const when = (what: string) => z.string().describe(`${what} (ISO 8601, UTC)`);

/** Columns every table starts with: the cell and attempt a row belongs to. */
const cell = {
  run_id: z.string().describe('The run (in replies: the run that made the reply; a rescore re-grades its parent run\'s replies)'),
  reply_id: z.string().describe('The reply (one model answering one prompt once): joins the three tables'),
  prompt_key: z.string().describe("The prompt's id in the blueprint"),
  model_id: z.string().describe('The model as the blueprint names it (provider:model, with #variant)'),
  system_index: z.number().int().describe('Which of the blueprint\'s system prompts (0 when it has one)'),
  temperature_index: z.number().int().describe('Which of the blueprint\'s temperatures (0 when it has one)'),
  attempt: z.number().int().describe('Which repetition of the same prompt × model (0-based)'),
};

export const ExportReplyRowSchema = z.object({
  ...cell,
  temperature: z.number().nullable().describe('The temperature sent, when one was'),
  content: z.string().describe('The final assistant text: what the points grade'),
  turns: json('The whole conversation, generated turns included: [{role, content}]'),
  tool_calls: json('Tool calls the model made, when any'),
  finish_reason: z.string().nullable().describe("The provider's finish reason (stop, length, tool_calls…)"),
  refusal: z.string().nullable().describe("The provider's own refusal signal, when it marked the reply as one"),
  prompt_tokens: z.number().int().nullable().describe('Input tokens the provider counted'),
  completion_tokens: z.number().int().nullable().describe('Output tokens the provider counted'),
  latency_ms: z.number().int().nullable().describe('Time to the whole reply, in ms'),
  cost_usd: z.number().nullable().describe("The call's cost in US dollars; empty when the model has no known price"),
  from_cache: z.boolean().describe("Answered from Assay's response cache, not by a new call"),
  served_model: z.string().nullable().describe("The model the provider says answered (its response's model field)"),
  system_fingerprint: z.string().nullable().describe("OpenAI-compatible system_fingerprint"),
  error: z.string().nullable().describe('Why the model gave no reply after retries (the reply is then not graded)'),
  error_kind: z.string().nullable().describe('The kind of that error (rate_limited, timeout, bad_request, auth, quota, blocked, unstorable…)'),
  created_at: when('When the reply was stored'),
});

export const ExportVerdictRowSchema = z.object({
  ...cell,
  verdict_id: z.string().describe('The verdict'),
  point_index: z.number().int().describe("The point's position in the prompt (0-based)"),
  source: z.string().describe('should or should_not (a should_not point is inverted before scoring)'),
  kind: z.string().describe('text (judged), function, question, correct or a criterion kind'),
  point_text: z.string().describe('The point as written (a judged point\'s text, a function call)'),
  fn: z.string().nullable().describe('The point function that graded it, when one did'),
  args: json("That function's arguments"),
  weight: z.number().describe("The point's weight in the prompt's score"),
  gate: z.boolean().describe('A gate: failing it makes the attempt score 0'),
  path: z.string().nullable().describe('An alternative path the point belongs to (best path counts)'),
  status: z.enum(['pass', 'fail', 'not_applicable', 'error']).describe('pass, fail, not_applicable or error'),
  score: z.number().nullable().describe('0–1; empty for not_applicable and error'),
  method: z.string().nullable().describe('How it was graded: logprobs or samples (judges), function, check'),
  distribution: json("The judges' probabilities over the answer labels, where judged"),
  judges: json("Each judge's record for a panel: [{judge, score, distribution, reasoning, error}]"),
  spread: z.number().nullable().describe("The panel's spread (max − min judge score)"),
  disagreement: z.boolean().describe('The panel disagreed past its threshold'),
  reasoning: z.string().nullable().describe("The judges' reasoning"),
  detail: z.string().nullable().describe("A function's or check's explanation, or why the verdict is an error"),
  regex_engine: z.string().nullable().describe('For regex points: re2 (linear time) or sandbox'),
  data: json("A criterion's facts behind the verdict (matched ids, sentences…)"),
  served_model: z.string().nullable().describe('The model the provider says answered the reply'),
  reply_cost_usd: z.number().nullable().describe("The graded reply's call cost in US dollars"),
  created_at: when('When the verdict was stored'),
});

export const ExportAttemptRowSchema = z.object({
  ...cell,
  score: z.number().nullable().describe("The attempt's score, 0–1 (weighted mean of its points, best path, gates applied); empty when every point errored"),
  error_count: z.number().int().describe('Verdicts of the attempt that are errors'),
  gate_failed: z.boolean().describe('A gate point failed: the score is 0'),
  no_applicable: z.boolean().describe('No point applied: the score is 1 by rule'),
  passed: z.boolean().nullable().describe('Every criterion passed or did not apply (criteria prompts); empty otherwise'),
});

export const EXPORT_TABLES = {
  replies: ExportReplyRowSchema,
  verdicts: ExportVerdictRowSchema,
  attempts: ExportAttemptRowSchema,
} as const;

export const ExportTableSchema = z.enum(['replies', 'verdicts', 'attempts']);
export type ExportTable = z.infer<typeof ExportTableSchema>;
export const ExportFormatSchema = z.enum(['jsonl', 'csv']);
export type ExportFormat = z.infer<typeof ExportFormatSchema>;

export type ExportRow<T extends ExportTable> = z.infer<(typeof EXPORT_TABLES)[T]>;

export interface ExportColumn {
  name: string;
  /** What a reader finds in the column: string, integer, number, boolean, enum, json or timestamp. */
  type: string;
  nullable: boolean;
  description: string;
}

/** A table's columns in order, with their types and descriptions (the dictionary). */
export function exportColumns(table: ExportTable): ExportColumn[] {
  return Object.entries(EXPORT_TABLES[table].shape).map(([name, schema]) => ({ name, ...columnType(schema as z.ZodType), description: (schema as z.ZodType).description ?? '' }));
}

function columnType(schema: z.ZodType): { type: string; nullable: boolean } {
  const nullable = schema.safeParse(null).success;
  const inner = schema instanceof z.ZodNullable ? (schema.unwrap() as z.ZodType) : schema;
  if (inner instanceof z.ZodUnknown) return { type: 'json', nullable: true };
  if (inner instanceof z.ZodEnum) return { type: `enum (${inner.options.join(', ')})`, nullable };
  if (inner instanceof z.ZodBoolean) return { type: 'boolean', nullable };
  if (inner instanceof z.ZodNumber) return { type: inner.format === 'safeint' ? 'integer' : 'number', nullable };
  if (inner instanceof z.ZodString) return { type: (inner.description ?? '').includes('ISO 8601') ? 'timestamp' : 'string', nullable };
  return { type: 'string', nullable };
}
