/**
 * Sealed prompts (`split: test`; docs/runs.md, "Sealed prompts") are run and scored but never
 * shown. Which prompts are sealed is decided here, once, from the parser's own result: the same
 * reading of the file (aliases, merge keys, flow mappings, block scalars, tags, JSON,
 * multi-document streams) that decides what runs. A text-level test (a regex over `split: test`)
 * misses spellings the parser accepts; this cannot, because it is the parser.
 *
 * `redactSealed` returns the file's documents as plain values with every sealed prompt
 * removed, so a public view is rebuilt from them and not from the text: nothing written
 * inside a sealed prompt (its id, text, points, anchors) can reach it.
 */
import { Composer, isAlias, isCollection, LineCounter, Parser, visit, type Node as YamlNode } from 'yaml';
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
  /**
   * The file does not parse: nobody can tell which part is sealed; or (`aliasIntoSealed`) a YAML
   * alias outside the sealed prompts repeats something written inside one, so the sealed text
   * would show wherever the alias is.
   */
  | { ok: false; aliasIntoSealed?: { line: number; col: number } }
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

  if (format === 'yaml') {
    const leak = aliasIntoSealed(text, layout.prompts.filter((_, i) => sealed[i]).map((n) => n.loc));
    if (leak) return { ok: false, aliasIntoSealed: leak };
  }

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

/**
 * Where an alias outside every sealed prompt refers to an anchor inside one (or to a node that
 * holds one), or null. The documents given to a public view are plain values with aliases
 * resolved, so `prompt: &s SECRET` in a sealed prompt and `description: *s` in the header would
 * put SECRET in the header; merge keys (`<<: *s`) are aliases too. Such a file is not shown or
 * copied at all, as a file that does not parse is not: the author writes the text out instead.
 *
 * The sealed prompts are found by where they start (the parser's positions); the text is read
 * again into YAML's own nodes, which keep their source ranges and their aliases unresolved.
 */
function aliasIntoSealed(text: string, sealedStarts: readonly { line: number; col: number }[]): { line: number; col: number } | null {
  const lineCounter = new LineCounter();
  const docs = Array.from(new Composer({ prettyErrors: false, merge: true, uniqueKeys: false }).compose(new Parser(lineCounter.addNewLine).parse(text)));
  const key = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return `${line}:${col}`;
  };
  const wanted = new Set(sealedStarts.map((l) => `${l.line}:${l.col}`));
  // the largest collection (or an alias) starting where a sealed prompt starts is that prompt (its first key starts there too)
  const ranges = new Map<string, [number, number]>();
  const anchored: { alias: YamlNode; target: YamlNode | undefined }[] = [];
  for (const doc of docs) {
    // an alias names the nearest anchor of that name before it, in document order: the order `visit` walks in
    const anchors = new Map<string, YamlNode>();
    visit(doc, (_, node) => {
      if (isAlias(node)) {
        anchored.push({ alias: node, target: anchors.get(node.source) });
        // a prompt written as an alias (`- *whole`) is sealed where the alias is
        if (node.range && wanted.has(key(node.range[0]))) ranges.set(key(node.range[0]), [node.range[0], node.range[2]]);
        return;
      }
      const n = node as YamlNode;
      if (n.anchor) anchors.set(n.anchor, n);
      if (isCollection(n) && n.range) {
        const at = key(n.range[0]);
        const known = ranges.get(at);
        if (wanted.has(at) && (!known || n.range[2] - n.range[0] > known[1] - known[0])) ranges.set(at, [n.range[0], n.range[2]]);
      }
    });
  }
  if (anchored.length === 0) return null;
  const first = anchored[0]!.alias.range?.[0] ?? 0;
  // a sealed prompt not found among the nodes (not expected): with aliases in the file, nothing can be shown safely
  if (ranges.size < wanted.size) return lineCounter.linePos(first);
  const sealedRanges = [...ranges.values()];
  const inside = (start: number, end: number) => sealedRanges.some(([s, e]) => start < e && s < end);
  for (const { alias, target } of anchored) {
    const at = alias.range?.[0] ?? 0;
    if (inside(at, at + 1)) continue; // an alias within a sealed prompt goes with it
    // an alias whose anchor is missing is an error the parser reported; count it as a leak to be safe
    if (!target?.range || inside(target.range[0], target.range[2])) return lineCounter.linePos(at);
  }
  return null;
}

