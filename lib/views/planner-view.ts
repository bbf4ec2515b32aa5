/**
 * The blueprint page's planner: the latest run's minimum detectable difference in points, what
 * it rests on (σ, ρ, ω, n), and how many prompts some differences would need. Pure: the planner
 * ran in core; this decides wording and rounding.
 */
import { promptsNeeded, type BlueprintPlan } from '@/lib/core';
import type { BlueprintPlanResult } from '@/lib/server/db/queries/blueprint-plan';
import { figureAttrs, type FigureAttrs } from './figures';
import { formatCount, formatDateTime, formatScore, modelShortName, plural } from './format';
import { href } from './urls';

/** A run's MDE as every page writes it: points to one decimal (0.3128 → "31.3"); the planner and the drift checks. */
export function formatMde(mde: number): string {
  return formatScore(mde);
}

/** The identity of a run's MDE (the stored `runs.mde`) wherever a page shows it. */
export function mdeFigure(runId: string, mde: number): FigureAttrs {
  return figureAttrs('mde', { run: runId }, formatMde(mde));
}

/**
 * Pairs of models the table lists: 50 models make 1,225 pairs, and a row for each made the
 * blueprint page 1.4 MB. The pairs hardest to tell apart come first; `assay plan` lists them all.
 */
export const PLANNER_PAIRS_SHOWN = 25;

/** The differences (on the 0–1 scale) the table offers: 10, 5, 3 and 2 points. */
export const PLANNER_DELTAS = [0.1, 0.05, 0.03, 0.02] as const;

export interface PlannerView {
  /** Null when the blueprint has no completed run (then `empty` says so). */
  run: { href: string; label: string } | null;
  empty: string | null;
  /** "31.3 points": the run's stored MDE (`mdeValue` points). */
  mde: string | null;
  mdeValue: string | null;
  figure: FigureAttrs | null;
  headline: string;
  basis: { label: string; value: string }[];
  needed: { delta: string; prompts: string; enough: boolean }[];
  /**
   * `omega` and `mde` in points (the column headers say so); `rho` a plain correlation. At most
   * PLANNER_PAIRS_SHOWN, those hardest to tell apart (largest MDE) first.
   */
  pairs: { label: string; paired: string; rho: string; omega: string; mde: string }[];
  /** Said when the table leaves pairs out: how many, and where every pair is listed. */
  pairsNote: string | null;
  note: string | null;
}

/** A correlation (ρ) is unitless, −1 to 1: it stays a plain number, not points. */
const num = (x: number | null, digits = 3) => (x === null ? '—' : x.toFixed(digits));
/** A spread of scores (σ, ω) on the page's 0–100 point scale, like every score and the MDE beside it (0.115 → "11.5 points"). */
const points = (x: number | null) => (x === null ? '—' : `${formatScore(x)} points`);

export function plannerView(result: BlueprintPlanResult, names: ReadonlyMap<string, string>): PlannerView {
  const empty = { run: null, mde: null, mdeValue: null, figure: null, basis: [], needed: [], pairs: [], pairsNote: null, note: null };
  if (!result.run || !result.plan) {
    return { ...empty, empty: 'No completed run yet: the planner reads the spread of a run’s scores.', headline: '' };
  }
  const plan: BlueprintPlan = result.plan;
  const run = { href: href.run(result.run.runId), label: result.run.finishedAt ? `the run of ${formatDateTime(result.run.finishedAt)}` : 'the latest run' };
  // The figure is the run's stored MDE (the one its drift checks compare with); the plan says what it rests on.
  const mde = result.runMde;
  if (mde === null || plan.omega === null) return { ...empty, run, empty: plan.note ?? 'Not enough scored prompts to plan from.', headline: '' };
  const omega2 = plan.omega ** 2;
  const power = Math.round(plan.power * 100);
  return {
    run,
    empty: null,
    mde: `${formatMde(mde)} points`,
    mdeValue: formatMde(mde),
    figure: mdeFigure(result.run.runId, mde),
    headline: `With its ${formatCount(plan.prompts)} prompts, this blueprint tells two models apart (at ${power}% power, α = ${plan.alpha}) when their scores differ by at least ${formatMde(mde)} points; a smaller gap may be noise.`,
    basis: [
      { label: 'Spread of prompt scores (σ, mean over models)', value: points(plan.sd) },
      ...(plan.basis === 'pairs' ? [{ label: `Correlation between models (ρ, mean over ${plural(plan.pairs.length, 'pair')})`, value: num(plan.rho, 2) }] : []),
      { label: 'Spread of the paired difference (ω)', value: points(plan.omega) },
      { label: 'Scored prompts', value: formatCount(plan.prompts) },
    ],
    needed: PLANNER_DELTAS.map((d) => {
      const n = promptsNeeded(omega2, d, { alpha: plan.alpha, power: plan.power });
      return { delta: `${formatScore(d, 0)} points`, prompts: formatCount(n), enough: n <= plan.prompts };
    }),
    pairs: [...plan.pairs]
      .sort((a, b) => b.mde - a.mde)
      .slice(0, PLANNER_PAIRS_SHOWN)
      .map((p) => ({
        label: `${modelShortName(p.modelA, names.get(p.modelA))} vs ${modelShortName(p.modelB, names.get(p.modelB))}`,
        paired: formatCount(p.paired),
        rho: num(p.rho, 2),
        omega: formatScore(p.omega),
        mde: formatScore(p.mde),
      })),
    pairsNote:
      plan.pairs.length > PLANNER_PAIRS_SHOWN
        ? `The ${PLANNER_PAIRS_SHOWN} pairs of ${formatCount(plan.pairs.length)} hardest to tell apart (largest MDE); \`assay plan ${result.blueprintId} --json\` lists every pair.`
        : null,
    note: plan.note,
  };
}
