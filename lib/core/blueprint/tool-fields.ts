/**
 * Tool use as Weval defines it, and the one mode Assay adds.
 *
 * `toolUse.mode`: Weval's parser accepts only `trace-only` (src/lib/blueprint-parser.ts), and in
 * that mode its clients send no tools at all: the model is told in the prompt how to write each
 * call, one `TOOL_CALL {"name": …, "arguments": …}` line per call, and the tool points read
 * those lines. Assay adds `native`: the blueprint's tools are sent in each provider's own tool
 * shape and the calls the provider returns are what the tool points read. Weval's clients also
 * know an `auto` mode, but its parser rejects it and nothing in Weval sets it, so a blueprint
 * that says `auto` is refused here too, with `native` suggested.
 *
 * A prompt's `requiredTools`, `prohibitedTools` and `maxCalls`: Weval's parser checks that the
 * two lists are lists and that `maxCalls` is a number ≥ 0, stores them on the prompt, and its
 * sandbox page shows them; no Weval scorer reads them. Assay does the same: checked (with
 * positions), stored, shown on the prompt page, never graded. The load warns that they are not
 * graded and names the tool points that grade the same thing, so nobody believes they count.
 */
import type { Issues } from './errors';
import { describe, entry, toJS, type YMap, type YNode } from './positions';

/** `trace-only`: Weval's, the default; `native`: Assay's, tools sent in each provider's shape. */
export const TOOL_MODES = ['trace-only', 'native'] as const;
export type ToolMode = (typeof TOOL_MODES)[number];

/** The prompt fields read here, for the list of known prompt keys. */
export const TOOL_PROMPT_KEYS = ['requiredTools', 'prohibitedTools', 'maxCalls'] as const;

export interface PromptToolFields {
  requiredTools?: string[];
  prohibitedTools?: string[];
  maxCalls?: number;
}

/**
 * The mode a run uses for this blueprint's `toolUse` (stored as written, checked at load by the
 * header). `enabled: false` switches tool use off, so nothing is sent whatever the mode says.
 */
export function toolModeOf(toolUse: unknown): ToolMode {
  if (typeof toolUse !== 'object' || toolUse === null) return 'trace-only';
  const { mode, enabled } = toolUse as { mode?: unknown; enabled?: unknown };
  return mode === 'native' && enabled !== false ? 'native' : 'trace-only';
}

/** The hint for a `toolUse.mode` that is not one of TOOL_MODES (`auto` gets its own). */
export function toolModeHint(written: unknown): string {
  const base =
    '`trace-only` (the default, and the only mode Weval accepts): no tools are sent; the model writes each call as a `TOOL_CALL {"name": …, "arguments": …}` line, which the tool points read. `native` (Assay only): the tools are sent in each provider\'s own shape and the calls it returns are graded.';
  return written === 'auto' ? `Weval's parser rejects \`auto\` too; write \`mode: native\` to send the tools to the provider. ${base}` : `Write \`mode: trace-only\` or \`mode: native\`. ${base}`;
}

/** A prompt's `requiredTools`, `prohibitedTools` and `maxCalls`, checked as Weval's parser checks them; only those written are returned. */
export function promptToolFieldsOf(prompt: YMap, issues: Issues): PromptToolFields {
  const out: PromptToolFields = {};
  for (const key of ['requiredTools', 'prohibitedTools'] as const) {
    const node = entry(prompt, key)?.value;
    if (node === undefined) continue;
    const names = toolNames(node, key, issues);
    if (names) out[key] = names;
  }
  const max = entry(prompt, 'maxCalls')?.value;
  if (max !== undefined) {
    if (max.kind === 'scalar' && typeof max.value === 'number' && max.value >= 0) out.maxCalls = max.value;
    else {
      issues.error(max.loc, 'schema', `a prompt's \`maxCalls\` must be a number ≥ 0, not ${JSON.stringify(toJS(max))}`, 'Write e.g. `maxCalls: 2` (as in Weval, it is shown with the prompt; grade it with `- $tool_call_count_between: [0, 2]`).');
    }
  }
  const written = TOOL_PROMPT_KEYS.filter((k) => out[k] !== undefined);
  if (written.length > 0) {
    issues.warn(
      entry(prompt, written[0]!)!.keyNode.loc,
      'suspicious',
      `${written.map((k) => `\`${k}\``).join(', ')} ${written.length > 1 ? 'are' : 'is'} shown with the prompt but not graded (Weval does not grade ${written.length > 1 ? 'them' : 'it'} either)`,
      gradingHint(out),
    );
  }
  return out;
}

/** Weval checks only that the value is a list; its type says a list of tool names, which Assay also checks. */
function toolNames(node: YNode, key: string, issues: Issues): string[] | null {
  const hint = `Write \`${key}: [search, retrieve]\` (a list of tool names).`;
  if (node.kind !== 'seq') {
    issues.error(node.loc, 'schema', `a prompt's \`${key}\` must be a list of tool names, not ${describe(node)}`, hint);
    return null;
  }
  const names: string[] = [];
  for (const item of node.items) {
    if (item.kind === 'scalar' && typeof item.value === 'string' && item.value.trim() !== '') names.push(item.value);
    else issues.error(item.loc, 'schema', `each entry of \`${key}\` must be a tool name, not ${describe(item)}`, hint);
  }
  return names.length === node.items.length ? names : null;
}

function gradingHint(f: PromptToolFields): string {
  const lines = [
    ...(f.requiredTools ?? []).map((t) => `- $tool_called: ${JSON.stringify(t)}`),
    ...(f.maxCalls !== undefined ? [`- $tool_call_count_between: [0, ${f.maxCalls}]`] : []),
  ];
  const not = (f.prohibitedTools ?? []).map((t) => `- $tool_called: ${JSON.stringify(t)}`);
  return [
    'To grade them, write the tool points:',
    ...(lines.length ? [`under \`should\`: ${lines.join('; ')}`] : []),
    ...(not.length ? [`under \`should_not\`: ${not.join('; ')}`] : []),
  ].join(' ');
}
