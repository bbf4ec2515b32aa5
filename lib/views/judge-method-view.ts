/**
 * How each judge's answer was read, in words: from token log-probabilities, or estimated from
 * n sampled answers and why (the provider sent no log-probabilities, the label's position could
 * not be read from them, or the model refuses them, as reasoning models do). A panel whose
 * judges were read different ways says so: their distributions are not the same kind of
 * estimate, so the panel's consensus distribution is not shown (lib/core/scoring/judged.ts).
 */
import type { SampledBecause, StoredJudgeRecord } from '@/lib/core';
import type { JudgeMethodCount } from '@/lib/server/db/queries/run-judge-methods';
import { plural } from './format';

export const SAMPLED_BECAUSE_TEXT: Record<SampledBecause, string> = {
  'no-logprobs': 'the provider sent no log-probabilities',
  'label-not-in-logprobs': 'the label could not be found in the log-probabilities',
  'logprobs-refused': 'the model refuses log-probabilities',
};

type MethodFields = Pick<StoredJudgeRecord, 'method' | 'n' | 'sampledBecause'>;

/** "log-probabilities", "3 samples" or "samples" (n not recorded); null for a judge that gave no answer. */
export function judgeMethodLabel(j: MethodFields): string | null {
  if (j.method === 'logprobs') return 'log-probabilities';
  if (j.method === 'samples') return j.n === undefined ? 'samples' : plural(j.n, 'sample');
  return j.method;
}

/** Why a judge was sampled, as a sentence part ("the model refuses log-probabilities"), or null. */
export function sampledReason(j: MethodFields): string | null {
  return j.method === 'samples' && j.sampledBecause ? SAMPLED_BECAUSE_TEXT[j.sampledBecause] : null;
}

/**
 * A panel's note when its judges were read by different methods, e.g. "Judges used different
 * methods: openai:o4-mini 3 samples, openai:gpt-4o-mini log-probabilities"; null when they agree
 * (or fewer than two answered).
 */
export function mixedMethodsNote(judges: readonly (MethodFields & Pick<StoredJudgeRecord, 'judge'>)[]): string | null {
  const answered = judges.filter((j) => j.method !== null);
  if (new Set(answered.map((j) => j.method)).size < 2) return null;
  return `Judges used different methods: ${answered.map((j) => `${j.judge} ${judgeMethodLabel(j)}`).join(', ')}.`;
}

/** Per judge (`model (approach)`), how its answers were read over the run: "3 samples each (the model refuses log-probabilities)". */
export function runJudgeMethods(rows: readonly JudgeMethodCount[]): Map<string, string> {
  const byJudge = new Map<string, JudgeMethodCount[]>();
  for (const r of rows) {
    const key = `${r.judge} (${r.approach ?? 'standard'})`;
    byJudge.set(key, [...(byJudge.get(key) ?? []), r]);
  }
  const out = new Map<string, string>();
  for (const [key, list] of byJudge) {
    const parts = list.map((r) => {
      // The row's fields as a judge record has them, so the words are the verdict's own.
      const fields = { method: r.method, n: r.n ?? undefined, sampledBecause: r.sampledBecause ?? undefined } as MethodFields;
      const label = judgeMethodLabel(fields);
      const how = r.method === 'samples' && r.n !== null ? `${label} each` : label;
      const why = sampledReason(fields);
      const said = `${how}${why ? ` (${why})` : ''}`;
      return list.length === 1 ? said : `${said} on ${plural(r.count, 'verdict')}`;
    });
    out.set(key, parts.join('; '));
  }
  return out;
}

/** The run page's note when the panel's judges were read by different methods; null when every judge was read one way. */
export function runMixedMethodsNote(rows: readonly JudgeMethodCount[]): string | null {
  const methods = new Set(rows.filter((r) => r.method === 'logprobs' || r.method === 'samples').map((r) => r.method));
  if (methods.size < 2) return null;
  return 'The judges’ answers were read by different methods (log-probabilities and sampled answers): their distributions are different kinds of estimate, so verdicts show no consensus distribution where they mix.';
}
