/**
 * The header document: every field Weval reads, with Weval's aliases and checks
 * (render_as, author, references, models), plus `point_defs`. Fields Weval passes through
 * without reading are kept verbatim in `extensions`; fields nobody knows are kept there too
 * (Weval passes them through) but reported as warnings, with a "did you mean" when close.
 */
import { checkExternalServices } from './weval-fields';
import { aliasesOf, HEADER_FIELDS } from './vocabulary';
import { closest } from '../points/suggest';
import type { Issues } from './errors';
import { optionalString, stringList } from './case-fields';
import { citationReadingOf, corpusOf, CRITERIA_HEADER_KEYS, isCitationReading, messagesOf } from './criteria-header';
import { describe, entry, get, getFirst, str, toJS, type YMap, type YNode } from './positions';
import { RETRIEVAL_KEYS, retrievalBlockOf } from './retrieval-field';
import { TOOL_MODES, toolModeHint } from './tool-fields';
import { JudgeModeSchema, RenderAsSchema, type Blueprint, type ModelRef, type Reference } from './schema';

export type Header = Omit<Blueprint, 'prompts' | 'title'> & {
  /** null when the header has none; the parser fills in a fallback. */
  title: string | null;
  /** `point_defs` (alias `defs`) as nodes, for `$ref` expansion. */
  defNodes: Map<string, YNode>;
  /** `defaults:` as written (soev's suite defaults), read into points with the points context (parse.ts). */
  defaultsNode: YNode | null;
};

const RENDER_AS = RenderAsSchema.options;

/** Read by Assay (header.ts or prompts). */
export const READ_KEYS = [
  ...HEADER_FIELDS.id.spellings, ...HEADER_FIELDS.title.spellings, 'description', 'author', ...HEADER_FIELDS.references.spellings, 'tags', 'models',
  ...HEADER_FIELDS.system.spellings, 'systems', 'temperature', 'temperatures', ...HEADER_FIELDS.point_defs.spellings, 'tools', 'toolUse', 'evaluationConfig', 'render_as',
  'noCache', 'concurrency', 'pass_threshold', 'judge_mode', 'prompts', ...RETRIEVAL_KEYS, ...CRITERIA_HEADER_KEYS,
];
/** Weval header fields that Assay keeps but does not interpret. */
export const PASSTHROUGH_KEYS = ['embeddingModel', 'context', 'externalServices', 'judges'];

export function emptyHeader(): Header {
  return {
    id: null, title: null, description: null, author: null, references: [], tags: [], models: [], system: null, systems: [], temperature: null,
    temperatures: null, render_as: null, tools: null, toolUse: null, evaluationConfig: null, point_defs: null, concurrency: null, noCache: null, pass_threshold: null, judge_mode: null,
    retrieval: null, citation_reading: null, messages: {}, corpus: null,
    extensions: {}, headerKeys: [], defNodes: new Map(), defaultsNode: null,
  };
}

