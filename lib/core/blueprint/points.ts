/**
 * Weval's `should` system (docs/compatibility.md): one `should`/`should_not` block → a flat
 * list of points.
 *
 * Every form that Weval documents or its parser accepts is accepted: plain strings (LLM-judged), the
 * `"criterion": "citation"` pair, `$fn: arg`, `$fn` alone, full `{point|text|fn, arg|fnArgs,
 * weight|multiplier, citation}` objects, `$ref` to `point_defs`, and nested lists as
 * alternative paths (OR: the best path counts). Assay adds `gate: true` on any point and the
 * judge-question forms `noul:`/`score:`/`choice:` (question-points.ts), and soev's criteria
 * `- kind: …` (criterion-points.ts).
 *
 * Where Weval's parser was defective, this one does the right thing (docs/compatibility.md, "Blueprint parser"):
 * a quoted `"$fn: arg"` is that function (1), also inside an alternative path (2), names resolve
 * through an explicit alias table (3), a block that is not a list is an error (4), falsy
 * arguments are kept (5), `$ref` keeps the point's own weight and citation (6), and should /
 * should_not paths are numbered separately (8).
 */
import type { Issues } from './errors';
import { buildFunctionPoint, type FunctionCall, type ResolvePointFunction } from './functions';
import { parseFnString } from './fn-strings';
import { describe, get, getFirst, str, toJS, type YMap, type YNode } from './positions';
import { criterionPoint, isCriterionEntry } from './criterion-points';
import { buildQuestion, questionKeyOf, QUESTION_KEYS } from './question-points';
import type { Point, SourceLoc } from './schema';
import { POINT_FIELDS } from './vocabulary';

export type Block = 'should' | 'should_not';

export interface PointsContext {
  issues: Issues;
  resolve: ResolvePointFunction;
  defs: PointDefs;
  /** Points allowed in one prompt (limits.ts); unset where one point is read alone. */
  maxPoints?: number;
}

/** `point_defs` (alias `defs`): reusable points, expanded where `$ref` names them. */
export interface PointDefs {
  nodes: ReadonlyMap<string, YNode>;
  /** Definitions that had errors (reported once, at the definition). */
  broken: ReadonlySet<string>;
}

export const NO_DEFS: PointDefs = { nodes: new Map(), broken: new Set() };

interface Where {
  block: Block;
  /** Alternative path id, or null for a required point. */
  path: string | null;
}

/** Weval's accepted range for a point's multiplier. */
const MIN_WEIGHT = 0.1;
const MAX_WEIGHT = 10;

/**
 * Normalises one block. `key` is the spelling the author used (`should`, `expect`…), for
 * messages. A block that is not a list is an error (Weval silently dropped it: defect 4).
 */
export function normalizeBlock(node: YNode, block: Block, key: string, ctx: PointsContext): Point[] {
  if (node.kind !== 'seq') {
    ctx.issues.error(
      node.loc,
      'schema',
      `\`${key}\` must be a list of points, not ${describe(node)}`,
      `Write each criterion as a list item:\n  ${key}:\n    - "${node.kind === 'scalar' && typeof node.value === 'string' ? node.value.slice(0, 40) : 'The reply …'}"`,
    );
    return [];
  }
  const points: Point[] = [];
  let pathCount = 0;
  const alternatives = node.items.filter((item) => item.kind === 'seq' && item.items.some((i) => !isNullNode(i))).length;
  for (const item of node.items) {
    if (item.kind !== 'seq') {
      const point = normalizePoint(item, { block, path: null }, ctx);
      if (point) points.push(point);
      continue;
    }
    const members = item.items.filter((member) => !isNullNode(member));
    if (members.length === 0) {
      // Weval drops empty alternative paths; say so, since it is usually a slip.
      ctx.issues.warn(item.loc, 'suspicious', `an empty alternative path in \`${key}\` is ignored`, 'Remove the empty `- []` item, or put the points of this path under it.');
      continue;
    }
    if (alternatives === 1) {
      ctx.issues.warn(
        item.loc,
        'suspicious',
        `\`${key}\` has a single alternative path (a nested list); it is scored as "best of one path" and averaged with the required points`,
        'If these points are simply required, un-nest them (one `-` each). Use nested lists only for two or more alternative paths.',
      );
    }
    const path = `${block}:${pathCount++}`;
    for (const member of members) {
      if (member.kind === 'seq') {
        ctx.issues.error(member.loc, 'schema', 'a list inside an alternative path is not allowed (paths cannot nest)', 'Each alternative path is one list of points; flatten this inner list into the path.');
        continue;
      }
      const point = normalizePoint(member, { block, path }, ctx);
      if (point) points.push(point);
    }
  }
  return points;
}

