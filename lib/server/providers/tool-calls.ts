/**
 * Tool calls in the shapes providers and home-made systems return them, normalised once:
 * arguments parsed when they are JSON and kept verbatim when they are not (a criterion may
 * want to see exactly what the model wrote).
 */
import type { Tool as AnthropicTool } from '@anthropic-ai/sdk/resources/messages';
import type { FunctionDeclaration } from '@google/genai';
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import type { ToolCall } from './types';

export function parseArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  const text = raw.trim();
  if (text === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return raw;
  }
}

export function stringifyArguments(args: unknown): string {
  return typeof args === 'string' ? args : JSON.stringify(args ?? {});
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One tool call from any of the common shapes: OpenAI's `{id, type, function: {name, arguments}}`,
 * a flat `{id?, name, arguments | args | input | parameters}`, or Anthropic's `tool_use` block.
 * Returns null for anything without a name.
 */
export function normaliseToolCall(raw: unknown): ToolCall | null {
  if (!isRecord(raw)) return null;
  const fn = isRecord(raw.function) ? raw.function : raw;
  const name = fn.name ?? raw.tool ?? raw.tool_name;
  if (typeof name !== 'string' || name === '') return null;
  const args = fn.arguments ?? fn.args ?? fn.input ?? fn.parameters;
  const call: ToolCall = { name, arguments: parseArguments(args) };
  if (typeof raw.id === 'string') call.id = raw.id;
  return call;
}

export function normaliseToolCalls(raw: unknown): ToolCall[] {
  const list = Array.isArray(raw) ? raw : raw == null ? [] : [raw];
  return list.map(normaliseToolCall).filter((c): c is ToolCall => c !== null);
}

/**
 * One tool as a blueprint writes it, read once: Weval's `{name, description, schema}` (its
 * `schema` is the JSON Schema of the arguments), or an OpenAI function tool
 * `{type: "function", function: {name, description, parameters}}`. Each adapter turns these
 * parts into its provider's documented shape below, so the translation lives here only.
 */
export interface ToolSpec {
  name: string;
  description?: string;
  /** JSON Schema of the arguments; undefined when the tool declares none. */
  parameters?: Record<string, unknown>;
}

export function toolSpecs(tools: readonly unknown[] | undefined): ToolSpec[] {
  return (tools ?? []).flatMap((t) => {
    if (!isRecord(t)) return [];
    const fn = isRecord(t.function) ? t.function : t;
    if (typeof fn.name !== 'string') return [];
    // Weval's clients send `t.schema` as the parameters (openai-client.ts `parameters: t.schema || {}`).
    const parameters = isRecord(fn.parameters) ? fn.parameters : isRecord(fn.schema) ? fn.schema : undefined;
    return [{ name: fn.name, ...(typeof fn.description === 'string' ? { description: fn.description } : {}), ...(parameters ? { parameters } : {}) }];
  });
}

/**
 * OpenAI Chat Completions `tools[]` (also OpenRouter's and every compatible server's):
 * ChatCompletionFunctionTool `{type: "function", function: FunctionDefinition}` (openai-node
 * resources/chat/completions; OpenAI API reference, Chat Completions > Create, `tools`).
 * `parameters` may be left out: "Omitting `parameters` defines a function with an empty
 * parameter list".
 */
export function openAiTools(tools: readonly unknown[] | undefined): ChatCompletionFunctionTool[] {
  return toolSpecs(tools).map((t) => ({
    type: 'function',
    function: { name: t.name, ...(t.description !== undefined ? { description: t.description } : {}), ...(t.parameters ? { parameters: t.parameters } : {}) },
  }));
}

/**
 * Anthropic Messages `tools[]`: Tool `{name, description?, input_schema}` where `input_schema`
 * is required and its `type` must be `object` (@anthropic-ai/sdk resources/messages Tool,
 * Tool.InputSchema). A tool without a schema takes no arguments: an empty object schema.
 */
export function anthropicTools(tools: readonly unknown[] | undefined): AnthropicTool[] {
  return toolSpecs(tools).map((t) => ({
    name: t.name,
    ...(t.description !== undefined ? { description: t.description } : {}),
    input_schema: { type: 'object', ...(t.parameters ?? { properties: {} }) } as AnthropicTool.InputSchema,
  }));
}

/**
 * Gemini `tools: [{functionDeclarations}]`: FunctionDeclaration `{name, description?,
 * parametersJsonSchema?}` (@google/genai FunctionDeclaration: `parametersJsonSchema` takes JSON
 * Schema, which a blueprint's schema is; `parameters` takes Google's OpenAPI subset, and the two
 * are mutually exclusive). A tool without parameters leaves the field unset, as documented.
 */
export function geminiFunctionDeclarations(tools: readonly unknown[] | undefined): FunctionDeclaration[] {
  return toolSpecs(tools).map((t) => ({
    name: t.name,
    ...(t.description !== undefined ? { description: t.description } : {}),
    ...(t.parameters ? { parametersJsonSchema: t.parameters } : {}),
  }));
}

/**
 * A reply's native tool calls written as Weval's trace, one `TOOL_CALL {"name", "arguments"}`
 * line each, before the reply's text: what Weval's clients do with the calls a provider returns
 * (openai-client.ts, anthropic-client.ts, google-client.ts: "synthesize TOOL_CALL lines"), so the
 * judges and the later turns of a conversation see the calls as they would in Weval.
 */
export function withTraceLines(content: string, calls: readonly ToolCall[]): string {
  const lines = calls.map((c) => `TOOL_CALL ${JSON.stringify({ name: c.name, arguments: c.arguments })}\n`).join('');
  return (lines + content.trim()).trim();
}