export function normalizeHeader(map: YMap | null, issues: Issues): Header {
  const header = emptyHeader();
  if (!map) return header;
  header.headerKeys = map.entries.map((e) => e.key);

  // Weval: `id || configId`, `title || configTitle`, `system || systemPrompt` (vocabulary.ts).
  header.id = optionalString(firstTruthy(map, HEADER_FIELDS.id.spellings), 'id', issues);
  header.title = optionalString(firstTruthy(map, HEADER_FIELDS.title.spellings), 'title', issues);
  header.description = optionalString(get(map, 'description'), 'description', issues);
  header.author = authorOf(get(map, 'author'), issues);
  header.references = referencesOf(map, issues);
  header.tags = stringList(get(map, 'tags'), 'tags', issues);
  header.models = modelsOf(get(map, 'models'), issues);
  systemsOf(map, header, issues);
  temperaturesOf(map, header, issues);
  header.render_as = renderAsOf(get(map, 'render_as'), issues, 'global');
  header.noCache = booleanOf(get(map, 'noCache'), 'noCache', issues);
  header.concurrency = concurrencyOf(get(map, 'concurrency'), issues);
  header.pass_threshold = passThresholdOf(get(map, 'pass_threshold'), issues);
  header.tools = toolsOf(get(map, 'tools'), issues);
  header.toolUse = toolUseOf(get(map, 'toolUse'), issues);
  checkExternalServices(get(map, 'externalServices'), issues);
  header.evaluationConfig = nullable(get(map, 'evaluationConfig'));
  header.judge_mode = judgeModeOf(map, issues);
  header.retrieval = retrievalBlockOf(map, header.models, issues);
  const citations = get(map, 'citations');
  header.citation_reading = isCitationReading(citations) ? citationReadingOf(citations, issues) : null;
  header.messages = messagesOf(get(map, 'messages'), issues);
  header.corpus = corpusOf(get(map, 'corpus'), issues);
  const defaults = get(map, 'defaults');
  header.defaultsNode = defaults && !(defaults.kind === 'scalar' && defaults.value === null) ? defaults : null;

  const defs = getFirst(map, HEADER_FIELDS.point_defs.spellings)?.node;
  if (defs && !(defs.kind === 'scalar' && defs.value === null)) {
    if (defs.kind === 'map') {
      for (const e of defs.entries) header.defNodes.set(e.key, e.value);
      header.point_defs = toJS(defs) as Record<string, unknown>;
    } else {
      issues.error(defs.loc, 'schema', `\`point_defs\` must be a mapping from names to definitions, not ${describe(defs)}`, 'Write `point_defs:\\n  name: "<js code>"` or `  name: { point: "…", weight: 2 }`.');
    }
  }

  for (const e of map.entries) {
    if (READ_KEYS.includes(e.key)) continue;
    header.extensions[e.key] = toJS(e.value);
    if (PASSTHROUGH_KEYS.includes(e.key)) continue;
    const near = issues.warningsFull ? [] : closest(e.key, [...READ_KEYS, ...PASSTHROUGH_KEYS]);
    issues.warn(e.keyNode.loc, 'unknown_field', `unknown header field \`${e.key}\` (kept, but Assay does not use it)${near.length ? `; did you mean \`${near[0]}\`?` : ''}`, near.length ? `Rename it to \`${near[0]}\`.` : 'Remove it, or check the spelling against the blueprint format documentation.');
  }
  return header;
}

function firstTruthy(map: YMap, keys: readonly string[]): YNode | undefined {
  for (const key of keys) {
    const node = get(map, key);
    if (node && !(node.kind === 'scalar' && !node.value)) return node;
  }
  return undefined;
}

function nullable(node: YNode | undefined): unknown {
  return node === undefined ? null : toJS(node);
}

export function renderAsOf(node: YNode | undefined, issues: Issues, scope: 'global' | 'prompt'): Blueprint['render_as'] {
  if (!node || (node.kind === 'scalar' && node.value === null)) return null;
  const value = str(node);
  const parsed = RenderAsSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  issues.error(node.loc, 'schema', `invalid ${scope === 'global' ? 'global ' : ''}\`render_as\` value ${JSON.stringify(toJS(node))}; must be one of ${RENDER_AS.join(', ')}`, 'Write e.g. `render_as: html` for replies that are HTML/SVG.');
  return null;
}

export function booleanOf(node: YNode | undefined, key: string, issues: Issues): boolean | null {
  if (!node || (node.kind === 'scalar' && node.value === null)) return null;
  if (node.kind === 'scalar' && typeof node.value === 'boolean') return node.value;
  issues.error(node.loc, 'schema', `\`${key}\` must be true or false, not ${describe(node)}`, `Write \`${key}: true\`.`);
  return null;
}

function authorOf(node: YNode | undefined, issues: Issues): Blueprint['author'] {
  if (!node || (node.kind === 'scalar' && node.value === null)) return null;
  if (node.kind === 'scalar' && typeof node.value === 'string') return node.value;
  if (node.kind === 'map') {
    const name = str(get(node, 'name'));
    if (name !== undefined && name.trim() !== '') return toJS(node) as { name: string };
    issues.error(node.loc, 'schema', "invalid `author` object: missing `name` string", 'Write `author: { name: "Jane Doe", url: "https://…" }` or `author: "Jane Doe"`.');
    return null;
  }
  issues.error(node.loc, 'schema', `\`author\` must be a string or an object with \`name\`, not ${describe(node)}`, 'Write `author: "Jane Doe"`.');
  return null;
}

