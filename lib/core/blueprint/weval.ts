/**
 * The normalised blueprint seen as Weval's `parseAndNormalizeBlueprint` output
 * (`ComparisonConfig`): nested point arrays of `{text|fn, fnArgs, multiplier, citation}`,
 * `should_not` with un-negated functions, `render_as` on every prompt, header fields under
 * the spelling the author used.
 *
 * Two uses: a prompt without an id gets Weval's hash of this shape (ids.ts), so its id matches
 * Weval's; and the conformance tests compare this projection with the vectors recorded from
 * Weval, which shows that the normalised blueprint means what Weval understood.
 *
 * Assay-only content (judge questions, `correct:`, gates, case fields) has no Weval form; it
 * is projected under Assay-specific keys so that it still counts in a prompt's hash.
 */
import { NOT } from './functions';
import type { Blueprint, ModelRef, Point, Prompt } from './schema';

type Json = Record<string, unknown>;

export function wevalBlueprint(bp: Blueprint): Json {
  const keys = new Set(bp.headerKeys);
  const has = (...names: string[]) => names.some((n) => keys.has(n));
  const out: Json = {};
  // Header fields as written (Weval spreads the header into its output)…
  for (const [key, value] of Object.entries(bp.extensions)) out[key] = value;
  if (bp.id) out.id = bp.id;
  if (has('title', 'configTitle') && bp.title) out.title = bp.title;
  if (bp.description !== null) out.description = bp.description;
  if (bp.author !== null) out.author = bp.author;
  if (has('reference', 'references', 'citation', 'citations')) out.references = bp.references;
  if (has('tags')) out.tags = bp.tags;
  if (has('models')) out.models = bp.models.map(wevalModel);
  // `system` as a list is Weval's spelling of variants; `systems` is the other one.
  if (has('systems')) out.systems = bp.systems;
  // Weval: `system || systemPrompt`, so a falsy `system` without `systemPrompt` disappears.
  if (keys.has('system') && bp.systems.length > 0 && !has('systems')) out.system = bp.systems;
  else if (bp.system || keys.has('systemPrompt')) out.system = bp.system;
  if (has('temperature')) out.temperature = bp.temperature;
  if (has('temperatures')) out.temperatures = bp.temperatures;
  if (bp.render_as !== null) out.render_as = bp.render_as;
  if (bp.tools !== null) out.tools = bp.tools;
  if (has('toolUse')) out.toolUse = bp.toolUse;
  if (has('evaluationConfig')) out.evaluationConfig = bp.evaluationConfig;
  if (keys.has('point_defs') && bp.point_defs !== null) out.point_defs = bp.point_defs;
  if (bp.concurrency !== null) out.concurrency = bp.concurrency;
  if (bp.noCache !== null) out.noCache = bp.noCache;
  // Weval passes header fields it does not read through, so the threshold survives an export.
  if (bp.pass_threshold !== null) out.pass_threshold = bp.pass_threshold;
  // Only the header's own `judge_mode`; the judge set's stays inside `evaluationConfig`.
  if (keys.has('judge_mode') && bp.judge_mode !== null) out.judge_mode = bp.judge_mode;
  // …and so would the retrieval block, under the spelling used, in its written form.
  if (bp.retrieval !== null) {
    const { corpus, queries, qrels, metrics, models, thresholds, primaryMetric } = bp.retrieval;
    out[keys.has('retrieval_config') ? 'retrieval_config' : 'retrieval'] = {
      corpus, queries, qrels,
      metrics: metrics.map((m) => m.label),
      models: models.map((m) => m.id),
      ...(thresholds ? { thresholds: { min: thresholds.min, warn_margin: thresholds.warnMargin } } : {}),
      primary_metric: primaryMetric,
    };
  }
  out.prompts = bp.prompts.map((p) => wevalPrompt(p));
  return out;
}

function wevalModel(model: ModelRef): unknown {
  if (model.kind === 'id') return model.id;
  if (model.kind === 'collection') return model.name;
  return model.spec;
}

/** One prompt in Weval's shape; `withId: false` gives the object Weval hashes for a missing id. */
export function wevalPrompt(p: Omit<Prompt, 'id' | 'idSource'> & { id?: string }, withId = true): Json {
  const out: Json = { messages: p.messages.map((m) => ({ role: m.role, content: m.content })) };
  if (withId && p.id !== undefined) out.id = p.id;
  if (p.description !== null) out.description = p.description;
  if (p.ideal !== null) out.idealResponse = p.ideal;
  if (p.system !== undefined) out.system = p.system;
  if (p.citation !== null) out.citation = p.citationUrl !== null ? { title: p.citation, url: p.citationUrl } : p.citation;
  // Weval keeps `weight` only when written; 1 is the default, so it reads the same.
  if (p.weight !== 1) out.weight = p.weight;
  const should = p.points.filter((pt) => pt.source === 'should');
  const shouldNot = p.points.filter((pt) => pt.source === 'should_not');
  if (should.length > 0) out.points = nest(should);
  if (shouldNot.length > 0) out.should_not = nest(shouldNot);
  out.render_as = p.render_as ?? 'markdown';
  if (p.noCache !== null) out.noCache = p.noCache;
  // Weval keeps these on the prompt when written, so they count in its hash of the prompt.
  if (p.requiredTools !== undefined) out.requiredTools = p.requiredTools;
  if (p.prohibitedTools !== undefined) out.prohibitedTools = p.prohibitedTools;
  if (p.maxCalls !== undefined) out.maxCalls = p.maxCalls;
  const assay = assayFields(p);
  if (assay) out.assay = assay;
  return out;
}

/** Required points stay in place; consecutive points of one alternative path become one inner list. */
function nest(points: Point[]): unknown[] {
  const out: unknown[] = [];
  let group: { path: string; items: unknown[] } | null = null;
  for (const point of points) {
    if (point.path === null) {
      group = null;
      out.push(wevalPoint(point));
      continue;
    }
    if (!group || group.path !== point.path) {
      group = { path: point.path, items: [] };
      out.push(group.items);
    }
    group.items.push(wevalPoint(point));
  }
  return out;
}

export function wevalPoint(point: Point): Json {
  const out: Json = {};
  if (point.kind === 'text') out.text = point.text;
  else if (point.kind === 'function') {
    // Weval keeps should_not functions positive and inverts the score; Assay stores the `not_` form.
    out.fn = point.source === 'should_not' ? flipNegation(point.fn) : point.fn;
    if (point.args !== undefined) out.fnArgs = point.args;
  } else if (point.kind === 'question') out.question = point.question;
  else if (point.kind === 'correct') out.correct = point.check;
  else out.criterion = { kind: point.criterion, params: point.params };
  out.multiplier = point.weight;
  if (point.citation !== null) out.citation = point.citation;
  if (point.gate) out.gate = true;
  return out;
}

export function flipNegation(fn: string): string {
  return fn.startsWith(NOT) ? fn.slice(NOT.length) : NOT + fn;
}

/**
 * The Assay case fields that change what a prompt asks or how it is graded (absent for every
 * Weval blueprint). Labels and run settings (tags, category, lineage, status, split, repeats)
 * are left out on purpose: Weval ignores a prompt's `tags`, and relabelling a prompt must not
 * change its hash id.
 */
function assayFields(p: Omit<Prompt, 'id' | 'idSource'>): Json | null {
  const out: Json = {};
  if (p.variants.length > 0) out.variants = p.variants;
  if (p.expect !== null) out.expect = p.expect;
  return Object.keys(out).length > 0 ? out : null;
}
