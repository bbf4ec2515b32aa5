/**
 * One prompt: its conversation, its fields with Weval's aliases, its points
 * (`should` and its aliases, `should_not`, `correct:`), and Assay's case fields. The id is
 * assigned later (`assignIds`), once every prompt is normalised, because a missing id is a
 * hash of the normalised prompt and duplicates are found across the whole blueprint.
 */
import { caseFields, CASE_KEYS, expectOf, isSoevExpect } from './case-fields';
import { correctPoint } from './correct-block';
import { criteriaList } from './criterion-points';
import type { Issues } from './errors';
import { booleanOf, renderAsOf, type Header } from './header';
import { closest } from '../points/suggest';
import { limitHint } from './limits';
import { normalizeBlock, type PointsContext } from './points';
import { describe, entry, get, getFirst, str, toJS, truthy, type YMap, type YNode } from './positions';
import { promptToolFieldsOf, TOOL_PROMPT_KEYS } from './tool-fields';
import { promptTemperatureOf } from './weval-fields';
import { PROMPT_FIELDS } from './vocabulary';
import type { Message, Point, Prompt, SourceLoc } from './schema';

/** A prompt before its id is settled: the explicit id (if any) and where it was written. */
export interface DraftPrompt {
  prompt: Omit<Prompt, 'id' | 'idSource'>;
  explicitId: string | null;
  idLoc: SourceLoc;
}

/** Weval's order: the first of these with a truthy value is the prompt's rubric. */
export const POINT_KEYS = PROMPT_FIELDS.should.spellings;

export const PROMPT_KEYS = [
  'id', ...PROMPT_FIELDS.prompt.spellings, 'messages', ...PROMPT_FIELDS.ideal.spellings, 'system', 'description', ...PROMPT_FIELDS.citation.spellings,
  ...PROMPT_FIELDS.weight.spellings, ...POINT_KEYS, 'should_not', 'criteria', 'render_as', 'noCache', 'temperature', 'correct', ...TOOL_PROMPT_KEYS, ...CASE_KEYS,
];

const ROLES = ['user', 'assistant', 'system', 'ai'] as const;

export function normalizePrompt(node: YNode, header: Header, ctx: PointsContext): DraftPrompt | null {
  const { issues } = ctx;
  if (node.kind !== 'map') {
    issues.error(node.loc, 'schema', `a prompt must be a mapping (with \`prompt:\` or \`messages:\`), not ${describe(node)}`, 'Write `- id: my-prompt\\n  prompt: "…"\\n  should:\\n    - "…"`.');
    return null;
  }
  for (const e of node.entries) {
    if (PROMPT_KEYS.includes(e.key)) continue;
    const near = issues.warningsFull ? [] : closest(e.key, PROMPT_KEYS);
    issues.warn(e.keyNode.loc, 'unknown_field', `unknown prompt field \`${e.key}\` is ignored${near.length ? `; did you mean \`${near[0]}\`?` : ''}`, near.length ? `Rename it to \`${near[0]}\`.` : `Prompt fields: ${PROMPT_KEYS.join(', ')}.`);
  }

  const idNode = get(node, 'id');
  let explicitId: string | null = null;
  if (idNode && idNode.kind === 'scalar' && (typeof idNode.value === 'string' || typeof idNode.value === 'number')) {
    // Weval hashes a falsy id ('' or 0) as if it were missing.
    explicitId = idNode.value ? String(idNode.value) : null;
  } else if (idNode && !(idNode.kind === 'scalar' && idNode.value === null)) {
    issues.error(idNode.loc, 'schema', `a prompt id must be a string, not ${describe(idNode)}`, 'Write `id: my-prompt` (letters, digits, - and _ read best in URLs).');
  }

  const messages = messagesOf(node, issues);
  const points = pointsOf(node, ctx);
  const correct = get(node, 'correct');
  if (correct && !(correct.kind === 'scalar' && correct.value === null)) {
    const point = correctPoint(correct, issues);
    if (point) points.push(point);
  }
  const expectNode = get(node, 'expect');
  const fields = caseFields(node, issues);

  // Issues are found in the order of the fields; the object is written out rather than spread
  // together (spreads were a tenth of the loader's normalising).
  const system = systemOf(node, issues);
  const ideal = idealOf(node, issues);
  const weight = weightOf(node, issues);
  const { citation, citationUrl } = citationOf(node, issues);
  const description = stringField(get(node, 'description'), 'description', issues);
  const prompt: DraftPrompt['prompt'] = {
    messages,
    ideal,
    weight,
    citation,
    citationUrl,
    description,
    points,
    repeats: fields.repeats,
    status: fields.status,
    split: fields.split,
    lineage: fields.lineage,
    category: fields.category,
    tags: fields.tags,
    variants: fields.variants,
    rule: fields.rule,
    derived_from: fields.derived_from,
    answerability: fields.answerability,
    provenance: fields.provenance,
    render_as: renderAsOf(get(node, 'render_as'), issues, 'prompt') ?? header.render_as ?? 'markdown',
    noCache: booleanOf(get(node, 'noCache'), 'noCache', issues) ?? header.noCache,
    expect: null,
    loc: node.loc,
  };
  // Only a prompt that writes `system`, `temperature` or a tool-use field carries it, so other prompts' stored shape is unchanged.
  if (system !== undefined) prompt.system = system;
  const temperature = promptTemperatureOf(node, issues);
  if (temperature !== null) prompt.temperature = temperature;
  Object.assign(prompt, promptToolFieldsOf(node, issues));
  if (expectNode && isSoevExpect(expectNode)) prompt.expect = expectOf(expectNode, issues);
  return { prompt, explicitId, idLoc: idNode?.loc ?? node.loc };
}