/** `reference`/`citation`/`references`/`citations` (first truthy, Weval's order): strings or `{title|name, url}`. */
function referencesOf(map: YMap, issues: Issues): Reference[] {
  // `citations:` written as a reading rule (criteria-header.ts) is not a reference.
  const node = firstTruthy(map, HEADER_FIELDS.references.spellings.filter((k) => !isCitationReading(get(map, k))));
  if (!node) return [];
  const items = node.kind === 'seq' ? node.items : [node];
  const out: Reference[] = [];
  for (const item of items) {
    if (item.kind === 'scalar' && typeof item.value === 'string') {
      out.push({ title: item.value });
      continue;
    }
    if (item.kind === 'map') {
      const title = str(get(item, 'title')) || str(get(item, 'name'));
      if (title !== undefined && title.trim() !== '') {
        const url = get(item, 'url');
        out.push(url === undefined || (url.kind === 'scalar' && url.value === null) ? { title } : { title, url: String(toJS(url)) });
        continue;
      }
      issues.error(item.loc, 'schema', 'invalid reference/citation object: missing `title` or `name` string', 'Write `- title: "Paper title"` with an optional `url:`.');
      continue;
    }
    issues.error(item.loc, 'schema', `a reference must be a string or an object with \`title\`/\`name\`, not ${describe(item)}`, 'Write `references:\\n  - "Paper title"\\n  - { title: "…", url: "https://…" }`.');
  }
  return out;
}

/**
 * `models`: `provider:model` ids, collection names (no colon, e.g. `CORE`, resolved from the
 * repository's `models/` folder), or custom model objects (Weval's required fields checked).
 */
function modelsOf(node: YNode | undefined, issues: Issues): ModelRef[] {
  if (!node || (node.kind === 'scalar' && node.value === null)) return [];
  if (node.kind !== 'seq') {
    issues.error(node.loc, 'schema', `\`models\` must be a list of model ids, collection names or custom model objects, not ${describe(node)}`, 'Write `models:\\n  - CORE\\n  - openrouter:openai/gpt-4o`.');
    return [];
  }
  const out: ModelRef[] = [];
  for (const item of node.items) {
    if (item.kind === 'scalar' && typeof item.value === 'string' && item.value.trim() !== '') {
      const id = item.value.trim();
      out.push(id.includes(':') ? { kind: 'id', id } : { kind: 'collection', name: id });
      continue;
    }
    if (item.kind === 'map') {
      const model = customModelOf(item, issues);
      if (model) out.push(model);
      continue;
    }
    issues.error(item.loc, 'schema', `a model must be a string (\`provider:model\` or a collection name) or a custom model object, not ${describe(item)}`, 'Write e.g. `- openrouter:openai/gpt-4o-mini` or `- CORE`.');
  }
  return out;
}

/**
 * Two kinds of custom model object: Weval's (`id`, `url`, `modelName`, `inherit`, optional
 * `format: chat|completions` and `headers`), and Assay's system under test over HTTP
 * (`format: openai`, or `format: custom` / a `response:` mapping), whose full spec the HTTP
 * provider adapter validates; here only its `id` and `url` are required.
 */
function customModelOf(map: YMap, issues: Issues): ModelRef | null {
  const format = get(map, 'format');
  const formatName = str(format);
  const httpEndpoint = formatName === 'openai' || formatName === 'custom' || (format === undefined && get(map, 'response') !== undefined);
  const hint = httpEndpoint
    ? 'An HTTP model needs `id` and `url` (http/https), with `format: openai` or a `response:` mapping (`format: custom`).'
    : 'A custom model needs `id`, `url`, `modelName` and `inherit` (e.g. `inherit: openai`), with optional `format: chat|completions` and `headers`; or, for your own HTTP service, `format: openai` or `format: custom` with a `response:` mapping.';
  let ok = true;
  for (const key of httpEndpoint ? ['id', 'url'] : ['id', 'url', 'modelName', 'inherit']) {
    if (str(get(map, key)) === undefined || str(get(map, key)) === '') {
      issues.error((get(map, key) ?? map).loc, 'schema', `invalid custom model: \`${key}\` is required and must be a string`, hint);
      ok = false;
    }
  }
  if (!httpEndpoint && format && !(format.kind === 'scalar' && format.value === null) && !['chat', 'completions'].includes(formatName ?? '')) {
    issues.error(format.loc, 'schema', `invalid custom model: \`format\` must be chat, completions, openai or custom, not ${JSON.stringify(toJS(format))}`, hint);
    ok = false;
  }
  const headers = get(map, 'headers');
  if (headers && headers.kind !== 'map' && !(headers.kind === 'scalar' && headers.value === null)) {
    issues.error(headers.loc, 'schema', '`headers` of a custom model must be a mapping', hint);
    ok = false;
  }
  return ok ? { kind: 'custom', id: str(get(map, 'id'))!, spec: toJS(map) as Record<string, unknown> } : null;
}

