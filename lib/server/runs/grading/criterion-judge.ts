/**
 * The `JudgePort` of the criterion kinds (lib/core/criteria), over the run's judge path: the
 * run's judge panel, one call per judge at temperature 0 with top log-probabilities (samples
 * where a provider gives none: `askForJudgeOutputs`), malformed answers asked again, every call
 * through the gateway — so the response cache, the run's budget and its call ledger apply to
 * criterion questions exactly as to judged points. The panel's answer is the mean of the
 * distributions of the judges that answered; none answering is a `JudgeUnavailableError`, which
 * the kind turns into an `error` verdict. A budget error is not caught: it stops the run.
 */
import { choiceRequest, JudgeUnavailableError, type CriterionEvidence, type CriterionServices, type JudgePort, type JudgeSpec, type Prompt } from '@/lib/core';
import type { RunDeps } from '../engine/deps';
import { askUntilRead, judgeId } from './judge-call';
import type { StoredReply } from '../chat/generate';
import type { RunContext } from '../engine/run-context';
import { variantEvidence } from '../chat/variant-replies';

type OneAnswer = { judge: string; probs: Record<string, number>; reasoning: string | null } | { judge: string; error: string };

async function askOne(deps: RunDeps, ctx: RunContext, judge: JudgeSpec, request: ReturnType<typeof choiceRequest>): Promise<OneAnswer> {
  const id = judgeId(judge);
  const reading = await askUntilRead(deps, ctx, judge, request);
  return reading.ok ? { judge: id, probs: reading.distribution.probs, reasoning: reading.reasoning } : { judge: id, error: reading.error };
}

/** The run's judge panel as a `JudgePort`, or undefined when the run has no judges (kinds then give `error`). */
export function criterionJudge(deps: RunDeps, ctx: RunContext): JudgePort | undefined {
  if (ctx.settings.judges.length === 0) return undefined;
  return {
    async choose({ prompt, options }) {
      const request = choiceRequest(prompt, options);
      const answers = await Promise.all(ctx.settings.judges.map((j) => askOne(deps, ctx, j, request)));
      const answered = answers.filter((a): a is Extract<OneAnswer, { probs: unknown }> => 'probs' in a);
      if (answered.length === 0) throw new JudgeUnavailableError(answers.map((a) => `${a.judge}: ${'error' in a ? a.error : ''}`).join('; '));
      const distribution: Record<string, number> = {};
      for (const o of options) distribution[o] = answered.reduce((s, a) => s + (a.probs[o] ?? 0), 0) / answered.length;
      const raw = answered.map((a) => `${a.judge}: ${a.reasoning ?? '(no reasoning)'}`).join('\n');
      return { distribution, raw };
    },
  };
}

/**
 * The services a run gives the criterion kinds: its judge panel, and what the blueprint or
 * project declares (fixed messages, rubrics, the corpus), which the caller passes in.
 */
export function criterionServicesFor(deps: RunDeps, ctx: RunContext, declared: Omit<CriterionServices, 'judge'> = {}): CriterionServices {
  const judge = criterionJudge(deps, ctx);
  return { ...declared, ...(judge ? { judge } : {}) };
}

/**
 * What a criterion point of this reply sees beyond the reply text: the prompt's `expect`, its
 * variants' replies (read only for a prompt with variants), and the services. The grading path
 * passes it as the deterministic context's `criterion` (lib/core/scoring/deterministic.ts).
 */
export async function criterionContextFor(deps: RunDeps, ctx: RunContext, reply: Pick<StoredReply, 'id'>, prompt: Pick<Prompt, 'expect' | 'variants'>, declared: Omit<CriterionServices, 'judge'> = {}): Promise<{ evidence: Partial<CriterionEvidence>; services: CriterionServices }> {
  return {
    evidence: { expect: prompt.expect, variants: prompt.variants.length > 0 ? await variantEvidence(deps.db, reply.id) : {} },
    services: criterionServicesFor(deps, ctx, declared),
  };
}
