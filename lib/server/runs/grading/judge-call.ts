/**
 * The judge's answer to one request, as both judging modes ask it: one call at temperature 0
 * asking for top log-probabilities; where the provider returns none, `judgeSamples` − 1 more
 * calls at temperature 1 so the distribution can be estimated from the sampled answers; where it
 * returns them but the label's position cannot be read from them (lib/core/judging/label-position.ts),
 * `judgeSamples` calls at temperature 1. A sampled answer's record says why it was sampled.
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
  type SampledBecause,
  type StoredBatchCall,
  type StoredJudgeRecord,
} from '@/lib/core';
import { isProviderError, ModelResolutionError, type ChatMessage } from '../../providers';
import { BudgetExceededError } from '../engine/errors';
import { callKeyOf, type CallRequest } from '../calls/gateway';
import type { RunDeps } from '../engine/deps';
import type { RunContext } from '../engine/run-context';

/** Judge output without a well-formed answer is asked again this many times before it is an error. */
export const JUDGE_TRIES = 3;
export const TOP_LOGPROBS = 5;

export function judgeId(j: JudgeSpec): string {
  return `${j.model}#${j.approach}`;
}

export type JudgeOutputs = { content: string; logprobs: readonly JudgeOutputToken[] } | { samples: string[]; sampledBecause: SampledBecause };

/** `attempt` is the try's base: distinct per try, so a malformed answer is not replayed from the cache. */
export async function askForJudgeOutputs(deps: RunDeps, ctx: RunContext, judge: JudgeSpec, messages: ChatMessage[], attempt: number, topLogprobs: number): Promise<JudgeOutputs> {
  const asked: CallRequest = { modelId: judge.model, messages, temperature: 0, topLogprobs, attempt };
  if (deps.gateway.fit(ctx, asked).adjustment?.logprobsRefused) {
    // A model known to refuse log-probabilities (a reasoning model; providers/capabilities.ts) is
    // sampled from the start: `judgeSamples` independent draws (attempts attempt, attempt + 1…,
    // each its own cache entry), at temperature 1, which the gateway turns into the one
    // temperature the model accepts. No call at temperature 0 is made only to be refused.
    return { samples: await drawSamples(deps, ctx, judge, messages, attempt, Math.max(1, ctx.settings.judgeSamples)), sampledBecause: 'logprobs-refused' };
  }
  const first = await deps.gateway.call(ctx, asked);
  if (first.response.logprobs?.length) return { content: first.response.content, logprobs: first.response.logprobs };
  // No log-probabilities: the rest of the samples.
  const rest = await drawSamples(deps, ctx, judge, messages, attempt + 1, Math.max(0, ctx.settings.judgeSamples - 1));
  // Refused on this first call (learned from the provider's 400, sent again without them): say so.
  return { samples: [first.response.content, ...rest], sampledBecause: first.adjustment?.logprobsRefused ? 'logprobs-refused' : 'no-logprobs' };
}

/**
 * `count` independent answers at temperature 1 (the gateway turns it into the one temperature a
 * model accepts), attempts `from`, `from + 1`…, each its own cache entry, asked together so a
 * batch-mode run gets them in one batch rather than one per round.
 */
async function drawSamples(deps: RunDeps, ctx: RunContext, judge: JudgeSpec, messages: ChatMessage[], from: number, count: number): Promise<string[]> {
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => deps.gateway.call(ctx, { modelId: judge.model, messages, temperature: 1, attempt: from + i })));
  return answers.map((r) => r.response.content);
}

/**
 * The cache key of the first call `askForJudgeOutputs` makes for this request, as the gateway
 * sends it (fitted to the model's limits: a reasoning model's first draw), so a batched answer
 * names the call it came from.
 */
export function firstJudgeCallKey(deps: RunDeps, ctx: RunContext, judge: JudgeSpec, messages: ChatMessage[], attempt: number, topLogprobs: number): string {
  const asked: CallRequest = { modelId: judge.model, messages, temperature: 0, topLogprobs, attempt };
  const fitted = deps.gateway.fit(ctx, asked);
  return callKeyOf(fitted.adjustment?.logprobsRefused ? deps.gateway.fit(ctx, { ...asked, temperature: 1, topLogprobs: null }).req : fitted.req);
}

/**
 * `judgeSamples` answers at temperature 1, for a request whose log-probabilities came back but
 * could not be read: attempts after `attempt` (the temperature-0 call's), asked together so a
 * batch-mode run gets them in one batch. The temperature-0 answer is not one of them: it is the
 * judge's most likely answer, not a draw from its distribution.
 */
export function sampleJudge(deps: RunDeps, ctx: RunContext, judge: JudgeSpec, messages: ChatMessage[], attempt: number): Promise<string[]> {
  return drawSamples(deps, ctx, judge, messages, attempt + 1, Math.max(1, ctx.settings.judgeSamples));
}

/** An answer read, with why it was sampled when its distribution is an estimate from samples. */
export type JudgeAnswered = Extract<JudgeReading, { ok: true }> & { sampledBecause?: SampledBecause };

/** Sampled outputs → the distribution they estimate (one output: its point mass, n = 1). */
function readSampled(samples: readonly string[], request: ReadableRequest): JudgeReading {
  return samples.length === 1 ? readJudgeOutput(samples[0]!, request, null) : readJudgeSamples(samples, request);
}

/** A judge request as both the point judge and the criterion judge build it. */
type ReadableRequest = Parameters<typeof readJudgeOutput>[1] & { messages: ChatMessage[] };

/**
 * Asks one judge until its output reads as an answer: a malformed answer is asked again
 * (JUDGE_TRIES in all); a provider's failure ends it (the gateway already retried transient
 * errors); a used-up budget and anything unexpected propagate.
 */
export async function askUntilRead(deps: RunDeps, ctx: RunContext, judge: JudgeSpec, request: ReadableRequest): Promise<JudgeAnswered | { ok: false; error: string }> {
  let lastError = 'no answer';
  for (let tryNo = 0; tryNo < JUDGE_TRIES; tryNo++) {
    try {
      const base = tryNo * 100;
      const out = await askForJudgeOutputs(deps, ctx, judge, request.messages, base, TOP_LOGPROBS);
      let reading: JudgeReading;
      let sampledBecause: SampledBecause | undefined;
      if ('logprobs' in out) {
        reading = readJudgeOutput(out.content, request, out.logprobs);
        if (!reading.ok && 'unreadable' in reading) {
          // Log-probabilities came back, but not where the label is: estimate from samples instead.
          sampledBecause = 'label-not-in-logprobs';
          reading = readSampled(await sampleJudge(deps, ctx, judge, request.messages, base), request);
        }
      } else {
        sampledBecause = out.sampledBecause;
        reading = readSampled(out.samples, request);
      }
      if (reading.ok) return sampledBecause ? { ...reading, sampledBecause } : reading;
      lastError = `malformed judge output: ${'error' in reading ? reading.error : reading.unreadable}`;
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

/**
 * A judge that answered: its distribution, its value on the question, (sampled) why and from how
 * many answers, and (batched) the call it came from.
 */
export function answeredJudge(
  judge: JudgeSpec,
  id: string,
  question: JudgeQuestion,
  distribution: JudgeDistribution,
  reasoning: string | null,
  how: { batch?: StoredBatchCall; sampledBecause?: SampledBecause } = {},
): JudgeResult {
  const { batch, sampledBecause } = how;
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
      ...(distribution.method === 'samples' ? { ...(sampledBecause ? { sampledBecause } : {}), ...(distribution.n !== undefined ? { n: distribution.n } : {}) } : {}),
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
