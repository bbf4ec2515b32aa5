/**
 * The tool calls a point inspects: the provider's structured calls (`ctx.toolCalls`), or,
 * when the provider returned none, Weval's trace protocol in the text: one line per call,
 * `TOOL_CALL {"name": "<tool>", "arguments": {…}}`. Malformed lines are ignored (as in Weval).
 */
import type { PointContext, ToolCall } from '../types';

const MARKER = 'TOOL_CALL ';

export function extractToolCallsFromText(text: string): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line.startsWith(MARKER)) continue;
    try {
      const parsed: unknown = JSON.parse(line.slice(MARKER.length).trim());
      if (parsed && typeof parsed === 'object' && typeof (parsed as { name?: unknown }).name === 'string') {
        const { name, arguments: args } = parsed as { name: string; arguments?: unknown };
        calls.push({ name, arguments: args });
      }
    } catch {
      // not a call: leave it to the text checks
    }
  }
  return calls;
}

export function toolCallsOf(response: string, ctx: PointContext): ToolCall[] {
  return ctx.toolCalls ?? extractToolCallsFromText(response);
}
