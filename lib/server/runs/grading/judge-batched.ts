/**
 * Batched judging (opt-in: `judge_mode: batched`): all judged points of one reply put to each
 * judge in ONE call as lettered questions (lib/core/judging/batch-prompt.ts), at most
 * JUDGE_BATCH_MAX_QUESTIONS per call (larger sets split evenly). Each question's distribution
 * is read from its own answer token; without log-probabilities the whole batch is sampled
 * `judgeSamples` times, as the per-point mode samples each point, and so it is where they came
 * back but a question's answer position cannot be read (that question's answer then comes from
 * the samples, its record saying why). A question the judge left
 * unanswered (or answered badly) is asked again, alone with the other such questions, up to
 * the per-point mode's number of tries; the others keep their answers. Every judge record
 * stores the call that produced it, and each verdict's detail says it was batched.
 *
 * Kept apart from judge.ts on purpose: judge.ts only chooses the mode, the write path is shared.
 */
import {
  buildJudgeBatchRequest,
  judgeScaleQuestion,
  outcomeFromJudges,
  readJudgeBatchOutput,
  readJudgeBatchSamples,
  splitIntoBatches,
  verdictFromOutcome,
  type JudgeBatchReading,
  type JudgeQuestion,
  type JudgeSpec,
  type Outcome,
  type Point,
  type Prompt,
  type SampledBecause,
  type StoredJudgeRecord,
  type Verdict,
} from '@/lib/core';
import { isProviderError, ModelResolutionError } from '../../providers';
import type { RunDeps } from '../engine/deps';
import { BudgetExceededError } from '../engine/errors';
import type { StoredReply } from '../chat/generate';
import { answeredJudge, askForJudgeOutputs, failedJudge, firstJudgeCallKey, sampleJudge, type JudgeResult } from './judge-call';
import type { RunContext } from '../engine/run-context';

export interface BatchedGraded {
  verdict: Verdict;
  judges: StoredJudgeRecord[];
}

/** The per-point mode's protocol settings, passed in so both modes share one definition. */
export interface JudgeProtocol {
  tries: number;
  topLogprobs: number;
  judgeId: (j: JudgeSpec) => string;
}

interface Asked {
  index: number;
  point: Point;
  question: JudgeQuestion;
}


interface BatchInput {
  reply: string;
  conversation: StoredReply['turns'];
  /** Holistic judges: the criteria of the points not asked in this call. */
  others: string[];
}

