/**
 * Every vector recorded from Weval's own point functions (point-function-cases.json of the
 * conformance vectors, Weval commit 51dc4d3; outside the repository, see testing/outside-data.ts) runs here through
 * the same path scoring uses: resolvePointFunction → evaluatePoint.
 *
 * Weval's result maps to an Assay outcome: true → score 1, false → score 0, a number → that
 * score clamped to [0,1], { score, explain } → that score, { error } → an error outcome (the
 * text is Weval's, so only the kind is compared). Where Assay deliberately differs, the vector
 * is named in DIFFERENCES with the Assay result and the reason (the "Point functions" section of
 * docs/compatibility.md lists the same names). No vector is skipped; the network functions Weval's recorder did not
 * exercise are asserted to be listed in the file and are tested against a fake port elsewhere.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { conformanceText, needsConformance, WEVAL_CONFORMANCE } from '@/testing/outside-data';
import { evaluatePoint } from './evaluate';
import { resolvePointFunction } from './registry';
import { createQuickJsSandbox, type QuickJsSandbox } from './sandbox/quickjs';
import type { FnOutcome, PointContext, ToolCall } from './types';
import type { Message } from '../blueprint/schema';

interface WevalCase {
  fn: string;
  implementation: string;
  args?: unknown;
  response: string;
  context: { modelId?: string; prompt?: { messages?: Message[]; __modelResponse?: { toolCalls?: ToolCall[] } } };
  result: unknown;
  source: string;
}

interface VectorFile {
  registry: Record<string, string>;
  name_resolution: Record<string, { parsed_fn: string; registered: boolean }>;
  network_functions_skipped: Record<string, string>;
  counts: { cases: number };
  cases: WevalCase[];
}

/** The file writes non-finite numbers as {"$number": "NaN"}. */
function decodeNumbers(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 1 && '$number' in value) {
    return Number((value as { $number: string }).$number);
  }
  return value;
}

// Read by the test kit at run time (lib/core code does no I/O of its own); no vectors without the folder, and the suites skip.
const NO_VECTORS = '{"registry": {}, "name_resolution": {}, "network_functions_skipped": {}, "counts": {"cases": 0}, "cases": []}';
const vectors = JSON.parse(conformanceText('point-function-cases.json') ?? NO_VECTORS, decodeNumbers) as VectorFile;

/** Stable names: `<fn>#<n>`, n counting that function's vectors in file order from 1. */
const named: { name: string; vector: WevalCase }[] = (() => {
  const seen = new Map<string, number>();
  return vectors.cases.map((vector) => {
    const n = (seen.get(vector.fn) ?? 0) + 1;
    seen.set(vector.fn, n);
    return { name: `${vector.fn}#${n}`, vector };
  });
})();

type Expected = { score: number } | { error: true };

function fromWeval(result: unknown): Expected | { nan: true } {
  if (typeof result === 'boolean') return { score: result ? 1 : 0 };
  if (typeof result === 'number') return Number.isNaN(result) ? { nan: true } : { score: Math.max(0, Math.min(1, result)) };
  if (result && typeof result === 'object' && 'error' in result) return { error: true };
  if (result && typeof result === 'object' && 'score' in result) {
    const score = (result as { score: unknown }).score;
    return { score: typeof score === 'boolean' ? (score ? 1 : 0) : Math.max(0, Math.min(1, score as number)) };
  }
  throw new Error(`unexpected recorded result ${JSON.stringify(result)}`);
}

/**
 * Vectors where Assay deliberately returns something else. Empty today: every recorded vector
 * of this file is matched (the known defects of README items 10–12 have no vector in this
 * file; the Assay-side vectors for them are in ASSAY_FIXES below). An entry here must name a
 * real vector and its Weval result must really differ from `assay`.
 */
const DIFFERENCES: Record<string, { assay: Expected; reason: string }> = {};

function outcomeKind(outcome: FnOutcome): Expected {
  return 'error' in outcome ? { error: true } : { score: outcome.score };
}

let sandbox: QuickJsSandbox;
beforeAll(async () => {
  sandbox = await createQuickJsSandbox();
});

function contextOf(vector: WevalCase): PointContext {
  return {
    modelId: vector.context.modelId,
    messages: vector.context.prompt?.messages,
    toolCalls: vector.context.prompt?.__modelResponse?.toolCalls,
    sandbox,
  };
}

