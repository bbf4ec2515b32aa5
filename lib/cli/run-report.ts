/**
 * What `assay run` and `assay rescore` print when a run ends, and their exit status: counts
 * that add up (replies answered + failed = done), the distinct error messages with their
 * counts (the provider's own words, e.g. "11 × set OPENAI_API_KEY …"), each model's score on
 * the pages' 0–100 scale with a warning when its interval rests on few prompts, and the run's
 * page in the app. Pure: it returns lines, the command writes them: the report to standard
 * output (what `assay run … > out.txt` keeps), the warnings and errors to standard error (what
 * the person at the terminal must see even when the report goes to a file).
 */
import type { RunResultsDocument } from '@/lib/server/runs/chat/results';
import type { RunErrors } from '@/lib/server/runs/chat/run-errors';
import { FEW_PROMPTS, readAlpha } from '@/lib/core';
import { formatAlpha, tooFewLabel } from '@/lib/views/judge-reliability-view';
import { formatInterval, formatPercent, formatScore, formatUsd, plural } from '@/lib/views/format';
import { intervalNote } from '@/lib/views/interval-view';
import { coverageText } from '@/lib/views/run-view';
import { costLabel } from '@/lib/views/cost-label';
import { runJudgeMethods, runMixedMethodsNote } from '@/lib/views/judge-method-view';
import type { JudgeMethodCount } from '@/lib/server/db/queries/run-judge-methods';
import type { JudgedCheckLineView } from '@/lib/views/human-figures-view';

// An interval over fewer prompts than FEW_PROMPTS is flagged as rough (lib/core sample-size.ts, as the pages say it).
export { FEW_PROMPTS };
/** Distinct error messages printed (per kind). */
const SHOWN_ERRORS = 5;

export interface RunReport {
  /** The report itself: counts, errors met by replies and verdicts, scores, judges, the run's page. */
  lines: string[];
  /** `warning: …` and `error: …` lines about the result (rough intervals, self-judging, no score, a run that did not complete). */
  warnings: string[];
  /** 0: completed with a score for every model that answered; 1 otherwise. */
  exitCode: number;
}

/** The panel's agreement over the run (pooled α) and its coverage. */
function judgeLines(j: RunResultsDocument['run']['judgeReliability']): string[] {
  const r = j.run;
  if (r.verdicts === 0) return [];
  // α with the units and pairs it rests on, or, below the minimum of verdicts, no number at all
  const a = r.alpha;
  const alpha = a.kind === 'alpha' ? `α ${formatAlpha(a.value)} (${readAlpha(a.value)}) over ${plural(a.units, 'unit')} and ${plural(a.pairs, 'pair')}` : tooFewLabel(a.units);
  const share = r.disagreementShare === null ? '' : `, ${formatPercent(r.disagreementShare)} flagged as disagreement`;
  return [`judges: ${alpha}; ${plural(r.verdicts, 'judged verdict')} (${r.pairable} with ≥ 2 judges${share}); ${r.judges.map((x) => `${x.id} ${x.assessments}`).join(', ')} assessments`];
}

/** Every judge that grades its own model or its own maker's. */
function selfJudgingWarnings(j: RunResultsDocument['run']['judgeReliability']): string[] {
  return j.run.selfJudging.map((s) => `warning: self-judging: ${s.judge} judges ${s.modelId} (${s.kind === 'same-model' ? 'the same model' : 'the same maker'})`);
}

/** soev's report: the per-attempt pass rate, and scores per category and per rule (only where the prompts have them). */
function groupLines(groups: RunResultsDocument['run']['groups']): string[] {
  const lines: string[] = [];
  for (const m of groups ?? []) {
    if (m.byCategory.length === 0 && m.byRule.length === 0) continue;
    lines.push(`  ${m.model}: attempts passed ${m.pass.rate === null ? '—' : formatPercent(m.pass.rate)} (${m.pass.passed} of ${m.pass.attempts}; every criterion pass or n/a, none error)`);
    for (const [axis, list] of [['category', m.byCategory], ['rule', m.byRule]] as const) {
      for (const g of list) lines.push(`    ${`${axis} ${g.key}`.padEnd(22)} ${formatScore(g.score).padStart(5)}  ${(formatInterval(g.interval?.low ?? null, g.interval?.high ?? null) ?? '').padEnd(11)}  ${plural(g.prompts, 'prompt')}, passed ${g.pass.passed}/${g.pass.attempts}`);
    }
  }
  return lines;
}

