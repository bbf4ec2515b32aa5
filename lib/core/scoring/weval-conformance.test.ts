/**
 * Weval conformance: every vector of `conformance/weval/aggregation-cases.json` (recorded
 * from Weval's own `aggregateCoverageScores` and `evaluateFunctionPoints`) runs here.
 *
 * Weval's assessments are mapped into Assay verdicts (coverageExtent → score, multiplier →
 * weight, pathId → path, isInverted → should_not, error or missing coverageExtent → status
 * `error`) and scored with `attemptScore`; function points run through
 * `evaluateDeterministicPoint` with the real registry. Where Assay deliberately differs, the
 * vector is named in DELIBERATE_DIFFERENCES below with our value and the reason, and
 * the "Scoring" section of docs/compatibility.md lists the same vectors.
 */
import { describe, expect, it } from 'vitest';
import type { FunctionPoint, Message } from '../blueprint/schema';
import { judgeScaleQuestion } from '../judging/scale';
import { resolvePointFunction } from '../points/registry';
import { attemptScore, type AttemptScore } from './attempt';
import { evaluateDeterministicPoint } from './deterministic';
import { VerdictSchema, type Verdict } from './verdict';
// The conformance vectors are outside the repository; the test kit reads them at run time
// (lib/core code does no I/O of its own), and the suite skips without them.
import { conformanceText, needsConformance, WEVAL_CONFORMANCE } from '@/testing/outside-data';

interface Assessment {
  keyPointText: string;
  coverageExtent?: number | null;
  multiplier?: number;
  pathId?: string;
  isInverted?: boolean;
  error?: string;
  reflection?: string;
  citation?: string;
}
interface NormalizedPoint {
  id: string;
  displayText: string;
  isFunction: boolean;
  functionName: string;
  functionArgs?: unknown;
  isInverted: boolean;
  multiplier: number;
  pathId?: string;
  citation?: string;
}
type Case =
  | { kind: 'aggregateCoverageScores'; name: string; input: { assessments: Assessment[] }; output: number }
  | {
      kind: 'evaluateFunctionPoints';
      name: string;
      input: { points: NormalizedPoint[]; responseText: string; context: { modelId?: string; prompt?: { messages?: Message[] } } };
      output: Assessment[];
    };

/** The file's encoding: `{"$number": "NaN"}` for non-finite numbers; undefined keys omitted. */
function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (Object.keys(o).length === 1 && typeof o.$number === 'string') return Number(o.$number);
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, decode(v)]));
  }
  return value;
}

const file = decode(JSON.parse(conformanceText('aggregation-cases.json') ?? '{"cases": [], "counts": {"cases": 0}}')) as { cases: Case[]; counts: { cases: number } };
const key = (c: Pick<Case, 'kind' | 'name'>) => `${c.kind} :: ${c.name}`;

/** Weval's assessment as the Assay verdict it stands for. coverageExtent is already after should_not inversion. */
function verdictFromAssessment(a: Assessment, index: number): Verdict {
  const policy = {
    pointIndex: index,
    kind: 'text' as const,
    text: a.keyPointText,
    weight: a.multiplier ?? 1,
    gate: false,
    path: a.pathId ?? null,
    source: a.isInverted ? ('should_not' as const) : ('should' as const),
    spec: { kind: 'judge' as const, question: judgeScaleQuestion(a.keyPointText) },
    reasoning: a.reflection ?? null,
  };
  const ce = a.coverageExtent;
  if (a.error !== undefined || ce === undefined || ce === null || Number.isNaN(ce)) {
    return VerdictSchema.parse({ ...policy, status: 'error', score: null, rawScore: null, detail: a.error ?? 'no score recorded' });
  }
  const raw = a.isInverted ? 1 - ce : ce;
  return VerdictSchema.parse({ ...policy, status: ce >= 0.5 ? 'pass' : 'fail', score: ce, rawScore: raw, detail: '' });
}

/**
 * The vectors where Assay deliberately gives another answer than Weval, with ours.
 * Keep in step with the "Scoring" section of docs/compatibility.md.
 */