/** `messages` (formal `{role, content}` or shorthand `{user: …}`), else `prompt`/`promptText`. */
function messagesOf(node: YMap, issues: Issues): Message[] {
  const list = get(node, 'messages');
  const text = getFirst(node, PROMPT_FIELDS.prompt.spellings)?.node;
  if (list && !(list.kind === 'scalar' && list.value === null)) {
    if (text && truthy(text)) issues.warn(text.loc, 'suspicious', '`prompt` is ignored because `messages` is given', 'Keep one: put the text as the last `- user: "…"` message, or drop `messages`.');
    if (list.kind !== 'seq' || list.items.length === 0) {
      issues.error(list.loc, 'schema', `\`messages\` must be a non-empty list of messages, not ${describe(list)}`, 'Write `messages:\\n  - user: "…"\\n  - assistant: null   # generated\\n  - user: "…"`.');
      return [];
    }
    const out: Message[] = [];
    list.items.forEach((item, index) => {
      const message = messageOf(item, index, issues);
      if (message) out.push(message);
    });
    return out;
  }
  if (text && truthy(text)) {
    const content = str(text);
    if (content !== undefined) return [{ role: 'user', content }];
    issues.error(text.loc, 'schema', `\`prompt\` must be a string, not ${describe(text)}`, 'Quote it: `prompt: "…"`, or use a block scalar (`prompt: |`).');
    return [];
  }
  issues.error((text ?? node).loc, 'schema', text ? 'the prompt text is empty' : 'a prompt needs `prompt:` (one user turn) or `messages:` (a conversation)', 'Write `prompt: "…"`, or `messages:` with `- user: "…"` items.');
  return [];
}

