/**
 * Assay's case fields from soev (docs/soev.md): `repeats`, `status`, `split`, `lineage`,
 * `category`, `tags`, `variants` and the `expect: {behaviour, nuggets, sources}` object.
 *
 * `expect` is also one of Weval's aliases for `should` (a list of points); the two are told
 * apart by shape: a list is Weval's rubric, a mapping is soev's expectation.
 */
import type { z } from 'zod';
import type { Issues } from './errors';
import { describe, entry, get, nodeAt, str, toJS, type YMap, type YNode } from './positions';
import { AnswerabilitySchema, ProvenanceSchema, type Answerability, type Expect, type Message, type Nugget, type Prompt, type Provenance, type Variant } from './schema';

export type CaseFields = Pick<Prompt, 'repeats' | 'status' | 'split' | 'lineage' | 'category' | 'tags' | 'variants' | 'rule' | 'derived_from' | 'answerability' | 'provenance'>;

export const CASE_KEYS = ['repeats', 'status', 'split', 'lineage', 'category', 'tags', 'variants', 'rule', 'derived_from', 'answerability', 'provenance'] as const;

export function caseFields(prompt: YMap, issues: Issues): CaseFields {
  return {
    repeats: repeatsOf(get(prompt, 'repeats'), issues),
    status: enumOf(get(prompt, 'status'), ['active', 'draft', 'retired'] as const, 'active', 'status', 'Only `active` prompts run; `draft` and `retired` stay in the file.', issues),
    split: enumOf(get(prompt, 'split'), ['dev', 'test'] as const, 'dev', 'split', '`test` prompts are sealed: run and scored, but not shown publicly.', issues),
    lineage: optionalString(get(prompt, 'lineage'), 'lineage', issues),
    category: optionalString(get(prompt, 'category'), 'category', issues),
    tags: stringList(get(prompt, 'tags'), 'tags', issues),
    variants: variantsOf(get(prompt, 'variants'), issues),
    rule: optionalString(get(prompt, 'rule'), 'rule', issues),
    derived_from: optionalString(get(prompt, 'derived_from'), 'derived_from', issues),
    answerability: answerabilityOf(get(prompt, 'answerability'), issues),
    provenance: provenanceOf(get(prompt, 'provenance'), issues),
  };
}

/** soev `answerability`: its defaults filled in, and `limitations` nonempty exactly when the label is `limited`. */
function answerabilityOf(node: YNode | undefined, issues: Issues): Answerability | null {
  if (!node || (node.kind === 'scalar' && node.value === null)) return null;
  const hint = 'Example: `answerability: { label: limited, limitations: [fact_dependent], assessed_by: expert }`.';
  const value = checkWith(AnswerabilitySchema.partial({ limitations: true, source_hints: true, detail: true }).strict(), node, 'answerability', hint, issues);
  if (!value) return null;
  const out: Answerability = { limitations: [], source_hints: [], detail: '', ...value };
  if ((out.label === 'limited') !== (out.limitations.length > 0)) {
    const at = node.kind === 'map' ? (entry(node, 'limitations')?.keyNode ?? node) : node;
    issues.error(at.loc, 'schema', out.label === 'limited' ? '`answerability.limitations` must list why the coverage is limited when the label is `limited`' : `\`answerability.limitations\` is only for the label \`limited\`, not \`${out.label}\``, hint);
    return null;
  }
  return out;
}

function provenanceOf(node: YNode | undefined, issues: Issues): Provenance | null {
  if (!node || (node.kind === 'scalar' && node.value === null)) return null;
  const value = checkWith(ProvenanceSchema.partial().strict(), node, 'provenance', 'Keys of provenance: generator, reviewer, round (a whole number from 0), notes.', issues);
  return value ? { generator: null, reviewer: null, round: null, notes: null, ...value } : null;
}

/**
 * A node checked against a zod schema, each problem reported at the node it is about (an
 * unknown key at the key itself): soev's models reject unknown fields, so these are errors.
 */
