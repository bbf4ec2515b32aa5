/**
 * Judge reliability at one level (a run, one model in a run, one prompt, a blueprint's latest
 * run): how far a judged score can be trusted to reflect the criterion rather than which judge
 * happened to read it.
 *
 * What the numbers mean:
 *  - **α (pooled)**: Krippendorff's α, interval metric, over the reliability data of the whole
 *    level: one unit per judged verdict (a point of a reply), one coder per judge (model and
 *    approach), each cell the judge's value in [0, 1] (`krippendorffAlpha`, alpha.ts). It is
 *    reported with its units and pairs, and only from ALPHA_MIN_UNITS pairable units on: below
 *    that it is "not enough", never a number. Pooling the matrix is how Krippendorff defines α
 *    for a data set (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability"); a mean
 *    of per-reply αs would weight a two-point reply like a forty-point one, and one reply's α
 *    is 0 or 1 by construction. Krippendorff's guide: α ≥ 0.80 reliable, 0.667–0.80 tentative,
 *    below that not reliable.
 *  - **coverage**: how many assessments each judge made (values it gave), and how many judged
 *    verdicts had at least two values (only those are pairable, so only they inform α).
 *  - **disagreement share**: of the pairable verdicts, the share whose panel spread was
 *    flagged as a disagreement when graded (`verdicts.disagreement`, consensus.ts).
 *  - **agreement with the panel** per judge: the mean absolute difference between the judge's
 *    value and the mean of the *other* judges on the same verdict (0 = always with the rest;
 *    0.5 = half the scale away). Leaving the judge out keeps a judge from agreeing with itself.
 *  - **self-judging**: judges of the graded model's own model or family (self-judging.ts).
 */
import { krippendorffAlpha, type JudgeAlpha } from './alpha';
import { selfJudging, type SelfJudgingKind } from './self-judging';

/** One judge's answer on one verdict, as stored in `verdicts.judges` (score null: no value). */
export interface JudgeAssessment {
  judge: string;
  approach: string | null;
  score: number | null;
}

/** One judged verdict: the unit of the reliability data. */
export interface JudgedVerdict {
  /** The graded model. */
  modelId: string;
  judges: readonly JudgeAssessment[];
  /** The panel-spread flag stored with the verdict. */
  disagreement: boolean;
}

export interface JudgeSummary {
  /** `model#approach`, as a run's settings name it. */
  id: string;
  model: string;
  approach: string | null;
  /** Values this judge gave. */
  assessments: number;
  /** Verdicts this judge was asked about but gave no value (failed, or found it not applicable). */
  missing: number;
  /** The mean value it gave (its leniency); null without assessments. */
  meanScore: number | null;
  /** Mean |value − mean of the other judges| on the verdicts it shares with them; null when it shares none. */
  meanAbsDeviation: number | null;
  /** Verdicts the deviation is over. */
  compared: number;
  /** The graded models this judge is related to, and how. */
  selfJudging: { modelId: string; kind: SelfJudgingKind }[];
}

export interface JudgeReliability {
  /** Judged verdicts at this level. */
  verdicts: number;
  /** Judged verdicts with values from at least two judges: the only ones α and disagreement rest on. */
  pairable: number;
  /** Pooled Krippendorff's α (interval) with its units and pairs; "not enough" below ALPHA_MIN_UNITS pairable verdicts. */
  alpha: JudgeAlpha;
  /** Pairable verdicts flagged as a disagreement. */
  disagreements: number;
  /** disagreements / pairable; null when nothing is pairable. */
  disagreementShare: number | null;
  judges: JudgeSummary[];
  /** Every (judge, graded model) pair that is self-judging, strongest first. */
  selfJudging: { judge: string; modelId: string; kind: SelfJudgingKind }[];
}

export function judgeKey(a: Pick<JudgeAssessment, 'judge' | 'approach'>): string {
  return a.approach ? `${a.judge}#${a.approach}` : a.judge;
}

const valueOf = (a: JudgeAssessment): number | null => (a.score !== null && Number.isFinite(a.score) ? a.score : null);

/** The reliability data and its summaries for one level. Pure; order of the input does not matter. */
export function judgeReliability(verdicts: readonly JudgedVerdict[]): JudgeReliability {
  const ids: string[] = [];
  const meta = new Map<string, { model: string; approach: string | null; assessments: number; missing: number; sum: number; dev: number; compared: number; graded: Set<string> }>();
  for (const v of verdicts) {
    for (const a of v.judges) {
      const id = judgeKey(a);
      let m = meta.get(id);
      if (!m) {
        m = { model: a.judge, approach: a.approach, assessments: 0, missing: 0, sum: 0, dev: 0, compared: 0, graded: new Set() };
        meta.set(id, m);
        ids.push(id);
      }
      m.graded.add(v.modelId);
    }
  }
  ids.sort();
  const column = new Map(ids.map((id, i) => [id, i]));

  const matrix: (number | null)[][] = [];
  let pairable = 0;
  let disagreements = 0;
  for (const v of verdicts) {
    const row: (number | null)[] = ids.map(() => null);
    for (const a of v.judges) {
      const m = meta.get(judgeKey(a))!;
      const x = valueOf(a);
      if (x === null) {
        m.missing += 1;
        continue;
      }
      // one judge answering twice on a verdict would be a writer bug; the first answer counts
      if (row[column.get(judgeKey(a))!] !== null) continue;
      row[column.get(judgeKey(a))!] = x;
      m.assessments += 1;
      m.sum += x;
    }
    const present = row.flatMap((x, i) => (x === null ? [] : [{ i, x }]));
    if (present.length >= 2) {
      pairable += 1;
      if (v.disagreement) disagreements += 1;
      const total = present.reduce((s, p) => s + p.x, 0);
      for (const p of present) {
        const m = meta.get(ids[p.i]!)!;
        m.dev += Math.abs(p.x - (total - p.x) / (present.length - 1));
        m.compared += 1;
      }
    }
    matrix.push(row);
  }

  const judges: JudgeSummary[] = ids.map((id) => {
    const m = meta.get(id)!;
    const related = [...m.graded].sort().flatMap((modelId) => {
      const kind = selfJudging(m.model, modelId);
      return kind ? [{ modelId, kind }] : [];
    });
    return {
      id,
      model: m.model,
      approach: m.approach,
      assessments: m.assessments,
      missing: m.missing,
      meanScore: m.assessments > 0 ? m.sum / m.assessments : null,
      meanAbsDeviation: m.compared > 0 ? m.dev / m.compared : null,
      compared: m.compared,
      selfJudging: related,
    };
  });
  const rank = (k: SelfJudgingKind) => (k === 'same-model' ? 0 : 1);
  const flags = judges
    .flatMap((j) => j.selfJudging.map((s) => ({ judge: j.id, modelId: s.modelId, kind: s.kind })))
    .sort((a, b) => rank(a.kind) - rank(b.kind) || a.judge.localeCompare(b.judge) || a.modelId.localeCompare(b.modelId));

  return {
    verdicts: verdicts.length,
    pairable,
    alpha: krippendorffAlpha(matrix),
    disagreements,
    disagreementShare: pairable > 0 ? disagreements / pairable : null,
    judges,
    selfJudging: flags,
  };
}
