/**
 * One verdict as readers see it, on the prompt page and the point page: status and score,
 * the judges' reasoning, the label distribution, the panel's spread and agreement, and each
 * judge's own answer. Errors read as errors, never as a 0. The stored JSON (distribution,
 * judges) is read tolerantly: a malformed value is left out rather than breaking the page.
 */
import { z } from 'zod';
import type { VerdictDetail } from '../db/queries/run-prompt';
import { scoreColour } from './colour-scale';
import { formatScore, roundHalfUp } from './format';

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
  scoreLabel: string;
  topLabel: string | null;
  reasoning: string | null;
  error: string | null;
}

export interface VerdictView {
  anchor: string;
  pointIndex: number;
  text: string;
  kindLabel: string;
  status: VerdictStatus;
  statusLabel: string;
  scoreLabel: string;
  background: string;
  color: string;
  weightLabel: string | null;
  gate: boolean;
  reasoning: string | null;
  distribution: DistributionBarView[] | null;
  methodLabel: string | null;
  spreadLabel: string | null;
  alphaLabel: string | null;
  disagreement: boolean;
  judges: JudgeView[];
}

const JUDGE_SCALE_ORDER = ['CLASS_ABSENT', 'CLASS_SLIGHTLY_PRESENT', 'CLASS_PARTIALLY_PRESENT', 'CLASS_MAJORLY_PRESENT', 'CLASS_FULLY_PRESENT'];

/** `CLASS_MAJORLY_PRESENT` → "Majorly present"; other labels as written. */
export function labelName(label: string): string {
  if (!label.startsWith('CLASS_')) return label;
  const words = label.slice('CLASS_'.length).toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const Probabilities = z.record(z.string(), z.number().min(0).max(1));
const StoredDistribution = z.union([z.object({ probs: Probabilities }).loose(), Probabilities]);

/** Reads a stored distribution (`{label: p}` or `{probs: {label: p}, …}`), in the scale's order. */
export function distributionBars(stored: unknown): DistributionBarView[] | null {
  const parsed = StoredDistribution.safeParse(stored);
  if (!parsed.success) return null;
  const probs = 'probs' in parsed.data && typeof parsed.data.probs === 'object' ? (parsed.data.probs as Record<string, number>) : (parsed.data as Record<string, number>);
  const labels = Object.keys(probs);
  if (labels.length === 0) return null;
  const ordered = labels.every((l) => JUDGE_SCALE_ORDER.includes(l)) ? JUDGE_SCALE_ORDER.filter((l) => l in probs) : labels;
  return ordered.map((label) => {
    const p = probs[label] ?? 0;
    return { label: labelName(label), probability: p, percentLabel: `${roundHalfUp(p * 100, 0)}%` };
  });
}

const StoredJudge = z
  .object({
    judge: z.string(),
    score: z.number().nullable().optional(),
    distribution: z.unknown().optional(),
    reasoning: z.string().nullable().optional(),
    error: z.string().nullable().optional(),
  })
  .loose();

export function judgeViews(stored: unknown): JudgeView[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((j) => {
    const parsed = StoredJudge.safeParse(j);
    if (!parsed.success) return [];
    const bars = distributionBars(parsed.data.distribution);
    const top = bars && bars.length > 0 ? [...bars].sort((a, b) => b.probability - a.probability)[0] : null;
    return [
      {
        judge: parsed.data.judge,
        scoreLabel: formatScore(parsed.data.score ?? null),
        topLabel: top ? `${top.label} (${top.percentLabel})` : null,
        reasoning: parsed.data.reasoning ?? null,
        error: parsed.data.error ?? null,
      },
    ];
  });
}

const KIND_LABEL: Record<string, string> = { text: 'Judged', question: 'Judge question', function: 'Function', correct: 'Structured check' };
const METHOD_LABEL: Record<string, string> = {
  logprobs: 'from token log-probabilities',
  samples: 'estimated from sampled answers',
  function: 'computed by a function',
  check: 'structured check',
};

export function verdictView(v: Omit<VerdictDetail, 'args'> & { args?: unknown }): VerdictView {
  const status = v.status as VerdictStatus;
  const colours = status === 'error' || status === 'not_applicable' ? scoreColour(null) : scoreColour(v.score);
  return {
    anchor: `point-${v.pointIndex}`,
    pointIndex: v.pointIndex,
    text: v.pointText,
    kindLabel: KIND_LABEL[v.kind] ?? v.kind,
    status,
    statusLabel: STATUS_LABEL[status] ?? status,
    scoreLabel: status === 'error' ? 'error' : status === 'not_applicable' ? 'n/a' : formatScore(v.score),
    background: colours.background,
    color: colours.color,
    weightLabel: v.weight === 1 ? null : `weight ${v.weight}`,
    gate: v.gate,
    reasoning: v.reasoning,
    distribution: distributionBars(v.distribution),
    methodLabel: v.method ? (METHOD_LABEL[v.method] ?? v.method) : null,
    spreadLabel: v.spread === null ? null : `judges' spread ${formatScore(v.spread)} points (standard deviation)`,
    alphaLabel: v.alpha === null ? null : `agreement α = ${roundHalfUp(v.alpha, 2).toFixed(2)}`,
    disagreement: v.disagreement,
    judges: judgeViews(v.judges),
  };
}