export function checkWith<T>(schema: z.ZodType<T>, node: YNode, key: string, hint: string, issues: Issues): T | null {
  const parsed = schema.safeParse(toJS(node));
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    const at = nodeAt(node, issue.path);
    const where = [key, ...issue.path.map(String)].join('.');
    if (issue.code === 'unrecognized_keys' && at.kind === 'map') {
      for (const k of issue.keys) issues.error((entry(at, k)?.keyNode ?? at).loc, 'unknown_field', `unknown field \`${k}\` in \`${where}\``, hint);
    } else {
      issues.error(at.loc, 'schema', `\`${where}\`: ${issue.message}`, hint);
    }
  }
  return null;
}

function repeatsOf(node: YNode | undefined, issues: Issues): number {
  if (!node || (node.kind === 'scalar' && node.value === null)) return 1;
  if (node.kind === 'scalar' && typeof node.value === 'number' && Number.isInteger(node.value) && node.value >= 1) return node.value;
  issues.error(node.loc, 'schema', `\`repeats\` must be a whole number ≥ 1, not ${JSON.stringify(toJS(node))}`, 'Write e.g. `repeats: 5` to run the prompt five times as independent samples.');
  return 1;
}

function enumOf<T extends string>(node: YNode | undefined, values: readonly T[], fallback: T, key: string, meaning: string, issues: Issues): T {
  if (!node || (node.kind === 'scalar' && node.value === null)) return fallback;
  const value = str(node);
  if (value !== undefined && (values as readonly string[]).includes(value)) return value as T;
  issues.error(node.loc, 'schema', `\`${key}\` must be one of ${values.join(', ')}; found ${JSON.stringify(toJS(node))}`, meaning);
  return fallback;
}

export function optionalString(node: YNode | undefined, key: string, issues: Issues): string | null {
  if (!node || (node.kind === 'scalar' && node.value === null)) return null;
  if (node.kind === 'scalar' && (typeof node.value === 'string' || typeof node.value === 'number')) return String(node.value);
  issues.error(node.loc, 'schema', `\`${key}\` must be a string, not ${describe(node)}`, `Write \`${key}: "…"\`.`);
  return null;
}

export function stringList(node: YNode | undefined, key: string, issues: Issues): string[] {
  if (!node || (node.kind === 'scalar' && node.value === null)) return [];
  if (node.kind !== 'seq') {
    issues.error(node.loc, 'schema', `\`${key}\` must be a list of strings, not ${describe(node)}`, `Write \`${key}: [a, b]\`.`);
    return [];
  }
  const out: string[] = [];
  for (const item of node.items) {
    if (item.kind === 'scalar' && (typeof item.value === 'string' || typeof item.value === 'number')) out.push(String(item.value));
    else issues.error(item.loc, 'schema', `each of \`${key}\` must be a string, not ${describe(item)}`, `Write \`${key}: [a, b]\`.`);
  }
  return out;
}

/**
 * `variants` (paraphrases whose consistency is a criterion): a list of strings (one user turn
 * each, named `v1`, `v2`…) or a mapping from a name to a string or a list of user turns.
 */
function variantsOf(node: YNode | undefined, issues: Issues): Variant[] {
  if (!node || (node.kind === 'scalar' && node.value === null)) return [];
  const hint = 'Write `variants: ["Another wording…"]`, or name them: `variants: { informal: "…", two_turns: ["…", "…"] }`.';
  const entries: { name: string; value: YNode }[] =
    node.kind === 'seq' ? node.items.map((value, i) => ({ name: `v${i + 1}`, value })) : node.kind === 'map' ? node.entries.map((e) => ({ name: e.key, value: e.value })) : [];
  if (node.kind === 'scalar') issues.error(node.loc, 'schema', `\`variants\` must be a list or a mapping, not ${describe(node)}`, hint);
  const out: Variant[] = [];
  for (const { name, value } of entries) {
    const turns = value.kind === 'seq' ? value.items : [value];
    const messages: Message[] = [];
    for (const turn of turns) {
      const text = str(turn) ?? (turn.kind === 'map' ? str(get(turn, 'prompt')) ?? str(get(turn, 'user')) : undefined);
      if (text === undefined || text.trim() === '') issues.error(turn.loc, 'schema', `a variant turn must be a non-empty string (or \`prompt: "…"\`), not ${describe(turn)}`, hint);
      else messages.push({ role: 'user', content: text });
    }
    if (messages.length > 0) out.push({ name, messages });
  }
  return out;
}

