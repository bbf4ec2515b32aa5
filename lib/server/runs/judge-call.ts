/**
 * The judge's answer to one request, as both judging modes ask it: one call at temperature 0
 * asking for top log-probabilities; where the provider returns none, `judgeSamples` − 1 more
 * calls at temperature 1 so the distribution can be estimated from the sampled answers.
 */
import {
  questionValue,
  StoredJudgeRecordSchema,
  type JudgeAnswer,
  type JudgeDistribution,
  type JudgeOutputToken,
  type JudgeQuestion,
  type JudgeSpec,
  type StoredBatchCall,
  type StoredJudgeRecord,
} from '@/lib/core';
import type { ChatMessage } from '../providers';
import type { RunDeps } from './deps';
import type { RunContext } from './run-context';

/** Judge output without a well-formed answer is asked again this many times before it is an error. */
export const JUDGE_TRIES = 3;
export const TOP_LOGPROBS = 5;

export function judgeId(j: JudgeSpec): string {
  return `${j.model}#${j.approach}`;
}

export type JudgeOutputs = { content: string; logprobs: readonly JudgeOutputToken[] } | { samples: string[] };

/** `attempt` is the try's base: distinct per try, so a malformed answer is not replayed from the cache. */
export async function askForJudgeOutputs(deps: RunDeps, ctx: RunContext, judge: JudgeSpec, messages: ChatMessage[], attempt: number, topLogprobs: number): Promise<JudgeOutputs> {
  const first = await deps.gateway.call(ctx, { modelId: judge.model, messages, temperature: 0, topLogprobs, attempt });
  if (first.response.logprobs?.length) return { content: first.response.content, logprobs: first.response.logprobs };
  // No log-probabilities: the rest of the samples, asked together (each its own attempt), so a
  // batch-mode run gets them all in one batch rather than one per round.
  const more = Array.from({ length: Math.max(0, ctx.settings.judgeSamples - 1) }, (_, i) => attempt + 1 + i);
  const rest = await Promise.all(more.map((a) => deps.gateway.call(ctx, { modelId: judge.model, messages, temperature: 1, attempt: a })));
  return { samples: [first.response.content, ...rest.map((r) => r.response.content)] };
}

/** One judge's answer on one point, as the verdict builder reads it and as `verdicts.judges[i]` stores it. */
export interface JudgeResult {
  answer: JudgeAnswer;
  record: StoredJudgeRecord;
}

/** A judge that answered: its distribution, its value on the question, and (batched) the call it came from. */
export function answeredJudge(judge: JudgeSpec, id: string, question: JudgeQuestion, distribution: JudgeDistribution, reasoning: string | null, batch?: StoredBatchCall): JudgeResult {
  const v = questionValue(question, distribution.probs);
  return {
    answer: { judge: id, distribution, reasoning },
    record: StoredJudgeRecordSchema.parse({
      judge: judge.model,
      approach: judge.approach,
      score: 'error' in v || !v.applicable ? null : v.value,
      distribution: distribution.probs,
      method: distribution.method,
      reasoning,
      error: null,
      ...(batch ? { batch } : {}),
    }),
  };
}

/** A judge that gave no answer (provider error, or malformed output after every try). */
export function failedJudge(judge: JudgeSpec, id: string, error: string): JudgeResult {
  return {
    answer: { judge: id, error },
    record: StoredJudgeRecordSchema.parse({ judge: judge.model, approach: judge.approach, score: null, distribution: null, method: null, reasoning: null, error }),
  };
}
