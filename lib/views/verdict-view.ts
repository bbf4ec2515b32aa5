/**
 * One verdict as readers see it, on the prompt page and the point page: status and score,
 * what decided it (the function's or check's explanation, or the error's reason), the judges'
 * reasoning, the label distribution in the question's own order, the judges' answers and their
 * spread, and each judge's own answer. No agreement statistic: over one verdict Krippendorff's α
 * is 0 or 1 whatever the judges said (lib/core/judging/alpha.ts), so α is shown only over a run,
 * a blueprint or a board; a point graded by a function has no judges and no spread at all.
 * Errors read as errors, never as a 0. The stored
 * JSON arrives parsed by the query with the writer's schemas (lib/core/evidence), so nothing
 * here guesses at a shape.
 */
import {
  labelName,
  orderedDistribution,
  pointCode,
  pointDirection,
  pointLabel,
  pointLabels,
  type StoredDistribution,
  type StoredJudgeRecord,
  type StoredPoint,
} from '@/lib/core';
import type { VerdictDetail } from '@/lib/server/db/queries/run-prompt';
import { scoreColour } from './colour-scale';
import { formatScore, plural, roundHalfUp } from './format';
import { judgeMethodLabel, mixedMethodsNote, sampledReason } from './judge-method-view';

export type VerdictStatus = 'pass' | 'fail' | 'not_applicable' | 'error';

export const STATUS_LABEL: Record<VerdictStatus, string> = {
  pass: 'Pass',
  fail: 'Fail',
  not_applicable: 'Not applicable',
  error: 'Error',
};

export interface DistributionBarView {
  label: string;
  probability: number;
  /** "62%" */
  percentLabel: string;
}

export interface JudgeView {
  judge: string;
  /** "standard", "prompt-aware"… or null when not recorded. */
  approach: string | null;
  /** The judge's own value on the 0–100 scale (before a `should_not` inversion); "n/a" when it found the question does not apply. */
  scoreLabel: string;
  topLabel: string | null;
  reasoning: string | null;
  error: string | null;
  /** How this judge's answer was read: "log-probabilities" or "3 samples"; null for a judge that gave none. */
  methodLabel: string | null;
  /** Why it was sampled ("the model refuses log-probabilities"), or null. */
  sampledBecause: string | null;
}

export interface VerdictView {
  anchor: string;
  pointIndex: number;
  /** The criterion as readable text (never a JSON rendering). */
  text: string;
  /** A `$js` point's code, shown as code. */
  code: string | null;
  /** text | question | function | correct */
  kind: string;
  kindLabel: string;
  /** A `should_not` point: shown as "must not", its direction explained. */
  mustNot: boolean;
  direction: string | null;
  citation: string | null;
  status: VerdictStatus;
  statusLabel: string;
  scoreLabel: string;
  background: string;
  color: string;
  weightLabel: string | null;
  gate: boolean;
  /** What decided the verdict: the function's or check's explanation, the panel's summary, or why it is an error. */
  detail: string | null;
  reasoning: string | null;
  distribution: DistributionBarView[] | null;
  methodLabel: string | null;
  /** The judges' answers on the 0–100 scale: "judges answered 92 and 92"; null without a judge's answer (a function's verdict). */
  answersLabel: string | null;
  /** "judges' spread 0.0 points (standard deviation)"; null without a panel (a function's verdict). */
  spreadLabel: string | null;
  disagreement: boolean;
  judges: JudgeView[];
  /** Said when the panel's judges were read by different methods (log-probabilities and samples). */
  mixedMethods: string | null;
}

/** A stored distribution as bars, in the order of the point's labels (score levels worst first, choice options as written). */
export function distributionBars(stored: StoredDistribution | null, labels: readonly string[] | null): DistributionBarView[] | null {
  if (!stored || Object.keys(stored).length === 0) return null;
  return orderedDistribution(stored, labels).map(({ label, probability }) => ({
    label: labelName(label),
    probability,
    percentLabel: `${roundHalfUp(probability * 100, 0)}%`,
  }));
}