const EXPECT_KEYS = ['behaviour', 'behavior', 'message', 'answer', 'nuggets', 'sources'];

/** Whether a prompt's `expect` is soev's expectation object rather than Weval's list of points. */
export function isSoevExpect(node: YNode): node is YMap {
  return node.kind === 'map';
}

export function expectOf(map: YMap, issues: Issues): Expect | null {
  const hint = 'Example: `expect: { behaviour: answer, nuggets: ["The deadline is 30 days"], sources: { supporting: [law/1] } }`.';
  for (const e of map.entries) {
    if (!EXPECT_KEYS.includes(e.key)) issues.warn(e.keyNode.loc, 'unknown_field', `unknown key \`${e.key}\` in \`expect\` is ignored`, `Keys of expect: behaviour, message, answer, nuggets, sources. (A list under \`expect\` is a list of points, like \`should\`.)`);
  }
  const behaviourNode = get(map, 'behaviour') ?? get(map, 'behavior');
  const behaviour = enumOf(behaviourNode, ['answer', 'refuse', 'abstain'] as const, 'answer', 'expect.behaviour', 'What the system must do: answer, refuse or abstain.', issues);
  const nuggets: Nugget[] = [];
  const nuggetsNode = get(map, 'nuggets');
  if (nuggetsNode && nuggetsNode.kind === 'seq') {
    for (const item of nuggetsNode.items) {
      const nugget = nuggetOf(item, issues, hint);
      if (nugget) nuggets.push(nugget);
    }
  } else if (nuggetsNode && !(nuggetsNode.kind === 'scalar' && nuggetsNode.value === null)) {
    issues.error(nuggetsNode.loc, 'schema', `\`nuggets\` must be a list, not ${describe(nuggetsNode)}`, hint);
  }
  return {
    behaviour,
    message: optionalString(get(map, 'message'), 'expect.message', issues),
    answer: optionalString(get(map, 'answer'), 'expect.answer', issues),
    nuggets,
    sources: sourcesOf(get(map, 'sources'), issues, hint),
  };
}

function nuggetOf(node: YNode, issues: Issues, hint: string): Nugget | null {
  const text = str(node);
  if (text !== undefined && text.trim() !== '') return { text, importance: 'vital', sources: [] };
  if (node.kind === 'map') {
    const body = str(get(node, 'text'));
    if (body !== undefined && body.trim() !== '') {
      const importance = enumOf(get(node, 'importance'), ['vital', 'okay'] as const, 'vital', 'importance', 'Only `vital` nuggets count towards coverage.', issues);
      return { text: body, importance, sources: stringList(get(node, 'sources'), 'sources', issues) };
    }
  }
  issues.error(node.loc, 'schema', `a nugget must be a non-empty string or \`{ text, importance?, sources? }\`, not ${describe(node)}`, hint);
  return null;
}

function sourcesOf(node: YNode | undefined, issues: Issues, hint: string): Expect['sources'] {
  const empty = { required: {}, supporting: [], forbidden: [] };
  if (!node || (node.kind === 'scalar' && node.value === null)) return empty;
  // A plain list is the set of sources the reply may cite.
  if (node.kind === 'seq') return { ...empty, supporting: stringList(node, 'sources', issues) };
  if (node.kind !== 'map') {
    issues.error(node.loc, 'schema', `\`sources\` must be a mapping (required, supporting, forbidden) or a list, not ${describe(node)}`, hint);
    return empty;
  }
  const required: Record<string, string[]> = {};
  const requiredNode = get(node, 'required');
  if (requiredNode?.kind === 'map') {
    for (const e of requiredNode.entries) required[e.key] = stringList(e.value, `required.${e.key}`, issues);
  } else if (requiredNode?.kind === 'seq') {
    // A list of ids: each id is its own group.
    for (const id of stringList(requiredNode, 'required', issues)) required[id] = [id];
  }
  return { required, supporting: stringList(get(node, 'supporting'), 'supporting', issues), forbidden: stringList(get(node, 'forbidden'), 'forbidden', issues) };
}
