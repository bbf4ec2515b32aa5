/**
 * Step: grade one reply against every point of its prompt and store the verdicts, the
 * attempt's score and the updated heatmap cell. Deterministic points run here; judged
 * points (plain strings and questions) go to the judge panel. All verdicts of a reply are
 * written in one transaction with the counters, so a retried step never stores one twice.
 */
import {
  attemptScore,
  buildJudgeRequest,
  evaluateDeterministicPoint,
  judgeScaleQuestion,
  krippendorffAlphaInterval,
  mayUseSandbox,
  outcomeFromJudges,
  questionValue,
  readJudgeOutput,
  readJudgeSamples,
  verdictFromOutcome,
  StoredDetailSchema,
  StoredDistributionSchema,
  StoredJudgeRecordSchema,
  StoredJudgesSchema,
  type JudgeAnswer,
  type JudgeQuestion,
  type JudgeReading,
  type JudgeSpec,
  type Point,
  type Prompt,
  type StoredJudgeRecord,
  type Verdict,
} from '@/lib/core';
import { randomUUID } from 'node:crypto';
import { Prisma } from '@/generated/prisma/client';
import { isProviderError, ModelResolutionError } from '../providers';
import type { RunDeps } from './deps';
import { BudgetExceededError } from './errors';
import type { StoredReply } from './generate';
import type { RunContext } from './run-context';
import { cellCurveJson, cellData } from './summarise';
import { gradingWriter, type AttemptRow } from './grading-writer';
import type { GradingPool } from './grading-pool';
import { replySandbox, withReplyBudgets } from './sandbox-budget';

/** Judge output without a well-formed answer is asked again this many times before it is an error. */
const JUDGE_TRIES = 3;
const TOP_LOGPROBS = 5;

/** One judge's answer as stored in `verdicts.judges` (the schema the pages read it with). */
type JudgeRecord = StoredJudgeRecord;

interface Graded {
  verdict: Verdict;
  judges: JudgeRecord[] | null;
}

export function judgeId(j: JudgeSpec): string {
  return `${j.model}#${j.approach}`;
}

async function askJudge(deps: RunDeps, ctx: RunContext, judge: JudgeSpec, question: JudgeQuestion, input: { reply: string; conversation: StoredReply['turns']; others: string[] }): Promise<{ answer: JudgeAnswer; record: JudgeRecord }> {
  const id = judgeId(judge);
  const request = buildJudgeRequest({ approach: judge.approach, question, reply: input.reply, conversation: input.conversation, otherCriteria: input.others });
  let lastError = 'no answer';
  for (let tryNo = 0; tryNo < JUDGE_TRIES; tryNo++) {
    try {
      const base = tryNo * 100; // distinct cache keys per try: a malformed answer is not replayed from the cache
      const first = await deps.gateway.call(ctx, { modelId: judge.model, messages: request.messages, temperature: 0, topLogprobs: TOP_LOGPROBS, attempt: base });
      let reading: JudgeReading;
      if (first.response.logprobs?.length) {
        reading = readJudgeOutput(first.response.content, request, first.response.logprobs);
      } else {
        // No log-probabilities from this provider: estimate the distribution from samples.
        // Asked together (each its own attempt): a batch-mode run gets them all in one batch, not one per round.
        const samples = Array.from({ length: Math.max(0, ctx.settings.judgeSamples - 1) }, (_, i) => base + 1 + i);
        const rest = await Promise.all(samples.map((attempt) => deps.gateway.call(ctx, { modelId: judge.model, messages: request.messages, temperature: 1, attempt })));
        const outputs = [first.response.content, ...rest.map((r) => r.response.content)];
        reading = outputs.length === 1 ? readJudgeOutput(outputs[0]!, request, null) : readJudgeSamples(outputs, request);
      }
      if (reading.ok) {
        const v = questionValue(question, reading.distribution.probs);
        return {
          answer: { judge: id, distribution: reading.distribution, reasoning: reading.reasoning },
          record: StoredJudgeRecordSchema.parse({
            judge: judge.model,
            approach: judge.approach,
            score: 'error' in v || !v.applicable ? null : v.value,
            distribution: reading.distribution.probs,
            method: reading.distribution.method,
            reasoning: reading.reasoning,
            error: null,
          }),
        };
      }
      lastError = `malformed judge output: ${reading.error}`;
    } catch (e) {
      if (e instanceof BudgetExceededError) throw e;
      if (!isProviderError(e) && !(e instanceof ModelResolutionError)) throw e;
      lastError = e.message;
      break; // the gateway already retried transient provider errors
    }
  }
  return {
    answer: { judge: id, error: lastError },
    record: StoredJudgeRecordSchema.parse({ judge: judge.model, approach: judge.approach, score: null, distribution: null, method: null, reasoning: null, error: lastError }),
  };
}

