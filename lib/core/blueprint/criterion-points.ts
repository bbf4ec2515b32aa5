/**
 * A soev criterion entry (soev's CriterionSpec; docs/criteria.md) → a `criterion` point:
 *
 *   - kind: reply.max_length
 *     max: 2000            # a kind's parameters beside `kind`, or under `params:`
 *     weight: 2            # optional, > 0 (soev: a whole number ≥ 1; Assay also takes fractions)
 *     gate: true           # optional: a failed gate makes the attempt's score 0
 *
 * A key beside `kind` replaces the same key under `params` (soev). The kind must be in the
 * criterion registry (an unknown one is an error with suggestions) and its parameters must
 * pass the kind's zod schema, reported at the offending key's position.
 */
import { resolveCriterionKind } from '../criteria/registry';
import type { Issues } from './errors';
import { describe, entry, get, nodeAt, str, toJS, type YMap, type YNode } from './positions';
import type { CriterionPoint, SourceLoc } from './schema';

export const CRITERION_KEYS = ['kind', 'params', 'weight', 'gate'] as const;

/** Whether a point mapping is written as a criterion (`kind:` with a string value). */
export function isCriterionEntry(node: YNode): node is YMap {
  return node.kind === 'map' && node.entries.some((e) => e.key === 'kind' && e.value.kind === 'scalar' && typeof e.value.value === 'string');
}

interface Where {
  path: string | null;
  source: 'should' | 'should_not';
}

