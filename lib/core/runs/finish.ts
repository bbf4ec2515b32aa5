/**
 * How a run ends: the one decision both schedulers (the in-process runner and the Inngest
 * functions) take from what the run stored. A run that produced no usable evidence — every
 * reply failed, or every verdict is an error — is `failed`, never `completed`: a completed
 * run's scores replace the blueprint's leaderboard entries, and an all-error run has none.
 */
import { z } from 'zod';
import type { FinalStatus } from './status';

const ErrorCountSchema = z.object({ message: z.string(), count: z.number().int().positive() });

export const RunOutcomeSchema = z.object({
  /** Prompt × model groups with work left (unreplied cells, ungraded replies). */
  groupsLeft: z.number().int().nonnegative(),
  /** Why the run stopped early when its budget did (null: it did not). */
  budgetStop: z.string().nullable(),
  replies: z.number().int().nonnegative(),
  failedReplies: z.number().int().nonnegative(),
  verdicts: z.number().int().nonnegative(),
  errorVerdicts: z.number().int().nonnegative(),
  /** The most frequent error messages of failed replies and of error verdicts, most frequent first. */
  replyErrors: z.array(ErrorCountSchema),
  verdictErrors: z.array(ErrorCountSchema),
});
export type RunOutcome = z.infer<typeof RunOutcomeSchema>;


export interface FinishDecision {
  status: FinalStatus;
  /** Why, for a run that did not complete (shown on the run page and by `assay run`). */
  error: string | null;
}

const mostCommon = (errors: RunOutcome['replyErrors']) => (errors[0] ? `: ${errors[0].count} × ${errors[0].message}` : '');

export function finalStatus(o: RunOutcome): FinishDecision {
  if (o.groupsLeft > 0) {
    if (o.budgetStop) return { status: 'budget_exceeded', error: o.budgetStop };
    return { status: 'failed', error: `cells failed after their retries with ${o.groupsLeft} prompt × model groups left` };
  }
  if (o.replies === 0) return { status: 'failed', error: 'the run produced no replies to grade' };
  if (o.failedReplies === o.replies) return { status: 'failed', error: `every reply failed (${o.replies})${mostCommon(o.replyErrors)}` };
  if (o.verdicts > 0 && o.errorVerdicts === o.verdicts) return { status: 'failed', error: `every verdict is an error (${o.verdicts})${mostCommon(o.verdictErrors)}` };
  return { status: 'completed', error: null };
}
