/**
 * Tool calls in the shapes providers and home-made systems return them, normalised once:
 * arguments parsed when they are JSON and kept verbatim when they are not (a criterion may
 * want to see exactly what the model wrote).
 */
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

/** OpenAI function-tool format → its parts, for adapters that must translate tools. */
export function functionTools(tools: readonly unknown[] | undefined): { name: string; description?: string; parameters?: unknown }[] {
  return (tools ?? []).flatMap((t) => {
    if (!isRecord(t)) return [];
    const fn = isRecord(t.function) ? t.function : t;
    if (typeof fn.name !== 'string') return [];
    return [{ name: fn.name, ...(typeof fn.description === 'string' ? { description: fn.description } : {}), parameters: fn.parameters }];
  });
}