function messageOf(item: YNode, index: number, issues: Issues): Message | null {
  const hint = 'Write `- user: "…"` / `- assistant: "…"` (`assistant: null` = the model writes this turn) / `- system: "…"`, or `- role: user` with `content: "…"`.';
  if (item.kind !== 'map') {
    issues.error(item.loc, 'schema', `message ${index + 1} must be a mapping, not ${describe(item)}`, hint);
    return null;
  }
  const roleEntry = entry(item, 'role');
  const contentEntry = entry(item, 'content');
  let role: string | undefined;
  let contentNode: YNode | undefined;
  let roleAt: YNode;
  if (truthy(roleEntry?.value) || truthy(contentEntry?.value)) {
    role = str(roleEntry?.value);
    roleAt = roleEntry?.value ?? item;
    contentNode = contentEntry?.value;
  } else {
    // Shorthand: exactly one key, the role.
    if (item.entries.length !== 1) {
      issues.error(item.loc, 'schema', `message ${index + 1} in the shorthand form must have exactly one key (user, assistant, ai or system); found ${item.entries.map((e) => e.key).join(', ') || 'none'}`, hint);
      return null;
    }
    role = item.entries[0]!.key;
    roleAt = item.entries[0]!.keyNode;
    contentNode = item.entries[0]!.value;
  }
  if (!role || !(ROLES as readonly string[]).includes(role)) {
    issues.error(roleAt.loc, 'schema', `invalid role ${JSON.stringify(role ?? toJS(roleAt))} in message ${index + 1}`, hint);
    return null;
  }
  const normalRole = role === 'ai' ? 'assistant' : (role as Message['role']);
  const content = contentNode === undefined ? null : contentNode.kind === 'scalar' ? contentNode.value : undefined;
  if (content === null) {
    if (normalRole === 'assistant') return { role: 'assistant', content: null };
    issues.error((contentNode ?? item).loc, 'schema', `a ${normalRole} message needs text; only an assistant turn may be null (generated by the model)`, hint);
    return null;
  }
  if (typeof content !== 'string') {
    issues.error((contentNode ?? item).loc, 'schema', `the content of message ${index + 1} must be a string, not ${contentNode ? describe(contentNode) : 'missing'}`, hint);
    return null;
  }
  return { role: normalRole, content };
}

/** The rubric: `should` or the first of its aliases; `should_not`. */
function pointsOf(node: YMap, ctx: PointsContext): Point[] {
  const written = POINT_KEYS.filter((key) => {
    const value = get(node, key);
    // soev's `expect: {behaviour, …}` mapping is not a rubric.
    return truthy(value) && !(key === 'expect' && value && isSoevExpect(value));
  });
  const shouldNot = get(node, 'should_not');
  const criteria = get(node, 'criteria');
  const blocks = [...(written.length > 0 ? [get(node, written[0]!)!] : []), ...(truthy(shouldNot) ? [shouldNot!] : []), ...(truthy(criteria) ? [criteria!] : [])];
  if (tooManyPoints(blocks, ctx)) return [];
  const points: Point[] = [];
  if (written.length > 0) {
    const key = written[0]!;
    for (const other of written.slice(1)) {
      // Weval read only the first and silently ignored the others.
      ctx.issues.error(entry(node, other)!.keyNode.loc, 'schema', `both \`${key}\` and \`${other}\` list points; only one rubric per prompt is read`, `Move these points under \`${key}\` (\`${other}\` is an alias of \`${PROMPT_FIELDS.should.name}\`).`);
    }
    for (const point of normalizeBlock(get(node, key)!, 'should', key, ctx)) points.push(point);
  }
  if (truthy(shouldNot)) for (const point of normalizeBlock(shouldNot!, 'should_not', 'should_not', ctx)) points.push(point);
  // soev's case `criteria:` (only `- kind:` entries), after the prompt's should points.
  if (truthy(criteria)) for (const point of criteriaList(criteria!, 'criteria', ctx.issues)) points.push(point);
  return points;
}

/** Counted before any point is read (a list item that is an alternative path counts its members). */
function tooManyPoints(blocks: YNode[], ctx: PointsContext): boolean {
  if (ctx.maxPoints === undefined) return false;
  let count = 0;
  for (const block of blocks) {
    if (block.kind !== 'seq') continue;
    for (const item of block.items) {
      for (const point of item.kind === 'seq' ? item.items : [item]) {
        if (++count > ctx.maxPoints) {
          ctx.issues.error(point.loc, 'limit', `this prompt has more than ${ctx.maxPoints.toLocaleString('en-US')} points; this is point ${count.toLocaleString('en-US')}`, limitHint('points per prompt', ctx.maxPoints, 'Split the criteria over several prompts.'));
          return true;
        }
      }
    }
  }
  return false;
}

