/**
 * The part of Inspect's `EvalLog` that Assay writes, as zod schemas (the types are inferred from
 * them). Field names and shapes follow Inspect's own pydantic models (inspect_ai
 * `log/_log.py`, `model/_model_output.py`, `model/_chat_message.py`, `scorer/_metric.py`); the
 * complete published definition is `eval-log.schema.json` beside this file, and the database
 * test validates every written file against it. A field Inspect has but Assay never fills is
 * left out here (docs/inspect-export.md says which, and why).
 */
import { z } from 'zod';

const Metadata = z.record(z.string(), z.unknown());

/** Token counts as Inspect's `ModelUsage`. */
export const InspectModelUsageSchema = z.object({
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  total_tokens: z.number().int(),
  total_cost: z.number().nullable().optional(),
});
export type InspectModelUsage = z.infer<typeof InspectModelUsageSchema>;

export const InspectContentTextSchema = z.object({ type: z.literal('text'), text: z.string(), refusal: z.boolean().nullable().optional() });

export const InspectToolCallSchema = z.object({
  id: z.string(),
  function: z.string(),
  arguments: Metadata,
  type: z.literal('function'),
  /** Inspect's place for arguments that were not a JSON object (kept verbatim here). */
  parse_error: z.string().nullable().optional(),
});

export const InspectMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({
    role: z.literal('assistant'),
    content: z.union([z.string(), z.array(InspectContentTextSchema)]),
    model: z.string().nullable().optional(),
    source: z.enum(['input', 'generate']).nullable().optional(),
    tool_calls: z.array(InspectToolCallSchema).nullable().optional(),
  }),
]);
export type InspectMessage = z.infer<typeof InspectMessageSchema>;
export type InspectAssistantMessage = Extract<InspectMessage, { role: 'assistant' }>;

/** Inspect's `StopReason` values. */
export const InspectStopReasonSchema = z.enum(['stop', 'max_tokens', 'model_length', 'tool_calls', 'content_filter', 'unknown']);
export type InspectStopReason = z.infer<typeof InspectStopReasonSchema>;

export const InspectModelOutputSchema = z.object({
  model: z.string(),
  choices: z.array(z.object({ message: InspectMessageSchema, stop_reason: InspectStopReasonSchema })),
  completion: z.string(),
  usage: InspectModelUsageSchema.nullable(),
  time: z.number().nullable(),
  error: z.string().nullable(),
  metadata: Metadata.nullable(),
});

/** Inspect's `Value`: a number, a string, a boolean (or lists and maps of them, which Assay does not write). */
export const InspectScoreSchema = z.object({
  value: z.union([z.number(), z.string(), z.boolean()]),
  answer: z.string().nullable(),
  explanation: z.string().nullable(),
  metadata: Metadata.nullable(),
  history: z.array(z.never()),
});
export type InspectScore = z.infer<typeof InspectScoreSchema>;

export const InspectErrorSchema = z.object({ message: z.string(), traceback: z.string(), traceback_ansi: z.string() });
export type InspectError = z.infer<typeof InspectErrorSchema>;

export const InspectSampleSchema = z.object({
  id: z.string(),
  epoch: z.number().int().min(1),
  input: z.union([z.string(), z.array(InspectMessageSchema)]),
  target: z.union([z.string(), z.array(z.string())]),
  messages: z.array(InspectMessageSchema),
  output: InspectModelOutputSchema,
  scores: z.record(z.string(), InspectScoreSchema).nullable(),
  metadata: Metadata,
  store: Metadata,
  events: z.array(z.never()),
  model_usage: z.record(z.string(), InspectModelUsageSchema),
  role_usage: z.record(z.string(), InspectModelUsageSchema),
  attachments: z.record(z.string(), z.string()),
  completed_at: z.string().nullable(),
  total_time: z.number().nullable(),
  uuid: z.string(),
  error: InspectErrorSchema.nullable(),
});
export type InspectSample = z.infer<typeof InspectSampleSchema>;

export const InspectEvalMetricSchema = z.object({ name: z.string(), value: z.number(), params: Metadata, metadata: Metadata.nullable().optional() });

export const InspectEvalScoreSchema = z.object({
  name: z.string(),
  scorer: z.string(),
  reducer: z.string().nullable(),
  scored_samples: z.number().int().nullable(),
  unscored_samples: z.number().int().nullable(),
  params: Metadata,
  metrics: z.record(z.string(), InspectEvalMetricSchema),
  metadata: Metadata.nullable(),
});

export const InspectEvalSpecSchema = z.object({
  eval_id: z.string(),
  run_id: z.string(),
  created: z.string(),
  task: z.string(),
  task_id: z.string(),
  task_version: z.union([z.number().int(), z.string()]),
  task_display_name: z.string().nullable(),
  task_attribs: Metadata,
  task_args: Metadata,
  task_args_passed: Metadata,
  solver: z.string().nullable(),
  tags: z.array(z.string()).nullable(),
  dataset: z.object({ name: z.string().nullable(), location: z.string().nullable(), samples: z.number().int().nullable(), shuffled: z.boolean().nullable() }),
  model: z.string(),
  model_generate_config: Metadata,
  model_args: Metadata,
  config: z.object({ epochs: z.number().int().nullable(), epochs_reducer: z.array(z.string()).nullable() }),
  revision: z.object({ type: z.literal('git'), origin: z.string(), commit: z.string() }).nullable(),
  packages: z.record(z.string(), z.string()),
  metadata: Metadata.nullable(),
  scorers: z.array(z.object({ name: z.string(), options: Metadata.nullable(), metadata: Metadata.nullable() })).nullable(),
});
export type InspectEvalSpec = z.infer<typeof InspectEvalSpecSchema>;

/** Everything of an `EvalLog` but its samples, in the order Inspect writes the keys (samples come last, streamed). */
export const InspectLogHeaderSchema = z.object({
  version: z.literal(2),
  status: z.enum(['started', 'success', 'cancelled', 'error']),
  eval: InspectEvalSpecSchema,
  plan: z.object({ name: z.string(), steps: z.array(z.object({ solver: z.string(), params: Metadata, params_passed: Metadata })), config: Metadata }),
  results: z
    .object({
      total_samples: z.number().int(),
      completed_samples: z.number().int(),
      scores: z.array(InspectEvalScoreSchema),
      metadata: Metadata.nullable(),
    })
    .nullable(),
  stats: z.object({
    started_at: z.string(),
    completed_at: z.string(),
    model_usage: z.record(z.string(), InspectModelUsageSchema),
    role_usage: z.record(z.string(), InspectModelUsageSchema),
    connection_limit_history: z.array(z.never()),
  }),
  error: InspectErrorSchema.nullable(),
  invalidated: z.boolean(),
  tags: z.array(z.string()),
  metadata: Metadata,
});
export type InspectLogHeader = z.infer<typeof InspectLogHeaderSchema>;
