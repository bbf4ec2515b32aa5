/**
 * The normalised response view that `correct:` assertions query. It is syntax
 * normalisation only: it never decides correctness and knows no tool by name.
 *
 * - `$.raw`          the assistant's text exactly as received
 * - `$.content`      the text with surrounding whitespace trimmed
 * - `$.content_json` the parsed JSON when the content is JSON (also the first ```json fence);
 *                    absent otherwise, so `jsonpath_exists $.content_json` means "is JSON"
 * - `$.tool_calls`   every tool call as `{ id?, name, arguments }` with arguments parsed:
 *                    OpenAI-style calls (`function.arguments` JSON strings), then plain-text
 *                    blocks `tool_call: NAME` + `arguments: {...}` in the content
 */
import { z } from 'zod';
import { ToolCallSchema, type ToolCall } from '../evidence/tool-call';


export const ResponseViewSchema = z.object({
  raw: z.string(),
  content: z.string(),
  content_json: z.unknown().optional(),
  tool_calls: z.array(ToolCallSchema),
});
export type ResponseView = z.infer<typeof ResponseViewSchema>;

export interface ResponseInput {
  content: string | null;
  /** Tool calls as the provider returned them (OpenAI `{id, type, function: {name, arguments}}`, or `{name, arguments|input|args}`). */
  toolCalls?: readonly unknown[] | null;
}

type Parsed = { ok: true; value: unknown } | { ok: false };

function tryJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** The content as JSON: the whole (trimmed) content, else the first ```json fence that parses, else an unlabelled fence that is the whole content. */
export function parseContentJson(content: string): Parsed {
  if (content === '') return { ok: false };
  const whole = tryJson(content);
  if (whole.ok) return whole;
  for (const m of content.matchAll(/```[ \t]*json[ \t]*\r?\n([\s\S]*?)```/gi)) {
    const parsed = tryJson(m[1] ?? '');
    if (parsed.ok) return parsed;
  }
  const bare = /^```[ \t]*\r?\n([\s\S]*?)```$/.exec(content);
  return bare ? tryJson(bare[1] ?? '') : { ok: false };
}

function parseArguments(args: unknown): unknown {
  if (args === undefined || args === null) return {};
  if (typeof args !== 'string') return args;
  if (args.trim() === '') return {};
  const parsed = tryJson(args);
  return parsed.ok ? parsed.value : args;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One provider tool call → the view's shape, or null when it names no tool. */
export function normaliseToolCall(call: unknown): ToolCall | null {
  if (!isRecord(call)) return null;
  const fn = isRecord(call.function) ? call.function : null;
  const name = fn?.name ?? call.name;
  if (typeof name !== 'string' || name === '') return null;
  const args = fn ? fn.arguments : (call.arguments ?? call.input ?? call.args);
  const out: ToolCall = { name, arguments: parseArguments(args) };
  if (typeof call.id === 'string') out.id = call.id;
  return out;
}

/** Index just past the JSON value that starts at `start` (`{` or `[`), honouring strings; -1 when unbalanced. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * Plain-text tool calls: a line `tool_call: NAME` optionally followed (after whitespace or
 * newlines) by `arguments:` and a JSON value, which may span lines. A block with no
 * `arguments:` is a call with `{}`.
 */
export function parseTextToolCalls(content: string): ToolCall[] {
  const calls: ToolCall[] = [];
  const header = /^[ \t]*(?:[-*][ \t]*)?tool_call[ \t]*:[ \t]*[`"']?([^\s`"']+)[`"']?[ \t]*$/gim;
  for (const m of content.matchAll(header)) {
    const name = m[1] ?? '';
    const after = (m.index ?? 0) + m[0].length;
    const argsHead = /^\s*arguments[ \t]*:[ \t]*/i.exec(content.slice(after));
    if (!argsHead) {
      calls.push({ name, arguments: {} });
      continue;
    }
    const valueStart = after + argsHead[0].length;
    const first = content[valueStart];
    if (first === '{' || first === '[') {
      const end = balancedEnd(content, valueStart);
      const text = end === -1 ? content.slice(valueStart).split(/\r?\n/)[0] ?? '' : content.slice(valueStart, end);
      calls.push({ name, arguments: parseArguments(text) });
    } else {
      const line = content.slice(valueStart).split(/\r?\n/)[0] ?? '';
      calls.push({ name, arguments: parseArguments(line.trim()) });
    }
  }
  return calls;
}

export function buildResponseView(input: ResponseInput): ResponseView {
  const raw = input.content ?? '';
  const content = raw.trim();
  const structured = (input.toolCalls ?? []).map(normaliseToolCall).filter((c): c is ToolCall => c !== null);
  const view: ResponseView = { raw, content, tool_calls: [...structured, ...parseTextToolCalls(content)] };
  const json = parseContentJson(content);
  if (json.ok) view.content_json = json.value;
  return view;
}
