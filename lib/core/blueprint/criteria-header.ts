/**
 * The header keys of soev's project settings (docs/criteria.md), read beside Weval's header:
 * `defaults:` (criteria graded on every prompt, before the prompt's own; parsed in parse.ts
 * with the points context), `citations:` written as a reading rule (a `citations:` list or
 * `{title, url}` stays Weval's references), `messages:` (key → fixed text) and `corpus:`
 * (`{ path, law_names? }`, the path relative to the blueprint file).
 */
import { checkCitationPattern } from '../criteria/citations/extract';
import { CitationsConfigSchema, type CitationsConfig } from '../criteria/citations/config';
import type { Issues } from './errors';
import { describe, entry, get, nodeAt, str, toJS, type YMap, type YNode } from './positions';
import type { Blueprint } from './schema';

export const CRITERIA_HEADER_KEYS = ['defaults', 'messages', 'corpus'] as const;

const READING_KEYS = ['mapping', 'pattern', 'match'];

/** `citations:` as a reading rule rather than Weval's references: a mapping of mapping/pattern/match, no title. */
export function isCitationReading(node: YNode | undefined): node is YMap {
  return node?.kind === 'map' && node.entries.some((e) => READING_KEYS.includes(e.key)) && !get(node, 'title') && !get(node, 'name');
}

const READING_EXAMPLE = 'citations:\n  mapping: { path: citations.metadata.unit_id, regex: "^(law/[0-9/]+)" }   # an HTTP system\'s JSON reply\n  # or, for plain replies: pattern: "\\\\[(law/[0-9/]+)\\\\]"\n  match: hierarchical   # or exact';

export function citationReadingOf(node: YMap, issues: Issues): CitationsConfig | null {
  const parsed = CitationsConfigSchema.safeParse(toJS(node));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const unknown = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
      const at = unknown ? (entryAt(node, issue.path, unknown) ?? node.loc) : nodeAt(node, issue.path).loc;
      issues.error(at, 'schema', `\`citations\`${issue.path.length ? `.${issue.path.join('.')}` : ''}: ${unknown ? `unknown key \`${unknown}\`` : issue.message}`, `Write\n${READING_EXAMPLE}`);
    }
    return null;
  }
  let ok = true;
  for (const [path, pattern] of [
    [['pattern'], parsed.data.pattern],
    [['mapping', 'regex'], parsed.data.mapping?.regex ?? null],
  ] as const) {
    if (pattern === null) continue;
    const why = checkCitationPattern(pattern);
    if (why) {
      issues.error(nodeAt(node, path).loc, 'invalid_regex', `\`citations.${path.join('.')}\`: ${why}`, 'The id is the first capture group, e.g. `"\\\\[(law/[0-9/]+)\\\\]"`.');
      ok = false;
    }
  }
  return ok ? parsed.data : null;
}

function entryAt(node: YMap, path: readonly PropertyKey[], key: string) {
  const holder = nodeAt(node, path);
  return holder.kind === 'map' ? entry(holder, key)?.keyNode.loc : undefined;
}

export function messagesOf(node: YNode | undefined, issues: Issues): Record<string, string> {
  if (!node || (node.kind === 'scalar' && node.value === null)) return {};
  const hint = 'Write the fixed messages by key:\n  messages:\n    no_answer: "Daar kan ik geen antwoord op geven."';
  if (node.kind !== 'map') {
    issues.error(node.loc, 'schema', `\`messages\` in the header must be a mapping from keys to fixed texts, not ${describe(node)}`, hint);
    return {};
  }
  const out: Record<string, string> = {};
  for (const e of node.entries) {
    const text = str(e.value);
    if (text === undefined || text.trim() === '') issues.error(e.value.loc, 'schema', `the message \`${e.key}\` must be a non-empty string, not ${describe(e.value)}`, hint);
    else out[e.key] = text;
  }
  return out;
}

export function corpusOf(node: YNode | undefined, issues: Issues): Blueprint['corpus'] {
  if (!node || (node.kind === 'scalar' && node.value === null)) return null;
  const hint = 'Write `corpus: { path: corpus/units.jsonl, law_names: { "law/awb": ["Awb", "Algemene wet bestuursrecht"] } }` (a JSONL file of {id, text} lines, relative to this file).';
  if (node.kind !== 'map') {
    issues.error(node.loc, 'schema', `\`corpus\` must be a mapping with \`path\`, not ${describe(node)}`, hint);
    return null;
  }
  let ok = true;
  for (const e of node.entries) {
    if (e.key !== 'path' && e.key !== 'law_names') {
      issues.error(e.keyNode.loc, 'schema', `unknown key \`${e.key}\` in \`corpus\``, hint);
      ok = false;
    }
  }
  const path = str(get(node, 'path'));
  if (!path || path.trim() === '') {
    issues.error((get(node, 'path') ?? node).loc, 'schema', '`corpus.path` is required: the JSONL file of the corpus, relative to the blueprint file', hint);
    ok = false;
  }
  const law_names: Record<string, string[]> = {};
  const names = get(node, 'law_names');
  if (names && !(names.kind === 'scalar' && names.value === null)) {
    if (names.kind !== 'map') {
      issues.error(names.loc, 'schema', `\`corpus.law_names\` must map a law id to a list of its names, not ${describe(names)}`, hint);
      ok = false;
    } else {
      for (const e of names.entries) {
        const list = e.value.kind === 'seq' ? e.value.items.map(str) : [str(e.value)];
        if (list.some((n) => n === undefined || n.trim() === '')) {
          issues.error(e.value.loc, 'schema', `the names of \`${e.key}\` must be a list of non-empty strings`, hint);
          ok = false;
        } else law_names[e.key] = list as string[];
      }
    }
  }
  return ok && path ? { path, law_names } : null;
}