/** `judgeMethods`: how each judge's answers were read (run-judge-methods.ts); none: nothing said about it. */
/** `humanCheck`: the blueprint's judges checked against people (judgedCheckLine), where people have labelled. */
export function runReport(doc: RunResultsDocument, errors: RunErrors, publicUrl: string, judgeMethods: readonly JudgeMethodCount[] = [], humanCheck: JudgedCheckLineView | null = null): RunReport {
  const r = doc.run;
  const lines: string[] = [];
  lines.push(`assay: run ${r.id} ${r.status}${r.error ? `: ${r.error}` : ''}`);
  if (r.rescoreOf) {
    const failed = doc.results.filter((x) => x.error !== null).length;
    lines.push(`  replies:  ${doc.results.length} stored replies of run ${r.rescoreOf} re-graded, no model called (${doc.results.length - failed} answered, ${failed} failed)`);
  } else {
    const answered = r.replies.done - r.replies.errors;
    const { refused, cutOff } = r.replies.outcomes;
    const outcomes = [refused ? `${refused} refused` : '', cutOff ? `${cutOff} cut off at the token limit` : ''].filter(Boolean).join(', ');
    lines.push(`  replies:  ${r.replies.done} of ${r.replies.total} done (${answered} answered${outcomes ? `, of which ${outcomes}` : ''}, ${r.replies.errors} failed)`);
  }
  lines.push(`  verdicts: ${r.verdicts.done} of ${r.verdicts.total} made (${r.verdicts.errors} errors)`);
  lines.push(`  provider calls: ${r.providerCalls} (${r.cacheHits} answered from the cache), cost ${costLabel(r.costUsd, r.unpricedModels)}`);
  if (r.batch.mode === 'batch') {
    const saved = r.batch.savedUsd === null ? 'an unknown amount (no price for these models)' : formatUsd(r.batch.savedUsd);
    lines.push(`  batch mode: ${r.batch.lines} calls in ${r.batch.batches} provider batches, saved ${saved} against live prices`);
  }

  const shown = (title: string, list: RunErrors['replies']) => {
    if (list.length === 0) return;
    lines.push(title);
    for (const e of list.slice(0, SHOWN_ERRORS)) lines.push(`  ${e.count} × ${e.message}`);
  };
  shown('failed replies:', errors.replies);
  shown('error verdicts:', errors.verdicts);

  lines.push('scores (0–100, as on the pages; 95% interval over prompts):');
  // a run that ended otherwise than completed is why the exit status is 1: said where it is seen
  const warnings: string[] = r.status === 'completed' ? [] : [`error: run ${r.id} ended ${r.status}${r.error ? `: ${r.error}` : ''}`];
  const allFailed: string[] = [];
  for (const s of r.scores) {
    const interval = formatInterval(s.ciLow, s.ciHigh);
    const cov = coverageText(s.coverage);
    lines.push(`  ${formatScore(s.score).padStart(5)}  ${(interval ?? '').padEnd(11)}  ${s.model}${s.withheld ? `  (score withheld: ${s.withheld})` : ''}  [coverage: ${cov}]`);
    const note = intervalNote(s.interval);
    if (note) lines.push(`         ${note.label} · ${note.basis}`);
    // pass@k where prompts had several attempts (with one, pass@1 is just the pass rate)
    if (s.passAtK && s.passAtK.length > 1) lines.push(`         pass@k ${s.passAtK.map((p) => `k=${p.k} ${formatPercent(p.passAtK)}`).join(', ')}; pass^k ${s.passAtK.map((p) => formatPercent(p.passHatK)).join(', ')}`);
    if (s.replies > 0 && s.failedReplies === s.replies) allFailed.push(s.model);
    if (s.score !== null && s.scoredPrompts < FEW_PROMPTS) {
      warnings.push(`warning: ${s.model}'s ${interval ? 'interval' : 'score'} rests on ${plural(s.scoredPrompts, 'prompt')} (fewer than ${FEW_PROMPTS}): read it as rough`);
    }
  }
  for (const m of allFailed) warnings.push(`error: every reply of ${m} failed`);
  const anyScore = r.scores.some((s) => s.score !== null);
  if (!anyScore && r.status === 'completed') warnings.push('error: no model has a score (see the coverage and errors above)');
  lines.push(...groupLines(r.groups));
  lines.push(...judgeLines(r.judgeReliability));
  warnings.push(...selfJudgingWarnings(r.judgeReliability));
  // how each judge's answers were read: log-probabilities, or n samples and why (a reasoning model refuses log-probabilities)
  for (const [judge, how] of runJudgeMethods(judgeMethods)) lines.push(`  ${judge}: ${how}`);
  const mixed = runMixedMethodsNote(judgeMethods);
  if (mixed) lines.push(`note: ${mixed}`);
  if (humanCheck) lines.push(`people: ${humanCheck.text} (${publicUrl.replace(/\/+$/, '')}${humanCheck.href})`);
  lines.push(`see ${publicUrl.replace(/\/+$/, '')}/runs/${encodeURIComponent(r.id)}`);
  const ok = r.status === 'completed' && allFailed.length === 0 && anyScore;
  return { lines, warnings, exitCode: ok ? 0 : 1 };
}