export function criterionPoint(map: YMap, where: Where, issues: Issues): CriterionPoint | null {
  const kindNode = get(map, 'kind')!;
  const name = str(kindNode) ?? '';
  if (where.source === 'should_not') {
    issues.error(kindNode.loc, 'schema', `a criterion (\`kind: ${name}\`) cannot stand under should_not`, 'Put it under `should:` or the prompt\'s `criteria:`; a criterion says itself what must hold.');
    return null;
  }
  const resolved = resolveCriterionKind(name);
  if (!resolved.ok) {
    issues.error(kindNode.loc, 'unknown_function', resolved.message, resolved.suggestions.length ? `Write \`kind: ${resolved.suggestions[0]}\`.` : 'See "Criterion kinds" in docs/criteria.md for the kinds and their parameters.');
    return null;
  }
  const { def } = resolved;
  let ok = true;

  let weight = 1;
  const weightEntry = entry(map, 'weight');
  if (weightEntry && !(weightEntry.value.kind === 'scalar' && weightEntry.value.value === null)) {
    const value = weightEntry.value.kind === 'scalar' ? weightEntry.value.value : undefined;
    if (typeof value === 'number' && value > 0 && Number.isFinite(value)) weight = value;
    else {
      issues.error(weightEntry.value.loc, 'schema', `a criterion's weight must be a number above 0; found ${JSON.stringify(toJS(weightEntry.value))}`, 'Weights are relative: a criterion of weight 2 counts twice in the attempt\'s score.');
      ok = false;
    }
  }
  let gate = false;
  const gateNode = get(map, 'gate');
  if (gateNode && !(gateNode.kind === 'scalar' && gateNode.value === null)) {
    if (gateNode.kind === 'scalar' && typeof gateNode.value === 'boolean') gate = gateNode.value;
    else {
      issues.error(gateNode.loc, 'schema', `\`gate\` must be true or false, not ${describe(gateNode)}`, 'Write `gate: true` to make a failed criterion zero the whole attempt.');
      ok = false;
    }
  }

  // Parameters: `params:` first, then the keys beside `kind` (which win), each remembered with its node for positions.
  const params: Record<string, unknown> = {};
  const nodes = new Map<string, YNode>();
  const paramsNode = get(map, 'params');
  if (paramsNode && !(paramsNode.kind === 'scalar' && paramsNode.value === null)) {
    if (paramsNode.kind !== 'map') {
      issues.error(paramsNode.loc, 'schema', `\`params\` of a criterion must be a mapping, not ${describe(paramsNode)}`, `Write the parameters of ${def.name} as keys, e.g.\n${def.example}`);
      return null;
    }
    for (const e of paramsNode.entries) {
      params[e.key] = toJS(e.value);
      nodes.set(e.key, e.value);
    }
  }
  for (const e of map.entries) {
    if ((CRITERION_KEYS as readonly string[]).includes(e.key)) continue;
    params[e.key] = toJS(e.value);
    nodes.set(e.key, e.value);
  }
  const parsed = def.params.safeParse(params);
  if (!parsed.success) {
    // A misspelt parameter is both an unknown key and a missing one: report it once, at the
    // key as written, naming the parameter it likely meant.
    const unknown = parsed.error.issues.some((i) => i.code === 'unrecognized_keys');
    const isMissing = (i: (typeof parsed.error.issues)[number]) => i.code === 'invalid_type' && i.path.length === 1 && !nodes.has(String(i.path[0]));
    const missing = unknown ? parsed.error.issues.filter(isMissing).map((i) => `\`${String(i.path[0])}\``) : [];
    for (const issue of parsed.error.issues) {
      if (unknown && isMissing(issue)) continue;
      const [first, ...rest] = issue.path;
      const keyNode = first !== undefined ? nodes.get(String(first)) : undefined;
      const at: SourceLoc = keyNode ? nodeAt(keyNode, rest).loc : unknownKeyLoc(issue, map, paramsNode) ?? kindNode.loc;
      const what = issue.code === 'unrecognized_keys' ? `${def.name} has no parameter ${(issue as { keys: string[] }).keys.map((k) => `\`${k}\``).join(', ')}${missing.length > 0 ? ` (it needs ${missing.join(', ')})` : ''}` : `${def.name}: ${first !== undefined ? `\`${issue.path.join('.')}\`: ` : ''}${issue.message}`;
      issues.error(at, 'invalid_args', what, `For example:\n${def.example}`);
    }
    return null;
  }
  if (!ok) return null;
  return {
    kind: 'criterion',
    text: renderCriterion(def.name, parsed.data),
    weight,
    citation: null,
    path: where.path,
    source: 'should',
    gate,
    loc: map.loc,
    criterion: def.name,
    params: parsed.data,
  };
}

/** An unknown key's own position (zod reports it on the object). */
function unknownKeyLoc(issue: { code: string; keys?: string[] }, map: YMap, paramsNode: YNode | undefined): SourceLoc | null {
  if (issue.code !== 'unrecognized_keys' || !issue.keys?.length) return null;
  const key = issue.keys[0]!;
  const beside = entry(map, key);
  if (beside) return beside.keyNode.loc;
  const under = paramsNode?.kind === 'map' ? entry(paramsNode, key) : undefined;
  return under?.keyNode.loc ?? null;
}

/** `reply.language {"language":"nl"}`: what pages and reports show. */
export function renderCriterion(name: string, params: unknown): string {
  const shown = params && typeof params === 'object' && Object.keys(params).length > 0 ? ` ${JSON.stringify(params)}` : '';
  return `${name}${shown}`;
}

/** A prompt's `criteria:` list (soev's key): every item is a `- kind:` entry. */
export function criteriaList(node: YNode, key: string, issues: Issues): CriterionPoint[] {
  if (node.kind !== 'seq') {
    issues.error(node.loc, 'schema', `\`${key}\` must be a list of criteria, not ${describe(node)}`, `Write\n  ${key}:\n    - kind: reply.language\n      language: nl`);
    return [];
  }
  const out: CriterionPoint[] = [];
  for (const item of node.items) {
    if (!isCriterionEntry(item)) {
      issues.error(item.loc, 'schema', `each item of \`${key}\` is a criterion with \`kind:\`, not ${describe(item)}`, 'Write `- kind: reply.max_length` with its parameters (`max: 2000`); judged points and `$fn` points go under `should:`.');
      continue;
    }
    const point = criterionPoint(item, { path: null, source: 'should' }, issues);
    if (point) out.push(point);
  }
  return out;
}