function isNullNode(node: YNode): boolean {
  return node.kind === 'scalar' && node.value === null;
}

/** One point in any written form; null when it is invalid (issues recorded). */
export function normalizePoint(node: YNode, where: Where, ctx: PointsContext): Point | null {
  if (node.kind === 'seq') return null;
  if (node.kind === 'scalar') return scalarPoint(node, where, ctx);
  return mappingPoint(node, where, ctx);
}

function base(where: Where, loc: SourceLoc, weight = 1, citation: string | null = null, gate = false) {
  return { weight, citation, path: where.path, source: where.block, gate, loc };
}

function scalarPoint(node: Extract<YNode, { kind: 'scalar' }>, where: Where, ctx: PointsContext): Point | null {
  if (typeof node.value !== 'string') {
    ctx.issues.error(node.loc, 'schema', `a point must be a string, a mapping or (for alternative paths) a list, not ${describe(node)}`, 'Quote it to make it a criterion for the judge (`- "…"`), or use a function such as `- $contains: "…"`.');
    return null;
  }
  const text = node.value;
  const fn = parseFnString(text);
  if (fn.kind === 'invalid') {
    ctx.issues.error(node.loc, 'schema', fn.message, 'Write `$name: argument` (e.g. `- $icontains: "(A)"`), or for a criterion that starts with "$" use `- text: "…"`.');
    return null;
  }
  if (fn.kind === 'function') {
    const call: FunctionCall = { written: fn.name, args: fn.hasArgs ? fn.args : undefined, argsNode: fn.hasArgs ? node : null, loc: node.loc };
    if (isRefName(fn.name)) return refPoint(fn.hasArgs ? fn.args : undefined, node, where, null, ctx);
    return buildFunctionPoint(call, base(where, node.loc), ctx.resolve, ctx.issues);
  }
  if (text.trim() === '') {
    ctx.issues.error(node.loc, 'schema', 'an empty criterion', 'Write what the reply should do, e.g. `- "Mentions the deadline"`, or remove the item.');
    return null;
  }
  return { kind: 'text', ...base(where, node.loc), text };
}

const COMMON_KEYS = [...POINT_FIELDS.weight.spellings, 'citation', 'gate'];
const OBJECT_KEYS = [...POINT_FIELDS.text.spellings, 'fn', ...POINT_FIELDS.args.spellings, ...COMMON_KEYS];
const QUESTION_EXTRA_KEYS = ['levels', 'options'];