/** `system` (a string, or a list = variants), `systems` (variants), `systemPrompt` (legacy). */
function systemsOf(map: YMap, header: Header, issues: Issues): void {
  const system = get(map, 'system');
  const systems = get(map, 'systems');
  const legacy = aliasesOf(HEADER_FIELDS.system).map((key) => entry(map, key)).find((e) => e !== undefined);
  const variantsFrom = (node: YNode, key: string): (string | null)[] => {
    if (node.kind !== 'seq') return [];
    const out: (string | null)[] = [];
    for (const item of node.items) {
      if (item.kind === 'scalar' && (item.value === null || typeof item.value === 'string')) out.push(item.value as string | null);
      else issues.error(item.loc, 'schema', `each system prompt in \`${key}\` must be a string or null (no system prompt), not ${describe(item)}`, `Write \`${key}: [null, "You are a …"]\`.`);
    }
    return out;
  };
  if (system?.kind === 'seq') header.systems = variantsFrom(system, 'system');
  else if (system && system.kind === 'scalar' && (system.value === null || typeof system.value === 'string')) header.system = system.value as string | null;
  else if (system) issues.error(system.loc, 'schema', `\`system\` must be a string, null or a list of system prompts, not ${describe(system)}`, 'Write `system: "You are a …"`.');
  // Weval: `system || systemPrompt`.
  if (!header.system && legacy) header.system = optionalString(legacy.value, legacy.key, issues);
  if (systems && !(systems.kind === 'scalar' && systems.value === null)) {
    if (systems.kind !== 'seq') issues.error(systems.loc, 'schema', `\`systems\` must be a list of system prompts (null = none), not ${describe(systems)}`, 'Write `systems: [null, "You are a …"]`.');
    else {
      if (system?.kind === 'seq') issues.warn(systems.loc, 'suspicious', 'both `system` (as a list) and `systems` give system-prompt variants; `systems` is used', 'Keep one list.');
      header.systems = variantsFrom(systems, 'systems');
    }
  }
}

function temperaturesOf(map: YMap, header: Header, issues: Issues): void {
  const single = get(map, 'temperature');
  if (single && !(single.kind === 'scalar' && single.value === null)) {
    if (single.kind === 'scalar' && typeof single.value === 'number') header.temperature = single.value;
    else issues.error(single.loc, 'schema', `\`temperature\` must be a number, not ${describe(single)}`, 'Write e.g. `temperature: 0.7`, or `temperatures: [0, 0.7]` for several runs.');
  }
  const list = get(map, 'temperatures');
  if (list && !(list.kind === 'scalar' && list.value === null)) {
    if (list.kind !== 'seq') {
      issues.error(list.loc, 'schema', `\`temperatures\` must be a list of numbers, not ${describe(list)}`, 'Write e.g. `temperatures: [0, 0.7]`.');
      return;
    }
    header.temperatures = [];
    for (const item of list.items) {
      if (item.kind === 'scalar' && typeof item.value === 'number') header.temperatures.push(item.value);
      else issues.error(item.loc, 'schema', `each temperature must be a number, not ${describe(item)}`, 'Write e.g. `temperatures: [0, 0.7]`.');
    }
  }
}

function concurrencyOf(node: YNode | undefined, issues: Issues): number | null {
  if (!node || (node.kind === 'scalar' && node.value === null)) return null;
  if (node.kind === 'scalar' && typeof node.value === 'number' && Number.isInteger(node.value) && node.value >= 1) return node.value;
  issues.error(node.loc, 'schema', `\`concurrency\` must be a whole number ≥ 1, not ${JSON.stringify(toJS(node))}`, 'Write e.g. `concurrency: 5`.');
  return null;
}

/** `pass_threshold`: a number from 0 to 1 (a score, not a percentage). */
function passThresholdOf(node: YNode | undefined, issues: Issues): number | null {
  if (!node || (node.kind === 'scalar' && node.value === null)) return null;
  if (node.kind === 'scalar' && typeof node.value === 'number' && node.value >= 0 && node.value <= 1) return node.value;
  const percent = node.kind === 'scalar' && typeof node.value === 'number' && node.value > 1 && node.value <= 100;
  issues.error(
    node.loc,
    'schema',
    `\`pass_threshold\` must be a number from 0 to 1, not ${JSON.stringify(toJS(node))}`,
    percent ? `Scores run from 0 to 1: write \`pass_threshold: ${(node.value as number) / 100}\` for ${node.value}%.` : 'Write e.g. `pass_threshold: 0.8`: an attempt scoring at least 0.8 passes (pass@k, pass^k).',
  );
  return null;
}

