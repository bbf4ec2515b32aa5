/**
 * From a judge panel's answers to one point's outcome: each judge's
 * distribution over the question's labels gives that judge's value; the consensus is the
 * mean of the judges that gave one, with the panel's spread stored and a wide spread
 * flagged. A judge that failed (after retries) is counted, never a 0; when no judge
 * answered, the outcome is an error.
 */
import { panelConsensus } from '../judging/consensus';
import type { JudgeDistribution } from '../judging/distribution';
import type { JudgeQuestion } from '../judging/questions';
import { questionLabels, questionValue } from '../judging/values';
import type { Outcome } from './verdict';

export type JudgeAnswer =
  | { judge: string; distribution: JudgeDistribution; reasoning?: string | null }
  | { judge: string; error: string };

/** The mean of the judges' distributions when they were all read the same way (else none is stored). */
function panelDistribution(question: JudgeQuestion, ds: readonly JudgeDistribution[]): JudgeDistribution | undefined {
  const first = ds[0];
  if (!first || ds.some((d) => d.method !== first.method)) return undefined;
  const probs: Record<string, number> = {};
  for (const label of questionLabels(question)) probs[label] = ds.reduce((s, d) => s + (d.probs[label] ?? 0), 0) / ds.length;
  const n = ds.reduce((s, d) => s + (d.n ?? 0), 0);
  return { probs, method: first.method, ...(first.method === 'samples' && n > 0 ? { n } : {}) };
}

/**
 * A choice that does not apply for at least half of the judges that answered does not apply
 * for the panel; otherwise the judges that found it applicable are averaged.
 */
export function outcomeFromJudges(question: JudgeQuestion, answers: readonly JudgeAnswer[], opts: { disagreeAbove?: number } = {}): Outcome {
  const values: number[] = [];
  const used: JudgeDistribution[] = [];
  const failures: string[] = [];
  const reasons: string[] = [];
  let notApplicable = 0;
  for (const a of answers) {
    if ('error' in a) {
      failures.push(`${a.judge}: ${a.error}`);
      continue;
    }
    const v = questionValue(question, a.distribution.probs);
    if ('error' in v) {
      failures.push(`${a.judge}: ${v.error}`);
      continue;
    }
    if (a.reasoning) reasons.push(`${a.judge}: ${a.reasoning}`);
    if (!v.applicable) {
      notApplicable += 1;
      continue;
    }
    values.push(v.value);
    used.push(a.distribution);
  }
  const consensus = panelConsensus(values, opts);
  const panel = { answered: values.length, failed: failures.length, std: consensus.std, range: consensus.range, disagree: consensus.disagree };
  const reasoning = reasons.length > 0 ? reasons.join('\n') : null;
  const answered = values.length + notApplicable;
  if (answered === 0) {
    return { error: `no judge answered: ${failures.join('; ') || 'the panel is empty'}`, panel };
  }
  if (notApplicable * 2 >= answered) {
    return { notApplicable: true, detail: `${notApplicable} of ${answered} judges found that it does not apply`, reasoning, panel };
  }
  const distribution = panelDistribution(question, used);
  return {
    score: consensus.score as number,
    detail:
      `mean of ${values.length} judge${values.length === 1 ? '' : 's'}` +
      (failures.length > 0 ? `; ${failures.length} failed (${failures.join('; ')})` : '') +
      (notApplicable > 0 ? `; ${notApplicable} found it does not apply` : '') +
      (consensus.disagree ? '; the judges disagree' : ''),
    reasoning,
    panel,
    ...(distribution ? { distribution, method: distribution.method } : {}),
  };
}