async function judgePoint(deps: RunDeps, ctx: RunContext, reply: StoredReply, prompt: Prompt, point: Point, index: number): Promise<Graded> {
  const question: JudgeQuestion = point.kind === 'question' ? point.question : judgeScaleQuestion(point.text);
  if (ctx.settings.judges.length === 0) {
    return { verdict: verdictFromOutcome(point, index, { error: 'needs a judge: this run has no judge models configured' }), judges: null };
  }
  const input = {
    reply: reply.content,
    conversation: reply.turns.slice(0, -1),
    others: prompt.points.filter((_, i) => i !== index).map((p) => p.text),
  };
  const asked = await Promise.all(ctx.settings.judges.map((j) => askJudge(deps, ctx, j, question, input)));
  const outcome = outcomeFromJudges(question, asked.map((a) => a.answer));
  const verdict = verdictFromOutcome(point, index, outcome, { judges: ctx.settings.judges.map(judgeId) });
  return { verdict, judges: asked.map((a) => a.record) };
}

/**
 * A full turn of the event loop (a timer, not setImmediate: an immediate queued from an I/O
 * callback runs before the loop polls again, so two sandbox points could run back to back).
 */
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The reply's points that may run code in the sandbox, graded in a grading worker (off this
 * thread) under the reply's and the run's sandbox budgets; what the worker spent is charged
 * to both here, so budgets span replies and resumes as on the thread.
 */
async function gradeSandboxPointsInWorker(pool: GradingPool, deps: RunDeps, ctx: RunContext, reply: StoredReply, prompt: Prompt): Promise<Map<number, Verdict | 'needs-judge'>> {
  const points = prompt.points.flatMap((point, index) => (mayUseSandbox(point) ? [{ index, point }] : []));
  if (points.length === 0) return new Map();
  return withReplyBudgets(deps, ctx, async (budgets) => {
    const result = await pool.grade({
      points,
      reply: { content: reply.content, toolCalls: reply.toolCalls },
      context: { messages: reply.turns, modelId: reply.modelId, promptId: prompt.id },
      budgets: {
        reply: { limitMs: budgets.reply.limitMs, usedMs: budgets.reply.usedMs },
        run: { limitMs: budgets.run.limitMs, usedMs: budgets.run.usedMs },
      },
    });
    budgets.reply.charge(result.spentMs);
    budgets.run.charge(result.spentMs);
    return new Map(points.map((p, i) => [p.index, result.verdicts[i]!]));
  });
}

/**
 * Deterministic points first. With a grading pool, the points that may use the sandbox go to
 * a worker and the rest (linear-time) run here. Without one, sandbox code runs synchronously
 * on this thread, so a turn of the event loop before each such point bounds the stall to one
 * point's limit (1 s) rather than the reply's whole sandbox budget. Judged points then go out together.
 */
async function gradePoints(deps: RunDeps, ctx: RunContext, reply: StoredReply, prompt: Prompt): Promise<Graded[]> {
  const inWorker = deps.sandbox && deps.gradingPool ? await gradeSandboxPointsInWorker(deps.gradingPool, deps, ctx, reply, prompt) : new Map<number, Verdict | 'needs-judge'>();
  const bounded = deps.gradingPool ? null : await replySandbox(deps, ctx);
  const graded: Array<Graded | null> = [];
  try {
    for (const [pointIndex, point] of prompt.points.entries()) {
      if (bounded && mayUseSandbox(point)) await nextTurn();
      const d =
        inWorker.get(pointIndex) ??
        (await evaluateDeterministicPoint(
          point,
          { content: reply.content, toolCalls: reply.toolCalls },
          {
            pointIndex,
            messages: reply.turns,
            modelId: reply.modelId,
            promptId: prompt.id,
            ...(bounded ? { sandbox: bounded.sandbox } : {}),
            ...(deps.external ? { external: deps.external } : {}),
          },
        ));
      graded.push(d === 'needs-judge' ? null : { verdict: d, judges: null });
    }
  } finally {
    await bounded?.record();
  }
  return Promise.all(graded.map((g, pointIndex) => g ?? judgePoint(deps, ctx, reply, prompt, prompt.points[pointIndex]!, pointIndex)));
}

