/**
 * `assay check`: grades one point against one reply, for authors trying a criterion before
 * putting it in a blueprint. The point is read exactly as an item of a `should:` list
 * (`parsePointSource`) and graded by the same code a run uses (`evaluateDeterministicPoint`),
 * with `$js` in the wasm sandbox. Points that need an LLM judge are not judged here: they
 * answer `error` with "needs a judge", so a check never spends money.
 *
 * `--jsonl` streams: one input line {"point", "response", "messages"?, "tool_calls"?, "model"?}
 * → one output line {"status", "score", "detail"}, in order; a bad line answers an error line
 * and the stream goes on.
 */
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { createQuickJsSandbox, evaluateDeterministicPoint, ExpectSchema, mayUseSandbox, MessageSchema, parsePointSource, type BlueprintIssue, type Point, type QuickJsSandbox } from '@/lib/core';
import { parseCommandArgs, usageError } from './usage';

const USAGE = `usage: assay check --point POINT --response TEXT [--messages JSON] [--tool-calls JSON] [--model ID] [--json]
       assay check --jsonl < checks.jsonl

Grades one point, written as in a blueprint's should: list, against one reply.
  --point POINT       e.g. '$contains: deadline', '$js: "r.length < 200"', 'Mentions the deadline'
  --response TEXT     the reply to grade
  --messages JSON     the conversation before the reply: [{"role": "user", "content": "…"}]
  --tool-calls JSON   the reply's tool calls: [{"name": "search", "arguments": {…}}]
  --model ID          the model id, for $js (context.modelId) and $call
  --citations JSON    for a criterion (- kind: citations.*): the ids the reply cites, ["law/awb/6/7", …]
  --expect JSON       for a criterion: the case's expect, {"sources": {"required": {"awb": ["law/awb/6"]}, "forbidden": […]}}
  --json              print the verdict as one JSON line {status, score, detail}
  --jsonl             read {"point", "response", "messages"?, "tool_calls"?, "model"?} lines from
                      standard input ("point" a YAML string or a JSON value) and write one
                      {status, score, detail} line per input line, in order
A soev criterion is written as in a blueprint: '{kind: reply.language, language: nl}'.
LLM-judged points (plain criteria, noul/score/choice, judged kinds) are not judged here: status error, "needs a judge".
Exit status: 0 when the check ran (whatever the verdict), 2 on usage errors or an invalid point.`;

export interface CheckOutcome {
  status: 'pass' | 'fail' | 'not_applicable' | 'error';
  score: number | null;
  detail: string;
}

interface Reply {
  response: string | null;
  messages?: z.infer<typeof MessageSchema>[];
  toolCalls?: unknown[] | null;
  model?: string;
  citations?: string[];
  expect?: z.infer<typeof ExpectSchema>;
}

const MessagesSchema = z.array(MessageSchema);
const ToolCallsSchema = z.array(z.unknown()).nullable();
const CitationsSchema = z.array(z.string().min(1));
/** soev's expect as written, every field optional (the blueprint's own defaults). */
const CheckExpectSchema = z
  .object({
    behaviour: ExpectSchema.shape.behaviour.default('answer'),
    message: z.string().nullable().default(null),
    answer: z.string().nullable().default(null),
    nuggets: ExpectSchema.shape.nuggets.default([]),
    sources: z
      .object({ required: z.record(z.string(), z.array(z.string())).default({}), supporting: z.array(z.string()).default([]), forbidden: z.array(z.string()).default([]) })
      .strict()
      .default({ required: {}, supporting: [], forbidden: [] }),
  })
  .strict();

const LineSchema = z.object({
  point: z.unknown().refine((value) => value !== undefined && value !== null, 'required: the point, as written in a blueprint'),
  response: z.string({ error: 'required: the reply text (a string, or null when there are only tool calls)' }).nullable(),
  messages: MessagesSchema.optional(),
  tool_calls: ToolCallsSchema.optional(),
  model: z.string().optional(),
  citations: CitationsSchema.optional(),
  expect: CheckExpectSchema.optional(),
});

type Options = { point?: string; response?: string; messages?: string; 'tool-calls'?: string; model?: string; citations?: string; expect?: string; json?: boolean; jsonl?: boolean; help?: boolean };

export async function checkCommand(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs('check', USAGE, argv, {
    options: {
      point: { type: 'string' },
      response: { type: 'string' },
      messages: { type: 'string' },
      'tool-calls': { type: 'string' },
      model: { type: 'string' },
      citations: { type: 'string' },
      expect: { type: 'string' },
      json: { type: 'boolean' },
      jsonl: { type: 'boolean' },
    },
  });
  if (typeof parsed === 'number') return parsed;
  const values: Options = parsed.values;
  const sandbox = new LazySandbox();
  try {
    return values.jsonl ? await checkLines(values, sandbox) : await checkOne(values, sandbox);
  } finally {
    sandbox.dispose();
  }
}

