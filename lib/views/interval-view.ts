/**
 * How an interval and a pass curve read on a page: "95% CI 61.0–74.0 · 40 prompts, 120
 * attempts · clustered · BCa bootstrap", and pass@k / pass^k as percentages for k = 1..n.
 * Decided here once, so every page that shows an interval says the same about it.
 */
import { FEW_PROMPTS, sampleReading, type BoardIntervalMethod, type Interval, type IntervalMethod, type ModelAggregate, type ModelPassCurve } from '@/lib/core';
import { formatInterval, formatPercent, modelShortName, plural } from './format';

const METHOD_LABELS: Record<IntervalMethod, string> = {
  'percentile-bootstrap': 'percentile bootstrap',
  'bca-bootstrap': 'BCa bootstrap',
  'normal-clustered': 'normal, cluster-robust SE',
  wilson: 'Wilson score',
};

/** What a reader needs to weigh an interval: level, ends, what it rests on and how it was made. */
export interface IntervalNoteView {
  /** "95% CI 61.0–74.0" */
  label: string;
  /** "40 prompts, 120 attempts · clustered · BCa bootstrap" */
  basis: string;
  /** The whole as one sentence, for a tooltip or a screen reader. */
  text: string;
  /** The method's name: a per-blueprint `IntervalMethod`, or a board's (`BoardIntervalMethod`). */
  method: IntervalMethod | BoardIntervalMethod;
  clustered: boolean;
  /** Over fewer than FEW_PROMPTS prompts the interval is rough (said first in the basis), as the CLI warns. */
  rough: boolean;
}

/** "rough: only 3 prompts · ", said first where an interval rests on too few prompts to be read closely. */
function roughness(prompts: number | null): string {
  return prompts !== null && sampleReading(prompts) !== 'enough' ? `rough: only ${plural(prompts, 'prompt')} (under ${FEW_PROMPTS}) · ` : '';
}

export function intervalNote(i: Interval | null | undefined): IntervalNoteView | null {
  if (!i) return null;
  const clustered = i.n > i.clusters;
  const level = `${Math.round(i.level * 100)}%`;
  const ends = formatInterval(i.low, i.high) ?? '—';
  const sample = clustered ? `${plural(i.clusters, 'prompt')}, ${plural(i.n, 'attempt')}` : plural(i.clusters, 'prompt');
  const method = METHOD_LABELS[i.method];
  const rough = roughness(i.clusters);
  const basis = rough + [sample, ...(clustered ? ['clustered'] : []), method].join(' · ');
  const resampled = i.resamples === null ? '' : ` (${plural(i.resamples, 'resample')})`;
  return {
    label: `${level} CI ${ends}`,
    basis,
    text: `${rough ? 'A rough interval: ' : ''}${level} confidence interval ${ends.replace('–', ' to ')}, over ${sample}${clustered ? ', clustered by prompt' : ''}, by ${method}${resampled}.`,
    method: i.method,
    clustered,
    rough: rough !== '',
  };
}

export interface PassAtKModelView {
  modelId: string;
  label: string;
  rows: { k: number; passAt: string; passHat: string; prompts: number }[];
}

export interface PassAtKView {
  /** "An attempt passes at a score of 0.75 or more." */
  thresholdText: string;
  maxK: number;
  models: PassAtKModelView[];
}

/**
 * The pass@k table of a run or blueprint: shown only where some model has more than one
 * attempt per prompt (with one attempt, pass@1 = pass^1 = the pass rate, nothing more to say).
 */
export function passAtKView(
  rows: readonly { modelId: string; displayName?: string | null; passThreshold: number | null; passCurve: ModelPassCurve | null }[],
): PassAtKView | null {
  const withCurve = rows.filter((r) => r.passCurve !== null && r.passCurve.length > 1 && r.passThreshold !== null);
  if (withCurve.length === 0) return null;
  const threshold = withCurve[0]!.passThreshold as number;
  return {
    thresholdText: `An attempt passes at a score of ${threshold} or more (the blueprint’s pass_threshold). pass@k: the chance that at least one of k attempts passes; pass^k: that all k pass. Unbiased estimates from every attempt (Chen et al. 2021), averaged over prompts.`,
    maxK: Math.max(...withCurve.map((r) => r.passCurve!.length)),
    models: withCurve.map((r) => ({
      modelId: r.modelId,
      label: modelShortName(r.modelId, r.displayName),
      rows: r.passCurve!.map((p) => ({ k: p.k, passAt: formatPercent(p.passAtK), passHat: formatPercent(p.passHatK), prompts: p.prompts })),
    })),
  };
}

const BOARD_METHOD_LABELS: Record<BoardIntervalMethod, string> = {
  'hierarchical-bootstrap': 'hierarchical bootstrap',
  'combined-normal': 'the blueprints’ intervals combined',
  blueprint: 'its one blueprint’s interval',
};

/** The same note for a leaderboard row: blueprints (the clusters) and prompts (n), and the method. */
export function boardIntervalNote(a: Pick<ModelAggregate, 'ciLow' | 'ciHigh' | 'intervalMethod' | 'intervalPrompts' | 'scoredBlueprints'>): IntervalNoteView | null {
  if (a.intervalMethod === null || a.ciLow === null || a.ciHigh === null) return null;
  const ends = formatInterval(a.ciLow, a.ciHigh) ?? '—';
  const sample = a.intervalPrompts === null ? plural(a.scoredBlueprints, 'blueprint') : `${plural(a.scoredBlueprints, 'blueprint')}, ${plural(a.intervalPrompts, 'prompt')}`;
  const method = BOARD_METHOD_LABELS[a.intervalMethod];
  const rough = roughness(a.intervalPrompts);
  return {
    label: `95% CI ${ends}`,
    basis: `${rough}${sample} · ${method}`,
    text: `${rough ? 'A rough interval: ' : ''}95% confidence interval ${ends.replace('–', ' to ')}, over ${sample}, by ${a.intervalMethod === 'hierarchical-bootstrap' ? 'a bootstrap over blueprints, then the prompts within them' : method}.`,
    method: a.intervalMethod,
    clustered: a.intervalMethod === 'hierarchical-bootstrap',
    rough: rough !== '',
  };
}
