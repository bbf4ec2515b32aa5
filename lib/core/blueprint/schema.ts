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
import { RetrievalBlockSchema } from '../retrieval/block';
import { CitationsConfigSchema } from '../criteria/citations/config';

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
  /** Human-readable statement of the criterion (for functions: a rendering such as `contains("x")`). */
  text: z.string(),
  /** Relative weight (Weval's `multiplier`/`weight`), > 0. */
  weight: z.number().positive(),
  citation: z.string().nullable(),
  /** Alternative path id (`"should:0"`, `"should_not:1"`…) or null for a required point. */
  path: z.string().nullable(),
  /**
   * Which block the point was written in. A `should_not` *function* point already carries the
   * negation in `fn` (`$contains` under should_not is stored as `not_contains`), so it is scored
   * like any function point. A `should_not` text/question point is judged for presence and
   * scored 1 − value (Weval's inversion).
   */
  source: z.enum(['should', 'should_not']),
  /** A failed gate makes the attempt's score 0. */
  gate: z.boolean(),
  loc: SourceLocSchema.nullable(),
};

export const TextPointSchema = z.object({ kind: z.literal('text'), ...PointCommon });
export const FunctionPointSchema = z.object({
  kind: z.literal('function'),
  ...PointCommon,
  /** Canonical registry name after alias resolution, e.g. `contains`, `not_matches`. */
  fn: z.string(),
  /** Arguments, already validated against the function's parameter schema (`undefined` for `$factcheck`-style zero-argument calls). */
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

/**
 * A soev criterion (`- kind: reply.language` in `should`, a prompt's `criteria:` or the header's
 * `defaults:`): a kind of the criterion registry (lib/core/criteria) with its parameters, already
 * validated by the kind's schema. Graded pass/fail (its share, where the kind has one, is kept
 * as the verdict's raw score), as soev scores it.
 */
export const CriterionPointSchema = z.object({
  kind: z.literal('criterion'),
  ...PointCommon,
  /** The kind's registry name, e.g. `reply.language`. */
  criterion: z.string(),
  params: z.unknown(),
});

export const PointSchema = z.discriminatedUnion('kind', [
  TextPointSchema,
  FunctionPointSchema,
  QuestionPointSchema,
  CorrectPointSchema,
  CriterionPointSchema,
]);
export type Point = z.infer<typeof PointSchema>;
export type TextPoint = z.infer<typeof TextPointSchema>;
export type FunctionPoint = z.infer<typeof FunctionPointSchema>;
export type QuestionPoint = z.infer<typeof QuestionPointSchema>;
export type CorrectPoint = z.infer<typeof CorrectPointSchema>;
export type CriterionPoint = z.infer<typeof CriterionPointSchema>;

/** A reference (`references`/`citations` in the header, an object `citation` on a prompt). */
export const ReferenceSchema = z.object({ title: z.string(), url: z.string().optional() });
export type Reference = z.infer<typeof ReferenceSchema>;

/** A fact the reply must cover (soev `Nugget`); only `vital` nuggets count towards coverage. */
export const NuggetSchema = z.object({
  text: z.string().min(1),
  importance: z.enum(['vital', 'okay']),
  sources: z.array(z.string()),
});
export type Nugget = z.infer<typeof NuggetSchema>;

/** soev `expect`: what the system must do and say, and which sources it may cite. */
export const ExpectSchema = z.object({
  behaviour: z.enum(['answer', 'refuse', 'abstain']),
  /** Key of a fixed message the reply must contain (soev `Expect.message`), or null. */
  message: z.string().nullable(),
  /** A reference answer for the judge, or null. */
  answer: z.string().nullable(),
  nuggets: z.array(NuggetSchema),
  sources: z.object({
    /** Groups of alternative sources by group name; citing one member covers the group. */
    required: z.record(z.string(), z.array(z.string())),
    supporting: z.array(z.string()),
    forbidden: z.array(z.string()),
  }),
});
export type Expect = z.infer<typeof ExpectSchema>;

/** soev `Answerability`: how well the sources cover the question (stored and validated, graded by no kind). */
export const AnswerabilitySchema = z.object({
  label: z.enum(['full', 'limited', 'not_regulated', 'unanswerable']),
  /** Why the coverage is limited: nonempty exactly when `label` is `limited`. */
  limitations: z.array(z.enum(['lower_regulation', 'parliamentary_history', 'case_law_or_guidance', 'fact_dependent'])),
  source_hints: z.array(z.string().min(1)),
  detail: z.string(),
  assessed_by: z.enum(['judge', 'expert']),
});
export type Answerability = z.infer<typeof AnswerabilitySchema>;

/** soev `Provenance`: who wrote and reviewed a case; carried with it, read by nothing. */
export const ProvenanceSchema = z.object({
  generator: z.string().nullable(),
  reviewer: z.string().nullable(),
  round: z.number().int().min(0).nullable(),
  notes: z.unknown(),
});
export type Provenance = z.infer<typeof ProvenanceSchema>;

/** Another wording of a prompt's conversation; consistency across variants is a criterion. */
export const VariantSchema = z.object({ name: z.string(), messages: z.array(MessageSchema).min(1) });
export type Variant = z.infer<typeof VariantSchema>;

export const RenderAsSchema = z.enum(['markdown', 'html', 'plaintext']);

/**
 * How judged points are put to the judges: `per-point` (the default: one call per point per
 * judge) or `batched` (every judged point of a reply in one call per judge, as lettered
 * questions; see lib/core/judging/batch-prompt.ts).
 */
export const JudgeModeSchema = z.enum(['per-point', 'batched']);
export type JudgeMode = z.infer<typeof JudgeModeSchema>;

export const PromptSchema = z.object({
  id: z.string(),
  /**
   * `explicit`: written by the author; `hash`: Weval's stable hash of the prompt's content;
   * `renamed`: a duplicate of an earlier id, given a `-2`, `-3`… suffix (reported as a warning).
   */
  idSource: z.enum(['explicit', 'hash', 'renamed']),
  messages: z.array(MessageSchema).min(1),
  /**
   * The prompt's own system prompt. Absent: use the blueprint's `system`. `null`: run this prompt
   * with no system prompt. Ignored when the blueprint lists `systems` variants (as in Weval);
   * use `systemPromptFor()` rather than reading this directly.
   */
  system: z.string().nullable().optional(),
  ideal: z.string().nullable(),
  /** Prompt importance in the blueprint's mean (Weval `weight`/`importance`/`multiplier`), 0.1–10. */
  weight: z.number().positive(),
  /** The prompt's source (`citation`/`reference`): its text, or the title of a `{title, url}` object. */
  citation: z.string().nullable(),
  /** The `url` of a `{title, url}` citation object, or null. */
  citationUrl: z.string().nullable(),
  description: z.string().nullable(),
  /** Flat list; alternative-path membership is in `point.path`. */
  points: z.array(PointSchema),
  /** Independent samples per model (`repeats: k`). */
  repeats: z.number().int().positive(),
  status: z.enum(['active', 'draft', 'retired']),
  /** `test` prompts are sealed: run and scored, never shown publicly. */
  split: z.enum(['dev', 'test']),
  category: z.string().nullable(),
  tags: z.array(z.string()),
  /** Effective rendering: the prompt's own, else the blueprint's, else `markdown` (Weval). */
  render_as: RenderAsSchema.nullable(),
  /** Bypass the response cache for this prompt (prompt's own, else the blueprint's), or null. */
  noCache: z.boolean().nullable(),
  /** The prompt's own `temperature` (Weval's per-prompt field): it runs at this one only. Absent or null: the blueprint's. */
  temperature: z.number().nullable().optional(),
  /**
   * Weval's tool-use fields (lib/core/blueprint/tool-fields.ts): tools the trace must contain,
   * tools it must not, and a cap on calls. Stored and shown, never graded (as in Weval); absent
   * when the prompt does not write them.
   */
  requiredTools: z.array(z.string()).optional(),
  prohibitedTools: z.array(z.string()).optional(),
  maxCalls: z.number().min(0).optional(),
  /** soev `expect` case fields, or null when the prompt has none. */
  expect: ExpectSchema.nullable(),
  lineage: z.string().nullable(),
  /** soev `rule`: the id of the rule the case tests (reports score per rule), or null. Versions stored before the field existed read as null. */
  rule: z.string().nullable().default(null),
  /** soev `derived_from`: the id of the case this one derives from (null for a lineage's root). */
  derived_from: z.string().nullable().default(null),
  answerability: AnswerabilitySchema.nullable().default(null),
  provenance: ProvenanceSchema.nullable().default(null),
  variants: z.array(VariantSchema),
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
  /** The header's `id`/`configId` as written, or null. Weval ignores it: the stored id is `blueprintIdFromPath(path)`. */
  id: z.string().nullable(),
  /** The header's `title`/`configTitle`, else the header id, else the file name. */
  title: z.string(),
  description: z.string().nullable(),
  /** A name, or `{ name, url?, image_url? }`. */
  author: z.union([z.string(), z.object({ name: z.string() }).loose()]).nullable(),
  references: z.array(ReferenceSchema),
  tags: z.array(z.string()),
  /** Empty when the header lists none (the platform's default set, Weval's `CORE`). */
  models: z.array(ModelRefSchema),
  /** The system prompt of every prompt that does not set its own (`system`/`systemPrompt`), or null. */
  system: z.string().nullable(),
  /**
   * System-prompt variants (`systems`, or `system` written as a list): each runs as its own
   * model variant and replaces every prompt's system prompt; `null` in the list = none. Empty
   * when the blueprint has no variants. See `systemPromptsToRun()` / `systemPromptFor()`.
   */
  systems: z.array(z.string().nullable()),
  /** A single temperature (`temperature`), or null for the provider default. */
  temperature: z.number().nullable(),
  /** Temperature variants (`temperatures`), or null; when non-empty they replace `temperature`. */
  temperatures: z.array(z.number()).nullable(),
  render_as: RenderAsSchema.nullable(),
  tools: z.array(z.unknown()).nullable(),
  toolUse: z.unknown().nullable(),
  evaluationConfig: z.unknown().nullable(),
  /** Reusable point definitions (`point_defs`/`defs`) as written; `$ref` points are already expanded. */
  point_defs: z.record(z.string(), z.unknown()).nullable(),
  /** Generation concurrency asked for by the blueprint, or null. */
  concurrency: z.number().int().positive().nullable(),
  /** The blueprint-wide `noCache` default, or null. */
  noCache: z.boolean().nullable(),
  /**
   * `pass_threshold`: an attempt whose score is at least this (0–1) passes, for pass@k and
   * pass^k; null when the blueprint sets none (no pass statistics). Versions stored before the
   * field existed read as null.
   */
  pass_threshold: z.number().min(0).max(1).nullable().default(null),
  /**
   * `judge_mode` from the header, else `evaluationConfig['llm-coverage'].judge_mode` (the judge
   * set's), else null (per-point). Versions stored before the field existed read as null.
   */
  judge_mode: JudgeModeSchema.nullable().default(null),
  /**
   * The `retrieval:` block (`retrieval_config`): a retrieval blueprint scores embedding models
   * over a corpus instead of grading replies, and has no prompts. Null for every other
   * blueprint, and for versions stored before the field existed.
   */
  retrieval: RetrievalBlockSchema.nullable().default(null),
  /**
   * `citations:` written as a reading rule (soev's CitationMapping, or a pattern over plain
   * replies): how the run reads cited source ids from each reply. Null when the header has none
   * (a `citations:` list is Weval's references, above).
   */
  citation_reading: CitationsConfigSchema.nullable().default(null),
  /** `messages:` in the header: the system's fixed messages by key (soev `Project.messages`), for behaviour.message and refusal.code. */
  messages: z.record(z.string(), z.string()).default({}),
  /**
   * `corpus:` (soev's corpus lookup): a JSONL file of `{id, text}` lines, its path relative to the
   * blueprint file (read by the server when a run starts), and other names of each law by law id.
   */
  corpus: z
    .object({ path: z.string().min(1), law_names: z.record(z.string(), z.array(z.string())) })
    .nullable()
    .default(null),
  /** Header fields Assay keeps verbatim without interpreting them (Weval passes every header field through). */
  extensions: z.record(z.string(), z.unknown()),
  /** The header's keys as written, in order: which spelling was used (`system` vs `systems`…), for export and diagnostics. */
  headerKeys: z.array(z.string()),
  prompts: z.array(PromptSchema),
});
export type Blueprint = z.infer<typeof BlueprintSchema>;