/** One judge, one batch: every question's answer and stored record, in the batch's order. */
async function askJudgeBatch(deps: RunDeps, ctx: RunContext, judge: JudgeSpec, batch: readonly Asked[], input: BatchInput, protocol: JudgeProtocol): Promise<JudgeResult[]> {
  const id = protocol.judgeId(judge);
  const results: (JudgeResult | null)[] = batch.map(() => null);
  const lastError: string[] = batch.map(() => 'no answer');
  for (let tryNo = 0; tryNo < protocol.tries; tryNo++) {
    const open = batch.flatMap((_, i) => (results[i] === null ? [i] : []));
    if (open.length === 0) break;
    const request = buildJudgeBatchRequest({ approach: judge.approach, questions: open.map((i) => batch[i]!.question), reply: input.reply, conversation: input.conversation, otherCriteria: input.others });
    const base = tryNo * 100; // distinct cache keys per try, as per-point: a bad answer is not replayed from the cache
    // The first call's cache key (the one askForJudgeOutputs makes): where this answer came from.
    const call = firstJudgeCallKey(deps, ctx, judge, request.messages, base, protocol.topLogprobs);
    let reading: JudgeBatchReading;
    // Per question of this try: why its answer was sampled (undefined: read from log-probabilities).
    let sampledBecause: (SampledBecause | undefined)[] = open.map(() => undefined);
    let failed: string | null = null;
    try {
      const out = await askForJudgeOutputs(deps, ctx, judge, request.messages, base, protocol.topLogprobs);
      if ('logprobs' in out) {
        reading = readJudgeBatchOutput(out.content, request, out.logprobs);
      } else {
        // No log-probabilities from this provider: the whole batch was sampled, as per-point samples each point.
        reading = out.samples.length === 1 ? readJudgeBatchOutput(out.samples[0]!, request, null) : readJudgeBatchSamples(out.samples, request);
        sampledBecause = open.map(() => out.sampledBecause);
      }
    } catch (e) {
      if (e instanceof BudgetExceededError) throw e;
      if (!isProviderError(e) && !(e instanceof ModelResolutionError)) throw e;
      for (const i of open) lastError[i] = e.message;
      break; // the gateway already retried transient provider errors
    }
    if (reading.answers.some((a) => 'unreadable' in a)) {
      // Log-probabilities came back, but some answer's position does not give its distribution:
      // those questions are answered from samples of the whole batch; the others keep theirs.
      try {
        const sampled = readJudgeBatchSamples(await sampleJudge(deps, ctx, judge, request.messages, base), request);
        reading = {
          ...reading,
          answers: reading.answers.map((a, k) => {
            if (!('unreadable' in a)) return a;
            sampledBecause[k] = 'label-not-in-logprobs';
            return sampled.answers[k]!;
          }),
        };
      } catch (e) {
        if (e instanceof BudgetExceededError) throw e;
        if (!isProviderError(e) && !(e instanceof ModelResolutionError)) throw e;
        failed = e.message;
      }
    }
    reading.answers.forEach((a, k) => {
      const i = open[k]!;
      if (!a.ok) {
        // The letter is this try's (a retry re-letters the questions it asks again).
        const why = 'error' in a ? a.error : `${a.unreadable}; sampling it failed: ${failed}`;
        lastError[i] = `malformed judge output (try ${tryNo + 1}, asked as question ${a.letter} of ${open.length}): ${why}`;
        return;
      }
      results[i] = answeredJudge(judge, id, batch[i]!.question, a.distribution, a.reasoning, { batch: { call, question: a.letter, of: open.length }, sampledBecause: sampledBecause[k] });
    });
    if (failed !== null) break; // as above: a provider's failure ends the tries
  }
  return batch.map((_, i) => results[i] ?? failedJudge(judge, id, lastError[i]!));
}

/** The verdict's detail (or error) says how the point was asked. */
function markBatched(outcome: Outcome, letter: string, of: number): Outcome {
  const how = `batched: question ${letter} of ${of} in one call per judge`;
  if ('error' in outcome) return { ...outcome, error: `${outcome.error} (${how})` };
  return { ...outcome, detail: outcome.detail ? `${outcome.detail} (${how})` : how };
}

/**
 * Grades the reply's judged points (`indices`, in prompt order) in batched calls. The caller
 * guarantees the run has at least one judge.
 */
export async function judgePointsBatched(deps: RunDeps, ctx: RunContext, reply: StoredReply, prompt: Prompt, indices: readonly number[], protocol: JudgeProtocol): Promise<Map<number, BatchedGraded>> {
  const asked: Asked[] = indices.map((index) => {
    const point = prompt.points[index]!;
    return { index, point, question: point.kind === 'question' ? point.question : judgeScaleQuestion(point.text) };
  });
  const batches = splitIntoBatches(asked);
  const conversation = reply.turns.slice(0, -1);
  const perBatch = await Promise.all(
    batches.map(async (batch) => {
      const inBatch = new Set(batch.map((a) => a.index));
      const input: BatchInput = { reply: reply.content, conversation, others: prompt.points.filter((_, i) => !inBatch.has(i)).map((p) => p.text) };
      const byJudge = await Promise.all(ctx.settings.judges.map((j) => askJudgeBatch(deps, ctx, j, batch, input, protocol)));
      return batch.map((a, k): [number, BatchedGraded] => {
        const results = byJudge.map((r) => r[k]!);
        const outcome = markBatched(
          outcomeFromJudges(a.question, results.map((r) => r.answer)),
          String.fromCharCode(65 + k),
          batch.length,
        );
        const verdict = verdictFromOutcome(a.point, a.index, outcome, { judges: ctx.settings.judges.map(protocol.judgeId) });
        return [a.index, { verdict, judges: results.map((r) => r.record) }];
      });
    }),
  );
  return new Map(perBatch.flat());
}