describe.skipIf(!WEVAL_CONFORMANCE)(needsConformance('Weval point-function vectors'), () => {
  it('has every vector the file declares, each with a unique name', () => {
    expect(named).toHaveLength(vectors.counts.cases);
    expect(new Set(named.map((n) => n.name)).size).toBe(named.length);
  });

  it('names only real vectors whose Weval result really differs in DIFFERENCES', () => {
    for (const [name, { assay }] of Object.entries(DIFFERENCES)) {
      const entry = named.find((n) => n.name === name);
      expect(entry, name).toBeDefined();
      expect(fromWeval(entry!.vector.result)).not.toEqual(assay);
    }
  });

  it.each(named)('$name', async ({ name, vector }) => {
    const resolved = resolvePointFunction(vector.fn);
    if (!resolved.ok) throw new Error(resolved.message);
    const outcome = await evaluatePoint(resolved, vector.response, vector.args, contextOf(vector));
    const expected = DIFFERENCES[name]?.assay ?? fromWeval(vector.result);
    if ('nan' in expected) throw new Error(`${name}: Weval returned NaN; list the vector in DIFFERENCES with Assay's result`);
    expect(outcomeKind(outcome), `${vector.source}\n${JSON.stringify(outcome)}`).toEqual(expected);
    // The explanation Weval's js returned becomes the detail.
    const explain = (vector.result as { explain?: unknown } | null)?.explain;
    if (typeof explain === 'string' && !('error' in outcome)) expect(outcome.detail).toBe(explain);
  });
});

describe.skipIf(!WEVAL_CONFORMANCE)(needsConformance('Weval names'), () => {
  /** Spellings Weval rejected (unknown at scoring time) that Assay accepts, and why. */
  const EXTENSIONS: Record<string, string> = {
    start_with: 'the singular form Weval accepts for every other function (istart_with is registered there)',
    end_with: 'the singular form Weval accepts for every other function (iend_with is registered there)',
    imatches_all_of: 'the regular plural spelling; Weval only registered imatch_all_of',
    imatches_at_least_n_of: 'the regular plural spelling; Weval only registered imatch_at_least_n_of',
    not_contains_at_least_n_of: 'generic negation: 1 − score of a negatable function',
    not_word_count_between:
      'generic negation: Weval itself scores `should_not: $word_count_between` as 1 − score, which Assay stores as not_word_count_between',
  };

  const key = (written: string) => {
    const r = resolvePointFunction(written);
    return r.ok ? `${r.negated ? 'not ' : ''}${r.canonical}` : `error: ${r.message}`;
  };

  it.each(Object.entries(vectors.registry))('registry name %s resolves like Weval’s implementation %s', (name, implementation) => {
    expect(key(name)).not.toMatch(/^error/);
    expect(key(name)).toBe(key(implementation));
  });

  it.each(Object.entries(vectors.name_resolution))('written $%s', (written, { parsed_fn, registered }) => {
    const resolution = resolvePointFunction(`$${written}`);
    if (registered) {
      expect(resolution.ok, written).toBe(true);
      expect(key(written)).toBe(key(parsed_fn));
    } else if (written in EXTENSIONS) {
      expect(resolution.ok, written).toBe(true);
    } else {
      // Weval dropped the point at scoring time; Assay refuses the blueprint at load time.
      expect(resolution.ok, written).toBe(false);
      if (!resolution.ok) expect(resolution.suggestions.length, resolution.message).toBeGreaterThan(0);
    }
  });

  it('lists every extension among the spellings Weval rejected', () => {
    for (const name of Object.keys(EXTENSIONS)) {
      const entry = vectors.name_resolution[name];
      if (entry) expect(entry.registered, name).toBe(false);
    }
  });

  it('declares call and factcheck as not exercised by the recorder, and Assay defines both', () => {
    expect(Object.keys(vectors.network_functions_skipped).sort()).toEqual(['call', 'factcheck']);
    expect(vectors.cases.some((c) => c.fn === 'call' || c.fn === 'factcheck')).toBe(false);
    for (const name of ['call', 'external', 'factcheck']) expect(resolvePointFunction(name).ok, name).toBe(true);
  });
});