function mappingPoint(map: YMap, where: Where, ctx: PointsContext): Point | null {
  const { issues } = ctx;
  const dollarKeys = map.entries.filter((e) => e.key.startsWith('$'));
  const question = questionKeyOf(map);

  // `- kind: reply.language`: a soev criterion of the criterion registry (criterion-points.ts).
  if (dollarKeys.length === 0 && isCriterionEntry(map)) return criterionPoint(map, { path: where.path, source: where.block }, issues);

  if (dollarKeys.length > 0) {
    if (dollarKeys.length > 1) {
      issues.error(dollarKeys[1]!.keyNode.loc, 'schema', `one point names two functions (${dollarKeys.map((e) => e.key).join(', ')})`, 'Write each function as its own list item (`- $contains: …` then `- $icontains: …`).');
      return null;
    }
    const fnEntry = dollarKeys[0]!;
    warnUnknownKeys(map, [fnEntry.key, ...COMMON_KEYS], issues, 'a function point');
    const common = commonFields(map, where, ctx);
    if (!common) return null;
    const written = fnEntry.key.slice(1);
    if (isRefName(written)) return refPoint(toJS(fnEntry.value), fnEntry.value, where, map, ctx);
    const call: FunctionCall = { written, args: toJS(fnEntry.value), argsNode: fnEntry.value, loc: fnEntry.keyNode.loc };
    return buildFunctionPoint(call, common, ctx.resolve, issues);
  }

  if (question) {
    warnUnknownKeys(map, [...QUESTION_KEYS, ...QUESTION_EXTRA_KEYS, ...COMMON_KEYS], issues, 'a judge question');
    const common = commonFields(map, where, ctx);
    const built = buildQuestion(map, question, issues);
    if (!common || !built) return null;
    return { kind: 'question', ...common, question: built, text: built.type === 'noul' ? built.statement : built.question };
  }

  const textNode = getFirst(map, POINT_FIELDS.text.spellings)?.node;
  const fnNode = get(map, 'fn');
  if (textNode || fnNode) {
    warnUnknownKeys(map, OBJECT_KEYS, issues, 'a point object');
    const common = commonFields(map, where, ctx);
    if (!common) return null;
    if (textNode && fnNode && truthyScalar(textNode) && truthyScalar(fnNode)) {
      issues.error(fnNode.loc, 'schema', "a point cannot have both a text (`text`/`point`) and a function (`fn`)", 'Split it into two points: one judged criterion and one function check.');
      return null;
    }
    if (fnNode && truthyScalar(fnNode)) {
      const name = str(fnNode);
      if (name === undefined) {
        issues.error(fnNode.loc, 'schema', `\`fn\` must be a function name, not ${describe(fnNode)}`, 'Write e.g. `fn: contains` with the argument under `arg:`.');
        return null;
      }
      // `fnArgs`, else `arg`: a falsy argument (0, '', false) is kept (Weval lost it: defect 5).
      const argsNode = getFirst(map, POINT_FIELDS.args.spellings)?.node;
      const written = name.trim().replace(/^\$/, '');
      if (isRefName(written)) return refPoint(argsNode ? toJS(argsNode) : undefined, argsNode ?? fnNode, where, map, ctx);
      const call: FunctionCall = { written, args: argsNode ? toJS(argsNode) : undefined, argsNode: argsNode ?? null, loc: fnNode.loc };
      return buildFunctionPoint(call, common, ctx.resolve, issues);
    }
    const text = str(textNode);
    if (text === undefined || text.trim() === '') {
      issues.error((textNode ?? map).loc, 'schema', `the text of a point must be a non-empty string${textNode ? `, not ${describe(textNode)}` : ''}`, 'Write e.g. `- point: "Mentions the deadline"` with an optional `weight:` and `citation:`.');
      return null;
    }
    return { kind: 'text', ...common, text };
  }

  // `- "criterion": "citation"`: a one-key mapping whose value is a string.
  const only = map.entries.length === 1 ? map.entries[0]! : undefined;
  if (only && !OBJECT_KEYS.includes(only.key) && only.value.kind === 'scalar' && typeof only.value.value === 'string') {
    if (only.key.trim() === '') {
      issues.error(only.keyNode.loc, 'schema', 'an empty criterion', 'Write the criterion as the key: `- "Mentions the deadline": "Source of the rule"`.');
      return null;
    }
    return { kind: 'text', ...base(where, map.loc, 1, only.value.value), text: only.key };
  }

  issues.error(
    map.loc,
    'schema',
    `a point mapping must define \`text\`/\`point\`, a function (\`fn\` or \`$name\`), a judge question (\`noul\`/\`score\`/\`choice\`) or a \`"criterion": "citation"\` pair; found keys ${map.entries.map((e) => e.key).join(', ') || '(none)'}`,
    'For example `- point: "Mentions the deadline"` with `weight: 2`, or `- $contains: "deadline"`.',
  );
  return null;
}

function truthyScalar(node: YNode): boolean {
  return node.kind !== 'scalar' || Boolean(node.value);
}

/** weight (alias multiplier), citation and gate of a point mapping; null if any is invalid. */
function commonFields(map: YMap, where: Where, ctx: PointsContext) {
  const { issues } = ctx;
  let ok = true;
  let weight = 1;
  const weightEntry = getFirst(map, POINT_FIELDS.weight.spellings);
  if (weightEntry && !(weightEntry.node.kind === 'scalar' && weightEntry.node.value === null)) {
    const value = weightEntry.node.kind === 'scalar' ? weightEntry.node.value : undefined;
    if (typeof value === 'number' && value >= MIN_WEIGHT && value <= MAX_WEIGHT) weight = value;
    else {
      issues.error(weightEntry.node.loc, 'schema', `a point's ${weightEntry.key} must be a number from ${MIN_WEIGHT} to ${MAX_WEIGHT}; found ${JSON.stringify(toJS(weightEntry.node))}`, 'Weights are relative: 2 counts twice as much as 1, 0.5 half as much.');
      ok = false;
    }
  }
  let citation: string | null = null;
  const citationNode = get(map, 'citation');
  if (citationNode && !(citationNode.kind === 'scalar' && citationNode.value === null)) {
    if (citationNode.kind === 'scalar' && citationNode.value !== null) citation = String(citationNode.value);
    else {
      issues.error(citationNode.loc, 'schema', `a point's citation must be a string, not ${describe(citationNode)}`, 'Write the source as text, e.g. `citation: "Investment Advisers Act of 1940"`.');
      ok = false;
    }
  }
  let gate = false;
  const gateNode = get(map, 'gate');
  if (gateNode) {
    if (gateNode.kind === 'scalar' && typeof gateNode.value === 'boolean') gate = gateNode.value;
    else {
      issues.error(gateNode.loc, 'schema', `\`gate\` must be true or false, not ${describe(gateNode)}`, 'Write `gate: true` to make a failed point zero the whole attempt.');
      ok = false;
    }
  }
  return ok ? base(where, map.loc, weight, citation, gate) : null;
}