export function judgeViews(stored: readonly StoredJudgeRecord[] | null, labels: readonly string[] | null): JudgeView[] {
  return (stored ?? []).map((j) => {
    const bars = distributionBars(j.distribution, labels);
    const top = bars && bars.length > 0 ? [...bars].sort((a, b) => b.probability - a.probability)[0] : null;
    return {
      judge: j.judge,
      approach: j.approach,
      // no score and no error: this judge found the question does not apply
      scoreLabel: j.score === null && j.error === null ? 'n/a' : formatScore(j.score),
      topLabel: top ? `${top.label} (${top.percentLabel})` : null,
      reasoning: j.reasoning,
      error: j.error,
      methodLabel: j.error ? null : judgeMethodLabel(j),
      sampledBecause: sampledReason(j),
    };
  });
}

const KIND_LABEL: Record<string, string> = { text: 'Judged', question: 'Judge question', function: 'Function', correct: 'Structured check', criterion: 'Criterion' };
const METHOD_LABEL: Record<string, string> = {
  logprobs: 'from token log-probabilities',
  samples: 'estimated from sampled answers',
  function: 'computed by a function',
  check: 'structured check',
  criterion: 'graded by its criterion kind',
};

export type VerdictInput = Omit<VerdictDetail, 'args'> & { args?: unknown };

/** " (3 samples per judge)" when every sampled judge drew the same number, else "". */
function samplesPerJudge(judges: readonly StoredJudgeRecord[] | null): string {
  const ns = new Set((judges ?? []).filter((j) => j.method === 'samples').map((j) => j.n));
  const [n] = [...ns];
  return ns.size === 1 && n !== undefined ? ` (${plural(n, 'sample')} per judge)` : '';
}

/** "judges answered 92 and 88" (a judge without a value says "n/a", a failed one "error"); null when no judge answered at all. */
function answersLabel(judges: readonly StoredJudgeRecord[] | null): string | null {
  const answers = (judges ?? []).map((j) => (j.error !== null ? 'error' : j.score === null ? 'n/a' : formatScore(j.score)));
  if (!(judges ?? []).some((j) => j.score !== null)) return null;
  const list = answers.length <= 2 ? answers.join(' and ') : `${answers.slice(0, -1).join(', ')} and ${answers.at(-1)}`;
  return `${answers.length === 1 ? 'judge' : 'judges'} answered ${list}`;
}

/** A function's (`$js`, regex…) or a structured check's verdict is not a panel's: no answers, no spread, no agreement. */
const NO_PANEL_KINDS = new Set(['function', 'correct']);

/** `point`: the stored point this verdict grades (its label, labels' order, citation); null falls back to the verdict's own text. */
export function verdictView(v: VerdictInput, point: StoredPoint | null): VerdictView {
  const status = v.status as VerdictStatus;
  const colours = status === 'error' || status === 'not_applicable' ? scoreColour(null) : scoreColour(v.score);
  const labels = point ? pointLabels(point) : null;
  const mustNot = v.source === 'should_not';
  const panel = !NO_PANEL_KINDS.has(v.kind) && (v.judges?.length ?? 0) > 0;
  return {
    anchor: `point-${v.pointIndex}`,
    pointIndex: v.pointIndex,
    text: point ? pointLabel(point) : v.pointText,
    code: point ? pointCode(point) : null,
    kind: v.kind,
    kindLabel: KIND_LABEL[v.kind] ?? v.kind,
    mustNot,
    direction: pointDirection({ source: mustNot ? 'should_not' : 'should' }),
    citation: point?.citation ?? null,
    status,
    statusLabel: STATUS_LABEL[status] ?? status,
    scoreLabel: status === 'error' ? 'error' : status === 'not_applicable' ? 'n/a' : formatScore(v.score),
    background: colours.background,
    color: colours.color,
    weightLabel: v.weight === 1 ? null : `weight ${v.weight}`,
    gate: v.gate,
    detail: v.detail && v.detail.trim() !== '' ? v.detail : null,
    reasoning: v.reasoning,
    distribution: distributionBars(v.distribution, labels),
    methodLabel: v.method ? `${METHOD_LABEL[v.method] ?? v.method}${v.method === 'samples' ? samplesPerJudge(v.judges) : ''}` : null,
    answersLabel: panel ? answersLabel(v.judges) : null,
    spreadLabel: !panel || v.spread === null ? null : `judges' spread ${formatScore(v.spread)} points (standard deviation)`,
    disagreement: panel && v.disagreement,
    judges: judgeViews(v.judges, labels),
    mixedMethods: mixedMethodsNote(v.judges ?? []),
  };
}
