/**
 * Sealed prompts (`split: test`, SPEC §2.5) are run and scored but never shown. Which prompts
 * are sealed is decided here, once, from the parser's own result: the same reading of the file
 * (aliases, merge keys, flow mappings, block scalars, tags, JSON, multi-document streams) that
 * decides what runs. A text-level test (a regex over `split: test`) misses spellings the
 * parser accepts; this cannot, because it is the parser.
 *
 * `redactSealed` returns the file's documents as plain values with every sealed prompt
 * removed, so a public view is rebuilt from them and not from the text: nothing written
 * inside a sealed prompt (its id, text, points, anchors) can reach it.
 */
import { Issues } from './errors';
import { formatFromFile, readDocuments, splitLayout } from './documents';
import { parseBlueprint } from './parse';
import { toJS, type YNode } from './positions';
import type { Prompt } from './schema';

/** The split value that seals a prompt (stored in `version_prompts.split`, filtered in SQL). */
export const SEALED_SPLIT = 'test';

/** Whether a prompt of a parsed blueprint is sealed: the one test every view relies on. */
export function isSealedPrompt(prompt: Pick<Prompt, 'split'>): boolean {
  return prompt.split === SEALED_SPLIT;
}

export type SealedRedaction =
  /** The file does not parse: nobody can tell which part is sealed. */
  | { ok: false }
  /** `documents`: the file's documents (header first) without the sealed prompts; null when none is sealed. */
  | { ok: true; sealed: number; documents: unknown[] | null };

export function redactSealed(text: string, options: { file: string }): SealedRedaction {
  const parsed = parseBlueprint(text, { file: options.file });
  if (!parsed.ok) return { ok: false };
  const sealed = parsed.blueprint.prompts.map(isSealedPrompt);
  const count = sealed.filter(Boolean).length;
  if (count === 0) return { ok: true, sealed: 0, documents: null };

  // The parser turned layout.prompts into blueprint.prompts one for one and in order (a
  // prompt it drops is an error, and this file has none), so index i is the same prompt.
  const format = formatFromFile(options.file);
  const issues = new Issues(options.file);
  const docs = readDocuments(text, format, issues);
  if (!docs) return { ok: false };
  const layout = splitLayout(docs, format, issues);
  if (layout.prompts.length !== sealed.length || !samePlaces(layout.prompts, parsed.blueprint.prompts)) return { ok: false };

  const visible = layout.prompts.filter((_, i) => !sealed[i]).map(toJS);
  if (!layout.header) return { ok: true, sealed: count, documents: [visible] };
  const header = toJS(layout.header) as Record<string, unknown>;
  if ('prompts' in header) return { ok: true, sealed: count, documents: [{ ...header, prompts: visible }] };
  return { ok: true, sealed: count, documents: [header, visible] };
}

/** A guard on the one-for-one mapping: each prompt starts where its node does. */
function samePlaces(nodes: readonly YNode[], prompts: readonly Prompt[]): boolean {
  return nodes.every((node, i) => {
    const loc = prompts[i]?.loc;
    return !loc || !node.loc || (loc.line === node.loc.line && loc.col === node.loc.col);
  });
}