function warnUnknownKeys(map: YMap, known: readonly string[], issues: Issues, what: string): void {
  for (const e of map.entries) {
    if (known.includes(e.key)) continue;
    issues.warn(e.keyNode.loc, 'unknown_field', `unknown key \`${e.key}\` in ${what} is ignored`, `Keys of ${what}: ${known.filter((k) => !k.startsWith('$')).join(', ')}.`);
  }
}

function isRefName(name: string): boolean {
  return name === 'ref';
}

/**
 * `$ref: name` (or `{ $ref: { name } }`): the definition's point, with the referencing point's
 * own weight, citation and gate when it writes them (Weval dropped them for object
 * definitions: defect 6). A string definition is `$js` code, as in Weval.
 */
function refPoint(arg: unknown, argNode: YNode, where: Where, map: YMap | null, ctx: PointsContext): Point | null {
  const { issues, defs } = ctx;
  const name = typeof arg === 'string' ? arg : arg && typeof arg === 'object' && typeof (arg as { name?: unknown }).name === 'string' ? (arg as { name: string }).name : undefined;
  if (!name) {
    issues.error(argNode.loc, 'unknown_ref', '`$ref` must name a definition of `point_defs`, e.g. `- $ref: scoreBand`', 'Write the definition\'s name as a string.');
    return null;
  }
  const definition = defs.nodes.get(name);
  if (!definition) {
    const known = [...defs.nodes.keys()];
    issues.error(argNode.loc, 'unknown_ref', `\`$ref: ${name}\` names no definition${known.length ? ` (point_defs has ${known.join(', ')})` : ' (the header has no point_defs)'}`, known.length ? `Use one of: ${known.join(', ')}; or add \`${name}\` under \`point_defs:\` in the header.` : `Add it to the header:\n  point_defs:\n    ${name}: "<js expression or a point>"`);
    return null;
  }
  const common = map ? commonFields(map, where, ctx) : base(where, argNode.loc);
  if (!common) return null;
  // A broken definition was reported at the definition itself; do not repeat it at every use.
  if (defs.broken.has(name)) return null;
  const point = definitionPoint(definition, where, { ...ctx, issues: ctx.issues.silent() });
  if (!point) return null;
  const own = map ? { weight: getFirst(map, POINT_FIELDS.weight.spellings), citation: get(map, 'citation'), gate: get(map, 'gate') } : {};
  return {
    ...point,
    weight: own.weight ? common.weight : point.weight,
    citation: own.citation ? common.citation : point.citation,
    gate: own.gate ? common.gate : point.gate,
    loc: common.loc,
  };
}

/** A definition of `point_defs` as a point: a string is `$js` code, a mapping is any point form. */
export function definitionPoint(node: YNode, where: Where, ctx: PointsContext): Point | null {
  if (node.kind === 'scalar' && typeof node.value === 'string') {
    return buildFunctionPoint({ written: 'js', args: node.value, argsNode: node, loc: node.loc }, base(where, node.loc), ctx.resolve, ctx.issues);
  }
  if (node.kind === 'map') {
    if (node.entries.some((e) => e.key === '$ref') || str(get(node, 'fn'))?.replace(/^\$/, '') === 'ref') {
      ctx.issues.error(node.loc, 'unknown_ref', 'a definition cannot itself be a `$ref`', 'Write the point itself under this name.');
      return null;
    }
    return mappingPoint(node, where, ctx);
  }
  ctx.issues.error(node.loc, 'schema', `a point definition must be a string (JavaScript for $js) or a point mapping, not ${describe(node)}`, 'For example `point_defs:\\n  scoreBand: "return /SCORE=9/.test(r)"` or `  mentionsLaw: { point: "Cites the statute", weight: 2 }`.');
  return null;
}