/** The prompt's own system prompt, null for none, undefined when not written (or invalid). */
function systemOf(node: YMap, issues: Issues): string | null | undefined {
  const system = get(node, 'system');
  if (!system) return undefined;
  if (system.kind === 'scalar' && (system.value === null || typeof system.value === 'string')) return system.value as string | null;
  const plural = system.kind === 'seq' ? ' Did you mean `systems` (plural) in the header, for system-prompt variants?' : '';
  issues.error(system.loc, 'schema', `a prompt's \`system\` must be a string or null, not ${describe(system)}`, `Write \`system: "You are a …"\` (or \`system: null\` for none).${plural}`);
  return undefined;
}

function idealOf(node: YMap, issues: Issues): string | null {
  // Weval: `ideal || idealResponse`.
  return stringField(firstTruthyElseLast(node, PROMPT_FIELDS.ideal.spellings), 'ideal', issues);
}

/** `a || b`, as a node: the first spelling with a truthy value, else the last spelling's node. */
function firstTruthyElseLast(node: YMap, keys: readonly [string, ...string[]]): YNode | undefined {
  for (const key of keys.slice(0, -1)) {
    const value = get(node, key);
    if (truthy(value)) return value;
  }
  return get(node, keys[keys.length - 1]!);
}

function stringField(node: YNode | undefined, key: string, issues: Issues): string | null {
  if (!node || (node.kind === 'scalar' && node.value === null)) return null;
  if (node.kind === 'scalar' && typeof node.value === 'string') return node.value || null;
  issues.error(node.loc, 'schema', `\`${key}\` must be a string, not ${describe(node)}`, `Quote it: \`${key}: "…"\`, or use a block scalar (\`${key}: |\`).`);
  return null;
}

/** `weight` (aliases `importance`, `multiplier`): the prompt's weight in the blueprint's mean, 0.1–10. */
function weightOf(node: YMap, issues: Issues): number {
  const e = getFirst(node, PROMPT_FIELDS.weight.spellings);
  if (!e || (e.node.kind === 'scalar' && e.node.value === null)) return 1;
  const value = e.node.kind === 'scalar' ? e.node.value : undefined;
  if (typeof value === 'number' && value >= 0.1 && value <= 10) return value;
  issues.error(e.node.loc, 'schema', `a prompt's ${e.key} must be a number from 0.1 to 10; found ${JSON.stringify(toJS(e.node))}`, 'Weights are relative: 2 counts this prompt twice in the blueprint\'s mean.');
  return 1;
}

/**
 * `citation` (alias `reference`): a string, or `{title|name, url}` (Weval keeps the object; here
 * its title is the citation and its url is kept beside it).
 */
function citationOf(node: YMap, issues: Issues): Pick<Prompt, 'citation' | 'citationUrl'> {
  const none = { citation: null, citationUrl: null };
  const value = firstTruthyElseLast(node, PROMPT_FIELDS.citation.spellings);
  if (!value || (value.kind === 'scalar' && value.value === null)) return none;
  if (value.kind === 'scalar' && typeof value.value === 'string') return { citation: value.value || null, citationUrl: null };
  if (value.kind === 'map') {
    const title = str(get(value, 'title')) || str(get(value, 'name'));
    const url = get(value, 'url');
    if (title !== undefined && title.trim() !== '') return { citation: title, citationUrl: url && url.kind === 'scalar' && url.value !== null ? String(url.value) : null };
    issues.error(value.loc, 'schema', 'invalid citation object: missing `title` or `name` string', 'Write `citation: { title: "…", url: "https://…" }` or `citation: "…"`.');
    return none;
  }
  issues.error(value.loc, 'schema', `a prompt's citation must be a string or an object with \`title\`, not ${describe(value)}`, 'Write `citation: "…"`.');
  return none;
}
