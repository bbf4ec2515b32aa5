/**
 * The judge's answer to one request, as both judging modes ask it: one call at temperature 0
 * asking for top log-probabilities; where the provider returns none, `judgeSamples` − 1 more
 * calls at temperature 1 so the distribution can be estimated from the sampled answers.
 */
import {
  questionValue,
  readJudgeOutput,
  readJudgeSamples,
  type JudgeReading,
  StoredJudgeRecordSchema,
  type JudgeAnswer,
  type JudgeDistribution,
  type JudgeOutputToken,
  type JudgeQuestion,
  type JudgeSpec,
  type StoredBatchCall,
  type StoredJudgeRecord,
} from '@/lib/core';
import { isProviderError, ModelResolutionError, type ChatMessage } from '../providers';
import { BudgetExceededError } from './errors';
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

/** A judge request as both the point judge and the criterion judge build it. */
type ReadableRequest = Parameters<typeof readJudgeOutput>[1] & { messages: ChatMessage[] };

/**
 * Asks one judge until its output reads as an answer: a malformed answer is asked again
 * (JUDGE_TRIES in all); a provider's failure ends it (the gateway already retried transient
 * errors); a used-up budget and anything unexpected propagate.
 */
export async function askUntilRead(deps: RunDeps, ctx: RunContext, judge: JudgeSpec, request: ReadableRequest): Promise<Extract<JudgeReading, { ok: true }> | { ok: false; error: string }> {
  let lastError = 'no answer';
  for (let tryNo = 0; tryNo < JUDGE_TRIES; tryNo++) {
    try {
      const out = await askForJudgeOutputs(deps, ctx, judge, request.messages, tryNo * 100, TOP_LOGPROBS);
      // No log-probabilities from this provider: the distribution is estimated from samples.
      const reading: JudgeReading =
        'logprobs' in out ? readJudgeOutput(out.content, request, out.logprobs) : out.samples.length === 1 ? readJudgeOutput(out.samples[0]!, request, null) : readJudgeSamples(out.samples, request);
      if (reading.ok) return reading;
      lastError = `malformed judge output: ${reading.error}`;
    } catch (e) {
      if (e instanceof BudgetExceededError) throw e;
      if (!isProviderError(e) && !(e instanceof ModelResolutionError)) throw e;
      lastError = e.message;
      break;
    }
  }
  return { ok: false, error: lastError };
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
