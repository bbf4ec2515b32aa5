/**
 * The normalised blueprint: the one type every other part of Assay reads.
 *
 * The parser (`parse.ts`) turns any accepted source form (Weval YAML/JSON, aliases,
 * `$fn` shorthands, `$ref`, nested alternative paths, judge questions, `correct:` trees)
 * into this shape. Everything downstream (scoring, runs, storage, pages, the CLI's
 * `--json`) reads only this shape, so a blueprint means one thing everywhere.
 */
import { z } from 'zod';
import { CorrectNodeSchema } from '../correct/schema';
import { JudgeQuestionSchema } from '../judging/questions';

/** Where a value was written, 1-based, for error messages and deep links into source. */
export const SourceLocSchema = z.object({ line: z.number().int(), col: z.number().int() });
export type SourceLoc = z.infer<typeof SourceLocSchema>;

export const MessageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  /** `null` on an assistant turn means "the model under test generates this turn". */
  content: z.string().nullable(),
});
export type Message = z.infer<typeof MessageSchema>;

const PointCommon = {
  /** Human-readable statement of the criterion (for functions: a rendering such as `contains "x"`). */
  text: z.string(),
  /** Relative weight (Weval's `multiplier`/`weight`), > 0. */
  weight: z.number().positive(),
  citation: z.string().nullable(),
  /** Alternative path id (`"should:0"`, `"should_not:1"`…) or null for a required point. */
  path: z.string().nullable(),
  source: z.enum(['should', 'should_not']),
  /** A failed gate makes the attempt's score 0 (seed 003). */
  gate: z.boolean(),
  loc: SourceLocSchema.nullable(),
};

export const TextPointSchema = z.object({ kind: z.literal('text'), ...PointCommon });
export const FunctionPointSchema = z.object({
  kind: z.literal('function'),
  ...PointCommon,
  /** Canonical registry name after alias resolution, e.g. `contains`, `not_matches`. */
  fn: z.string(),
  /** Arguments, already validated against the function's parameter schema. */
  args: z.unknown(),
});
export const QuestionPointSchema = z.object({
  kind: z.literal('question'),
  ...PointCommon,
  question: JudgeQuestionSchema,
});
export const CorrectPointSchema = z.object({
  kind: z.literal('correct'),
  ...PointCommon,
  check: CorrectNodeSchema,
});

export const PointSchema = z.discriminatedUnion('kind', [
  TextPointSchema,
  FunctionPointSchema,
  QuestionPointSchema,
  CorrectPointSchema,
]);
export type Point = z.infer<typeof PointSchema>;
export type TextPoint = z.infer<typeof TextPointSchema>;
export type FunctionPoint = z.infer<typeof FunctionPointSchema>;
export type QuestionPoint = z.infer<typeof QuestionPointSchema>;
export type CorrectPoint = z.infer<typeof CorrectPointSchema>;

export const PromptSchema = z.object({
  id: z.string(),
  /** Whether the id was written by the author or derived as a stable hash. */
  idSource: z.enum(['explicit', 'hash']),
  messages: z.array(MessageSchema).min(1),
  system: z.string().nullable(),
  ideal: z.string().nullable(),
  weight: z.number().positive(),
  citation: z.string().nullable(),
  description: z.string().nullable(),
  /** Flat list; alternative-path membership is in `point.path`. */
  points: z.array(PointSchema),
  /** Independent samples per model (seed 003 `repeats: k`). */
  repeats: z.number().int().positive(),
  status: z.enum(['active', 'draft', 'retired']),
  /** `test` prompts are sealed: run and scored, never shown publicly. */
  split: z.enum(['dev', 'test']),
  category: z.string().nullable(),
  tags: z.array(z.string()),
  render_as: z.enum(['markdown', 'html', 'plaintext']).nullable(),
  /** soev `expect` case fields, kept verbatim when present. */
  expect: z
    .object({
      behaviour: z.enum(['answer', 'refuse', 'abstain']).nullable(),
      nuggets: z.array(z.string()),
      sources: z.array(z.string()),
    })
    .nullable(),
  lineage: z.string().nullable(),
  variants: z.array(z.string()),
  loc: SourceLocSchema.nullable(),
});
export type Prompt = z.infer<typeof PromptSchema>;

/** A model entry: an id (`openrouter:openai/gpt-4o`), a collection name, or an HTTP endpoint. */
export const ModelRefSchema = z.union([
  z.object({ kind: z.literal('id'), id: z.string() }),
  z.object({ kind: z.literal('collection'), name: z.string() }),
  z.object({
    kind: z.literal('custom'),
    id: z.string(),
    /** The custom model object as written (endpoint, format, headers by env name, mapping…). */
    spec: z.record(z.string(), z.unknown()),
  }),
]);
export type ModelRef = z.infer<typeof ModelRefSchema>;

export const BlueprintSchema = z.object({
  id: z.string().nullable(),
  title: z.string(),
  description: z.string().nullable(),
  author: z.unknown().nullable(),
  references: z.array(z.unknown()),
  tags: z.array(z.string()),
  models: z.array(ModelRefSchema),
  /** System prompt variants (`system`/`systems`); `[null]` means "no system prompt". */
  systems: z.array(z.string().nullable()),
  temperatures: z.array(z.number()).nullable(),
  render_as: z.enum(['markdown', 'html', 'plaintext']).nullable(),
  tools: z.array(z.unknown()).nullable(),
  toolUse: z.unknown().nullable(),
  evaluationConfig: z.unknown().nullable(),
  prompts: z.array(PromptSchema),
});
export type Blueprint = z.infer<typeof BlueprintSchema>;
