/**
 * A prompt's `correct:` block: an `any`/`all`/`not` tree of assertions over the
 * response view, yielding one pass/fail point. `weight`, `gate` and `citation` may sit at the
 * top of the block next to the tree; everything else is the tree, validated by the correct
 * module's schema with the position of the offending node, and its regexes compiled now.
 *
 *   correct:
 *     gate: true
 *     any:
 *       - assertions:
 *           - { type: jsonpath_equals, path: "$.tool_calls[0].name", value: useTools }
 */
import { checkPattern, compileJsonPath } from '../untrusted';
import { CorrectNodeSchema, type CorrectNode } from '../correct/schema';
import type { Issues } from './errors';
import { describe, nodeAt, toJS, type YNode } from './positions';
import type { CorrectPoint, SourceLoc } from './schema';

const POINT_KEYS = ['weight', 'gate', 'citation'];

export function correctPoint(node: YNode, issues: Issues): CorrectPoint | null {
  if (node.kind !== 'map') {
    issues.error(node.loc, 'invalid_correct', `\`correct\` must be a mapping with \`any\`, \`all\`, \`not\` or \`assertions\`, not ${describe(node)}`, EXAMPLE);
    return null;
  }
  const treeNode: YNode = { ...node, entries: node.entries.filter((e) => !POINT_KEYS.includes(e.key)) };
  let ok = true;
  let weight = 1;
  let gate = false;
  let citation: string | null = null;
  const bad = (at: YNode, message: string, hint: string) => {
    ok = false;
    issues.error(at.loc, 'invalid_correct', message, hint);
  };
  for (const e of node.entries) {
    const v = e.value.kind === 'scalar' ? e.value.value : undefined;
    if (e.key === 'weight') {
      if (typeof v === 'number' && v > 0) weight = v;
      else bad(e.value, `\`correct\` weight must be a positive number, not ${describe(e.value)}`, 'Write e.g. `weight: 2`.');
    } else if (e.key === 'gate') {
      if (typeof v === 'boolean') gate = v;
      else bad(e.value, `\`gate\` must be true or false, not ${describe(e.value)}`, 'Write `gate: true` to make a failed check zero the attempt.');
    } else if (e.key === 'citation') {
      if (typeof v === 'string') citation = v;
      else bad(e.value, `\`citation\` must be a string, not ${describe(e.value)}`, 'Write the source as text.');
    }
  }
  const parsed = CorrectNodeSchema.safeParse(toJS(treeNode));
  if (!parsed.success) {
    // A union reports its deepest branch in `errors`; find the issue that points furthest in.
    const issue = deepestIssue(parsed.error.issues);
    const at = nodeAt(treeNode, issue.path);
    issues.error(at.loc, 'invalid_correct', `invalid \`correct\` block: ${issue.message}${issue.path.length ? ` (at ${issue.path.join('.')})` : ''}`, EXAMPLE);
    return null;
  }
  if (!checkRegexes(parsed.data, treeNode, [], issues)) ok = false;
  if (!ok) return null;
  const name = (parsed.data as { name?: string }).name;
  return { kind: 'correct', text: name ?? 'correct', weight, citation, path: null, source: 'should', gate, loc: node.loc as SourceLoc, check: parsed.data };
}

interface ZodIssueLike {
  message: string;
  path: PropertyKey[];
  errors?: ZodIssueLike[][];
}

function deepestIssue(list: readonly ZodIssueLike[]): { message: string; path: PropertyKey[] } {
  let best = { message: list[0]?.message ?? 'invalid', path: (list[0]?.path ?? []) as PropertyKey[] };
  const visit = (issues: readonly ZodIssueLike[], prefix: PropertyKey[]) => {
    for (const issue of issues) {
      const path = [...prefix, ...issue.path];
      if (path.length > best.path.length) best = { message: issue.message, path };
      for (const branch of issue.errors ?? []) visit(branch, path);
    }
  };
  visit(list, []);
  return best;
}

function checkRegexes(tree: CorrectNode, node: YNode, path: PropertyKey[], issues: Issues): boolean {
  let ok = true;
  const here = tree as Record<string, unknown>;
  for (const key of ['any', 'all', 'assertions'] as const) {
    const children = here[key];
    if (Array.isArray(children)) children.forEach((child, i) => (ok = checkRegexes(child as CorrectNode, node, [...path, key, i], issues) && ok));
  }
  if (here.not && typeof here.not === 'object') ok = checkRegexes(here.not as CorrectNode, node, [...path, 'not'], issues) && ok;
  if (typeof here.type === 'string' && typeof here.path === 'string') {
    // RFC 9535 JSONPath; a path written for jsonpath-plus (Weval) is refused with what to write instead.
    const compiled = compileJsonPath(here.path);
    if (!compiled.ok) {
      issues.error(nodeAt(node, [...path, 'path']).loc, 'invalid_correct', compiled.message, 'Write an RFC 9535 JSONPath, e.g. $.tool_calls[0].name or $.tool_calls[?search(@.name, \'weather\')] (see docs/criteria.md, `correct:`).');
      ok = false;
    }
  }
  if ((here.type === 'regex' || here.type === 'jsonpath_regex') && typeof here.pattern === 'string') {
    const compiled = checkPattern(here.pattern, false, typeof here.flags === 'string' ? here.flags : '');
    if (!compiled.ok) {
      issues.error(nodeAt(node, [...path, 'pattern']).loc, 'invalid_regex', compiled.message, 'Fix the regular expression (JavaScript syntax; a leading (?i) or the `flags` field sets flags).');
      ok = false;
    }
  }
  return ok;
}

const EXAMPLE =
  'Example:\n  correct:\n    any:\n      - assertions:\n          - { type: jsonpath_equals, path: "$.tool_calls[0].name", value: search }\n      - { type: regex, path: "$.content", pattern: "^Done" }';