const DELIBERATE_DIFFERENCES: Record<string, { weval: number; ours: Partial<AttemptScore>; reason: string }> = {
  'aggregateCoverageScores :: test: aggregateCoverageScores > should return 0 for an empty array of assessments': {
    weval: 0,
    ours: { score: 1, noApplicable: true, errors: 0 },
    reason: 'SPEC §3 / seed 004: no applicable verdict → 1 (nothing applicable was left to fail), flagged',
  },
  'aggregateCoverageScores :: test: aggregateCoverageScores > should return 0 if all assessments have undefined scores': {
    weval: 0,
    ours: { score: null, noApplicable: false, errors: 2 },
    reason: 'defect 9: every point errored → no score, not 0',
  },
  'aggregateCoverageScores :: test: aggregateCoverageScores > Alternative Paths (OR logic) > should return 0 if all alternative paths have undefined scores': {
    weval: 0,
    ours: { score: null, noApplicable: false, errors: 2 },
    reason: 'defect 9: every point errored → no score, not 0',
  },
  'aggregateCoverageScores :: test: LLMCoverageEvaluator > should handle an unknown point function gracefully': {
    weval: 0,
    ours: { score: null, noApplicable: false, errors: 1 },
    reason: 'defect 9: the only point errored (unknown function) → no score, not 0',
  },
};

describe.skipIf(!WEVAL_CONFORMANCE)(needsConformance('Weval aggregation vectors'), () => {
  it('has every vector, each with a unique name per kind', () => {
    expect(file.cases).toHaveLength(file.counts.cases);
    expect(new Set(file.cases.map(key)).size).toBe(file.cases.length);
  });

  it('names only vectors that exist in the difference table', () => {
    const names = new Set(file.cases.map(key));
    for (const name of Object.keys(DELIBERATE_DIFFERENCES)) expect(names.has(name), name).toBe(true);
  });

  const aggregate = file.cases.filter((c): c is Extract<Case, { kind: 'aggregateCoverageScores' }> => c.kind === 'aggregateCoverageScores');
  describe.each(aggregate.map((c) => [c.name, c] as const))('aggregateCoverageScores: %s', (_name, c) => {
    const ours = attemptScore(c.input.assessments.map(verdictFromAssessment));
    const difference = DELIBERATE_DIFFERENCES[key(c)];
    if (difference) {
      it(`deliberately differs (${difference.reason})`, () => {
        expect(c.output).toBe(difference.weval);
        expect(ours).toMatchObject(difference.ours);
      });
    } else {
      it('matches Weval to the bit', () => {
        expect(ours.score).toBe(c.output);
      });
    }
  });

  const functions = file.cases.filter((c): c is Extract<Case, { kind: 'evaluateFunctionPoints' }> => c.kind === 'evaluateFunctionPoints');
  describe.each(functions.map((c) => [c.name, c] as const))('evaluateFunctionPoints: %s', (_name, c) => {
    it('gives the same score, weight, path and error', async () => {
      expect(DELIBERATE_DIFFERENCES[key(c)]).toBeUndefined();
      const verdicts = await Promise.all(
        c.input.points.map(async (np, i) => {
          // What the parser would store: arguments validated by the function's own schema, and a
          // should_not function (Weval's `isInverted`) as its `not_*` form.
          const res = resolvePointFunction(np.functionName);
          const fn = np.isInverted && res.ok ? `not_${res.canonical}` : np.functionName;
          const args = res.ok ? res.def.args.parse(np.functionArgs) : np.functionArgs;
          const point: FunctionPoint = {
            kind: 'function',
            text: np.displayText,
            fn,
            args,
            weight: np.multiplier,
            citation: np.citation ?? null,
            path: np.pathId ?? null,
            source: np.isInverted ? 'should_not' : 'should',
            gate: false,
            loc: null,
          };
          const ctx = { pointIndex: i, ...(c.input.context.modelId ? { modelId: c.input.context.modelId } : {}), ...(c.input.context.prompt?.messages ? { messages: c.input.context.prompt.messages } : {}) };
          return evaluateDeterministicPoint(point, c.input.responseText, ctx);
        }),
      );
      expect(verdicts).toHaveLength(c.output.length);
      verdicts.forEach((v, i) => {
        const expected = c.output[i] as Assessment;
        if (v === 'needs-judge') throw new Error('a function point must not need a judge');
        expect(VerdictSchema.parse(v)).toEqual(v);
        expect(v.weight).toBe(expected.multiplier);
        expect(v.path).toBe(expected.pathId ?? null);
        expect(v.source).toBe(expected.isInverted ? 'should_not' : 'should');
        if (expected.error !== undefined) {
          expect(v.status).toBe('error');
          expect(v.score).toBeNull();
          expect(v.detail).toMatch(/^Unknown point function: /);
        } else {
          expect(v.status).not.toBe('error');
          expect(v.score).toBe(expected.coverageExtent);
        }
      });
    });
  });
});
