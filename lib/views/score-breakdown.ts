/**
 * How one attempt's verdicts make its score, as a reader can check it: the verdicts grouped
 * as gates, required points and alternative (OR) paths, each group's weighted mean, the best
 * path marked, and the arithmetic that gives the score. The numbers come from the core's
 * `attemptScore` (the function the pipeline scored with), never from a second computation
 * here; if the stored score disagrees with it, the view says so.
 */
import { attemptScore, pathOf, type ScoredVerdict } from '@/lib/core';
import { formatScore, plural } from './format';
import type { VerdictView } from './verdict-view';

export interface VerdictGroupView {
  kind: 'gates' | 'required' | 'path';
  /** "Gates", "Required points", "Path 1"… */
  title: string;
  note: string;
  /** The group's weighted mean on 0–100, or null (gates; a group whose verdicts all erred). */
  scoreLabel: string | null;
  best: boolean;
  verdicts: VerdictView[];
}

export interface ScoreBreakdownView {
  groups: VerdictGroupView[];
  /** One line per step: each group's mean, the best path, the score. */
  arithmetic: string[];
  /** Set when the stored attempt score is not what the verdicts give (a defect, shown rather than hidden). */
  mismatch: string | null;
  gateFailed: boolean;
}

const pct = (x: number | null) => formatScore(x);

/** Path ids in order of first appearance among the prompt's points: "Path 1", "Path 2"… */
export function pathNames(paths: readonly (string | null)[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const p of paths) if (p !== null && p.trim() !== '' && !names.has(p)) names.set(p, `Path ${names.size + 1}`);
  return names;
}

function termsOf(vs: readonly ScoredVerdict[]): string {
  const counted = vs.filter((v) => (v.status === 'pass' || v.status === 'fail') && v.score !== null);
  const uniform = counted.every((v) => v.weight === counted[0]?.weight);
  return counted.map((v) => (uniform ? pct(v.score) : `${pct(v.score)} × ${v.weight}`)).join(', ');
}

/**
 * `rows`: the attempt's stored verdicts; `views`: the same verdicts as shown (same order);
 * `promptPaths`: the path of every point of the prompt in order (names paths stably even
 * when a path has no verdict); `stored`: the attempt score the pipeline stored.
 */
export function scoreBreakdown(rows: readonly ScoredVerdict[], views: readonly VerdictView[], promptPaths: readonly (string | null)[], stored: number | null | undefined): ScoreBreakdownView {
  const a = attemptScore(rows);
  const names = pathNames([...promptPaths, ...rows.map((r) => r.path)]);
  const viewOf = new Map(views.map((v) => [v.pointIndex, v]));
  const pick = (keep: (r: ScoredVerdict) => boolean) => rows.filter(keep);
  const show = (rs: readonly ScoredVerdict[]) => rs.map((r) => viewOf.get(r.pointIndex)).filter((v): v is VerdictView => v !== undefined);

  const groups: VerdictGroupView[] = [];
  const arithmetic: string[] = [];
  const gates = pick((r) => r.gate);
  if (gates.length > 0) {
    groups.push({
      kind: 'gates',
      title: 'Gates',
      note: 'Each must pass, or the attempt scores 0; a gate is a condition, not a term of the mean.',
      scoreLabel: null,
      best: false,
      verdicts: show(gates),
    });
  }
  const required = pick((r) => !r.gate && pathOf(r) === null);
  if (required.length > 0) {
    groups.push({ kind: 'required', title: 'Required points', note: 'All count: their weighted mean.', scoreLabel: a.required === null ? null : pct(a.required), best: false, verdicts: show(required) });
    if (a.required !== null) arithmetic.push(`Required points: weighted mean of ${termsOf(required)} = ${pct(a.required)}`);
  }
  for (const [path, name] of names) {
    const members = pick((r) => !r.gate && pathOf(r) === path);
    if (members.length === 0) continue;
    const mean = a.paths[path] ?? null;
    const best = a.bestPath === path;
    groups.push({
      kind: 'path',
      title: name,
      note: best ? 'Alternative path (OR): the best path, the one that counts.' : 'Alternative path (OR): not the best, does not count.',
      scoreLabel: mean === null ? null : pct(mean),
      best,
      verdicts: show(members),
    });
    if (mean !== null) arithmetic.push(`${name}${best ? ' (best)' : ''}: weighted mean of ${termsOf(members)} = ${pct(mean)}`);
  }

  const bestName = a.bestPath ? (names.get(a.bestPath) ?? a.bestPath) : null;
  if (a.errors > 0) arithmetic.push(`${plural(a.errors, 'verdict')} in error left out (an error is never a 0)`);
  if (a.gateFailed) {
    const which = a.failedGates.map((i) => `point ${i + 1}`).join(', ');
    arithmetic.push(`A gate failed (${which}): the score is 0`);
  } else if (a.score === null) {
    arithmetic.push('No verdict could count: no score');
  } else if (a.noApplicable) {
    arithmetic.push('No point applied to this reply: scored 100 by rule');
  } else if (a.required !== null && bestName !== null) {
    arithmetic.push(`Score = mean of required ${pct(a.required)} and best path ${bestName} ${pct(a.paths[a.bestPath!] ?? null)} = ${pct(a.score)}`);
  } else if (bestName !== null) {
    arithmetic.push(`Score = best path ${bestName} = ${pct(a.score)}`);
  } else {
    arithmetic.push(`Score = required points = ${pct(a.score)}`);
  }
  const differs = stored !== undefined && ((stored === null) !== (a.score === null) || (stored !== null && a.score !== null && Math.abs(stored - a.score) > 1e-9));
  return {
    groups,
    arithmetic,
    mismatch: differs ? `The stored score (${pct(stored ?? null)}) is not what these verdicts give (${pct(a.score)}).` : null,
    gateFailed: a.gateFailed,
  };
}