function verdictRow(ctx: RunContext, reply: StoredReply, g: Graded, alpha: number | null): Prisma.VerdictCreateManyInput {
  const v = g.verdict;
  const fn = v.spec.kind === 'function' ? v.spec : null;
  return {
    runId: ctx.runId,
    replyId: reply.id,
    promptKey: reply.promptKey,
    modelId: reply.modelId,
    pointIndex: v.pointIndex,
    status: v.status,
    score: v.score,
    kind: v.kind,
    pointText: v.text,
    fn: fn?.fn ?? null,
    args: fn && fn.args !== undefined ? (fn.args as Prisma.InputJsonValue) : Prisma.DbNull,
    weight: v.weight,
    gate: v.gate,
    path: v.path,
    source: v.source,
    // built through the schemas the pages parse them with (lib/core/evidence)
    distribution: v.distribution ? StoredDistributionSchema.parse(v.distribution.probs) : Prisma.DbNull,
    method: v.method ?? (v.kind === 'function' ? 'function' : v.kind === 'correct' ? 'check' : null),
    detail: StoredDetailSchema.parse(v.detail),
    reasoning: v.reasoning,
    judges: g.judges ? (StoredJudgesSchema.parse(g.judges) as Prisma.InputJsonValue) : Prisma.DbNull,
    spread: v.panel?.std ?? null,
    alpha: g.judges ? alpha : null,
    disagreement: v.panel?.disagree ?? false,
    regexEngine: v.regexEngine ?? null,
  };
}

/** The panel's agreement on this reply: Krippendorff's α over its judged points × judges. */
function panelAlpha(graded: Graded[]): number | null {
  const matrix = graded.filter((g) => g.judges).map((g) => g.judges!.map((j) => j.score));
  return matrix.length > 0 ? krippendorffAlphaInterval(matrix) : null;
}

export interface JudgedReply {
  score: number | null;
  verdicts: number;
}

/** `fresh`: the caller knows the reply is not graded yet under this run (skips one lookup; the writes still guard). */
export async function judgeReply(deps: RunDeps, ctx: RunContext, reply: StoredReply, opts: { fresh?: boolean } = {}): Promise<JudgedReply> {
  if (!opts.fresh) {
    const done = await deps.db.attemptScore.findUnique({ where: { runId_replyId: { runId: ctx.runId, replyId: reply.id } }, select: { score: true } });
    if (done) return { score: done.score, verdicts: 0 };
  }
  const prompt = ctx.prompts.get(reply.promptKey);
  if (!prompt) throw new Error(`reply ${reply.id} names prompt "${reply.promptKey}", which the run's blueprint does not have`);

  let graded: Graded[] = [];
  let score: number | null = null;
  let errorCount: number;
  let gateFailed = false;
  let noApplicable = false;
  if (reply.error) {
    // The model gave no reply: the attempt is unscored (never a 0), every point counted as an error.
    errorCount = prompt.points.length;
  } else {
    graded = await gradePoints(deps, ctx, reply, prompt);
    const a = attemptScore(graded.map((g) => g.verdict));
    score = a.score;
    errorCount = a.errors;
    gateFailed = a.gateFailed;
    noApplicable = a.noApplicable;
  }
  const alpha = panelAlpha(graded);
  const rows = graded.map((g) => verdictRow(ctx, reply, g, alpha));
  await storeGrading(deps.db, ctx.runId, reply, rows, { score, errorCount, gateFailed, noApplicable });
  await updateCell(deps, ctx, reply.promptKey, reply.modelId);
  return { score, verdicts: rows.length };
}

/**
 * Writes one reply's grading: all its verdicts, its attempt score and the run's counters,
 * committed before this resolves. Concurrent gradings share statements (group commit, see
 * grading-writer.ts); unique keys make a retry a no-op.
 */
export function storeGrading(
  db: RunDeps['db'],
  runId: string,
  reply: Pick<StoredReply, 'id' | 'promptKey' | 'modelId'>,
  rows: Prisma.VerdictCreateManyInput[],
  attempt: AttemptRow,
): Promise<void> {
  return gradingWriter(db).write({ runId, reply, rows, attempt });
}

/** Recomputes one heatmap cell (prompt × model) from its attempts: incremental, never the whole run. */
export async function updateCell(deps: RunDeps, ctx: RunContext, promptKey: string, modelId: string): Promise<void> {
  const attempts = await deps.db.attemptScore.findMany({ where: { runId: ctx.runId, promptKey, modelId }, select: { score: true, errorCount: true } });
  const d = cellData(attempts, ctx.blueprint.pass_threshold);
  const curve = cellCurveJson(d);
  await deps.db.$executeRaw`
    INSERT INTO run_cell_summaries (id, run_id, prompt_key, model_id, score, pass_at_k, pass_hat_k, attempts, error_count, scored_attempts, passes, pass_curve)
    VALUES (${randomUUID()}, ${ctx.runId}, ${promptKey}, ${modelId}, ${d.score}, ${d.passAtK}, ${d.passHatK}, ${d.attempts}, ${d.errorCount}, ${d.scoredAttempts}, ${d.passes}, ${curve}::jsonb)
    ON CONFLICT (run_id, prompt_key, model_id) DO UPDATE SET score = EXCLUDED.score, pass_at_k = EXCLUDED.pass_at_k,
      pass_hat_k = EXCLUDED.pass_hat_k, attempts = EXCLUDED.attempts, error_count = EXCLUDED.error_count,
      scored_attempts = EXCLUDED.scored_attempts, passes = EXCLUDED.passes, pass_curve = EXCLUDED.pass_curve`;
}