async function checkOne(values: Options, sandbox: LazySandbox): Promise<number> {
  if (values.point === undefined) return usageError('check', 'give the point with --point', USAGE);
  if (values.response === undefined) return usageError('check', 'give the reply with --response', USAGE);
  const messages = parseJsonOption('--messages', values.messages, MessagesSchema);
  if ('error' in messages) return usageError('check', messages.error, USAGE);
  const toolCalls = parseJsonOption('--tool-calls', values['tool-calls'], ToolCallsSchema);
  if ('error' in toolCalls) return usageError('check', toolCalls.error, USAGE);
  const citations = parseJsonOption('--citations', values.citations, CitationsSchema);
  if ('error' in citations) return usageError('check', citations.error, USAGE);
  const expect = parseJsonOption('--expect', values.expect, CheckExpectSchema);
  if ('error' in expect) return usageError('check', expect.error, USAGE);

  const read = readPoint(values.point, '--point');
  for (const warning of read.warnings) console.error(`${warning.file}:${warning.line}:${warning.col}: warning: ${warning.message}`);
  if ('error' in read) {
    console.error(read.error);
    return 2;
  }
  const outcome = await grade(read.point, { response: values.response, messages: messages.value, toolCalls: toolCalls.value, model: values.model, citations: citations.value, expect: expect.value }, sandbox);
  console.log(values.json ? JSON.stringify(outcome) : `status: ${outcome.status}\nscore: ${outcome.score ?? 'null'}\ndetail: ${outcome.detail}`);
  return 0;
}

async function checkLines(values: Options, sandbox: LazySandbox): Promise<number> {
  const conflicting = (['point', 'response', 'messages', 'tool-calls', 'model', 'citations', 'expect', 'json'] as const).filter((key) => values[key] !== undefined);
  if (conflicting.length) return usageError('check', `--jsonl reads everything from standard input; drop ${conflicting.map((k) => `--${k}`).join(', ')}`, USAGE);
  let n = 0;
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    n++;
    const outcome = await checkLine(line, n, sandbox);
    process.stdout.write(`${JSON.stringify(outcome)}\n`);
  }
  return 0;
}

/** One input line → its outcome; every problem with the line is an error outcome naming the line. */
async function checkLine(line: string, n: number, sandbox: LazySandbox): Promise<CheckOutcome> {
  const failed = (message: string): CheckOutcome => ({ status: 'error', score: null, detail: `line ${n}: ${message}` });
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    return failed(line.trim() === '' ? 'empty line; expected a JSON object' : `not JSON: ${(error as Error).message}`);
  }
  const input = LineSchema.safeParse(json);
  if (!input.success) {
    const issue = input.error.issues[0]!;
    return failed(`${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
  }
  const { point, response, messages, tool_calls, model, citations, expect } = input.data;
  // A string is the point's YAML source, like --point; any other JSON value is the point itself (JSON is YAML).
  const read = readPoint(typeof point === 'string' ? point : JSON.stringify(point), 'point');
  if ('error' in read) return failed(read.error);
  return grade(read.point, { response, messages, toolCalls: tool_calls, model, citations, expect }, sandbox);
}

type ReadPoint = { point: Point; warnings: BlueprintIssue[] } | { error: string; warnings: BlueprintIssue[] };

function readPoint(text: string, label: string): ReadPoint {
  const result = parsePointSource(text, { file: label });
  if (!result.ok) {
    return { error: result.errors.map((e) => `${e.file}:${e.line}:${e.col}: ${e.message}\n  hint: ${e.hint}`).join('\n'), warnings: result.warnings };
  }
  if (result.points.length !== 1) {
    const what = result.points.length === 0 ? 'no point' : `an alternative path of ${result.points.length} points`;
    return { error: `${label}: this is ${what}; check one point at a time (without a leading "- ")`, warnings: result.warnings };
  }
  return { point: result.points[0]!, warnings: result.warnings };
}

async function grade(point: Point, reply: Reply, sandbox: LazySandbox): Promise<CheckOutcome> {
  const verdict = await evaluateDeterministicPoint(
    point,
    { content: reply.response, toolCalls: reply.toolCalls ?? null },
    {
      messages: reply.messages,
      modelId: reply.model,
      sandbox: mayUseSandbox(point) ? await sandbox.get() : undefined,
      // a criterion sees the citations and expect it is given; no corpus and no judge here (those kinds answer error)
      criterion: { evidence: { citations: (reply.citations ?? []).map((id) => ({ id, raw: id })), expect: reply.expect ?? null } },
    },
  );
  if (verdict === 'needs-judge') {
    return { status: 'error', score: null, detail: `needs a judge: ${JSON.stringify(point.text)} is graded by an LLM judge; assay check runs function points only` };
  }
  return { status: verdict.status, score: verdict.score, detail: verdict.detail };
}

/** The wasm engine takes a moment to load, so it is loaded only once a point needs it. */
class LazySandbox {
  private sandbox: Promise<QuickJsSandbox> | null = null;
  get(): Promise<QuickJsSandbox> {
    return (this.sandbox ??= createQuickJsSandbox());
  }
  dispose(): void {
    void this.sandbox?.then((s) => s.dispose());
  }
}

function parseJsonOption<T>(flag: string, text: string | undefined, schema: z.ZodType<T>): { value: T | undefined } | { error: string } {
  if (text === undefined) return { value: undefined };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { error: `${flag} is not JSON: ${(error as Error).message}` };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) return { error: `${flag}: ${parsed.error.issues[0]!.path.join('.') || 'value'}: ${parsed.error.issues[0]!.message}` };
  return { value: parsed.data };
}
