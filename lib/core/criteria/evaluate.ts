/**
 * Grading one criterion point: the kind from the registry, its stored parameters validated
 * again (a stored blueprint may predate a schema change), the kind's evaluator, and its verdict
 * turned into Assay's verdict. A throw is an `error` verdict with the reason, never a 0.
 *
 * soev scores an attempt by status alone (weight of the passed over the weight of the
 * passed and failed), so a criterion's verdict score is 1 for pass and 0 for fail; the kind's
 * share (the required groups cited, the sentences in the language) is kept as its raw score.
 */
import type { CriterionPoint } from '../blueprint/schema';
import { capDetail, verdictFromOutcome, type Verdict } from '../scoring/verdict';
import { CorpusUnavailableError } from './corpus';
import { resolveCriterionKind } from './registry';
import type { CriterionEvidence, CriterionServices, CriterionVerdict } from './types';

export function verdictFromCriterion(point: CriterionPoint, pointIndex: number, cv: CriterionVerdict): Verdict {
  if (cv.status === 'error') return verdictFromOutcome(point, pointIndex, { error: cv.detail });
  const base = verdictFromOutcome(point, pointIndex, cv.status === 'not_applicable' ? { notApplicable: true, detail: cv.detail } : { score: cv.status === 'pass', detail: cv.detail });
  const share = cv.score === null || !Number.isFinite(cv.score) ? base.rawScore : Math.max(0, Math.min(1, cv.score));
  return { ...base, detail: capDetail(cv.detail), rawScore: cv.status === 'not_applicable' ? null : share, ...(cv.data === undefined ? {} : { data: cv.data }) };
}

export async function evaluateCriterionPoint(point: CriterionPoint, pointIndex: number, evidence: CriterionEvidence, services: CriterionServices): Promise<Verdict> {
  const resolved = resolveCriterionKind(point.criterion);
  if (!resolved.ok) return verdictFromOutcome(point, pointIndex, { error: resolved.message });
  const { def } = resolved;
  const params = def.params.safeParse(point.params);
  if (!params.success) return verdictFromOutcome(point, pointIndex, { error: `${def.name}: stored parameters no longer valid: ${params.error.issues.map((i) => i.message).join('; ')}` });
  const missing = def.needs.find((need) => (need === 'judge' && !services.judge) || (need === 'corpus' && !services.corpus));
  if (missing) return verdictFromOutcome(point, pointIndex, { error: missing === 'judge' ? `${def.name} needs a judge, and this run has none` : `${def.name} needs the corpus: add \`corpus: { path: … }\` to the blueprint header` });
  try {
    return verdictFromCriterion(point, pointIndex, await def.evaluate(evidence, params.data, services));
  } catch (e) {
    // A judged kind turns the judge's own failures into error verdicts itself (JudgeUnavailableError);
    // what else escapes it — the run's call budget used up, a cancelled run — must stop the run,
    // not become one more error verdict.
    if (def.needs.includes('judge') && !(e instanceof CorpusUnavailableError)) throw e;
    return verdictFromOutcome(point, pointIndex, { error: `${def.name} failed: ${e instanceof Error ? e.message : String(e)}` });
  }
}