function toolsOf(node: YNode | undefined, issues: Issues): unknown[] | null {
  if (!node || (node.kind === 'scalar' && node.value === null)) return null;
  if (node.kind !== 'seq') {
    issues.error(node.loc, 'schema', `\`tools\` must be a list of tool definitions, not ${describe(node)}`, 'Write `tools:\\n  - name: search\\n    description: "…"\\n    schema: { type: object, … }`.');
    return null;
  }
  for (const item of node.items) {
    if (toolName(item) === undefined) {
      issues.error(
        item.loc,
        'schema',
        'each tool must be a mapping with a `name` (Weval: `name`, `description`, `schema`) or an OpenAI function tool (`type: function`, `function: { name, … }`)',
        'Write `- name: search` with `description:` and a JSON-Schema `schema:`, or `- type: function` with `function: { name: search, parameters: { … } }`.',
      );
    }
  }
  return toJS(node) as unknown[];
}

/**
 * A tool's name: Weval's `{ name, description, schema }`, or the OpenAI function-tool shape
 * `{ type: function, function: { name, … } }` that the provider adapters send as is.
 */
function toolName(item: YNode): string | undefined {
  if (item.kind !== 'map') return undefined;
  const fn = get(item, 'function');
  return str(get(item, 'name')) ?? (fn?.kind === 'map' ? str(get(fn, 'name')) : undefined);
}

/**
 * `toolUse: { enabled, mode, maxSteps, maxCalls, outputFormat }`. Weval accepts only
 * `mode: trace-only` (calls written as TOOL_CALL lines in the reply, no tools sent); Assay also
 * accepts its own `native` (tools sent in each provider's shape). See tool-fields.ts.
 */
function toolUseOf(node: YNode | undefined, issues: Issues): unknown {
  if (!node) return null;
  if (node.kind === 'scalar' && node.value === null) return null;
  if (node.kind !== 'map') {
    issues.error(node.loc, 'schema', `\`toolUse\` must be a mapping, not ${describe(node)}`, 'Write `toolUse: { enabled: true, mode: trace-only, maxSteps: 4 }`.');
    return null;
  }
  const mode = entry(node, 'mode');
  if (mode && !(TOOL_MODES as readonly unknown[]).includes(str(mode.value))) {
    issues.error(mode.value.loc, 'schema', `\`toolUse.mode\` must be trace-only or native, not ${JSON.stringify(toJS(mode.value))}`, toolModeHint(toJS(mode.value)));
  }
  for (const key of ['maxSteps', 'maxCalls']) {
    const limit = get(node, key);
    if (limit && !(limit.kind === 'scalar' && typeof limit.value === 'number' && Number.isInteger(limit.value) && limit.value >= 1)) {
      issues.error(limit.loc, 'schema', `\`toolUse.${key}\` must be a whole number ≥ 1`, `Write e.g. \`${key}: 4\`.`);
    }
  }
  return toJS(node);
}

const JUDGE_MODE_HINT = '`per-point` (the default) asks each judged point in its own judge call; `batched` asks all judged points of a reply in one call per judge (at most 10 questions per call).';

function judgeModeValue(node: YNode | undefined, where: string, issues: Issues): Blueprint['judge_mode'] {
  if (!node || (node.kind === 'scalar' && node.value === null)) return null;
  const parsed = JudgeModeSchema.safeParse(node.kind === 'scalar' ? node.value : undefined);
  if (parsed.success) return parsed.data;
  issues.error(node.loc, 'schema', `\`${where}\` must be per-point or batched, not ${node.kind === 'scalar' ? JSON.stringify(node.value) : describe(node)}`, JUDGE_MODE_HINT);
  return null;
}

/**
 * `judge_mode` (header) or `evaluationConfig: { llm-coverage: { judge_mode } }` (the judge set's
 * own setting, beside its `judges`). The header's wins; the two disagreeing is a warning.
 */
function judgeModeOf(map: YMap, issues: Issues): Blueprint['judge_mode'] {
  const headerNode = get(map, 'judge_mode');
  const own = judgeModeValue(headerNode, 'judge_mode', issues);
  const config = get(map, 'evaluationConfig');
  const coverage = config?.kind === 'map' ? get(config, 'llm-coverage') : undefined;
  const setNode = coverage?.kind === 'map' ? get(coverage, 'judge_mode') : undefined;
  const ofSet = judgeModeValue(setNode, "evaluationConfig['llm-coverage'].judge_mode", issues);
  if (own && ofSet && own !== ofSet && headerNode) {
    issues.warn(headerNode.loc, 'suspicious', `\`judge_mode: ${own}\` differs from the judge set's \`judge_mode: ${ofSet}\` under evaluationConfig; the header's is used`, 'Keep one of the two.');
  }
  return own ?? ofSet;
}
