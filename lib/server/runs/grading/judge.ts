/**
 * Step: grade one reply against every point of its prompt and store the verdicts, the
 * attempt's score and the updated heatmap cell. Deterministic points run here; judged
 * points (plain strings and questions) go to the judge panel. All verdicts of a reply are
 * written in one transaction with the counters, so a retried step never stores one twice.
 */
import {
  attemptScore,
  criteriaAttemptScore,
  isCriteriaOnly,
  buildJudgeRequest,
  evaluateDeterministicPoint,
  judgeScaleQuestion,
  mayUseSandbox,
  resolvePointFunction,
  outcomeFromJudges,
  verdictFromOutcome,
  StoredDetailSchema,
  StoredDistributionSchema,
  StoredJudgesSchema,
  type JudgeQuestion,
  type JudgeSpec,
  type Point,
  type Prompt,
  type StoredJudgeRecord,
  type Verdict,
} from '@/lib/core';
import { Prisma } from '@/generated/prisma/client';
import type { RunDeps } from '../engine/deps';
import type { StoredReply } from '../chat/generate';
import type { RunContext } from '../engine/run-context';
import { refreshCell } from '../../db/commands/cell-writer';
import { gradingWriter, type AttemptRow } from '../../db/commands/grading-writer';
import { criterionJudge } from './criterion-judge';
import { variantEvidence } from '../chat/variant-replies';
import { judgePointsBatched } from './judge-batched';
import { answeredJudge, askUntilRead, failedJudge, JUDGE_TRIES, judgeId, TOP_LOGPROBS, type JudgeResult } from './judge-call';
import type { GradingPool } from './grading-pool';
import { replySandbox, withReplyBudgets } from './sandbox-budget';
import { criterionEvidence, criterionServices } from './criterion-services';

/** One judge's answer as stored in `verdicts.judges` (the schema the pages read it with). */
type JudgeRecord = StoredJudgeRecord;

interface Graded {
  verdict: Verdict;
  judges: JudgeRecord[] | null;
}

async function askJudge(deps: RunDeps, ctx: RunContext, judge: JudgeSpec, question: JudgeQuestion, input: { reply: string; conversation: StoredReply['turns']; others: string[] }): Promise<JudgeResult> {
  const id = judgeId(judge);
  const request = buildJudgeRequest({ approach: judge.approach, question, reply: input.reply, conversation: input.conversation, otherCriteria: input.others });
  const reading = await askUntilRead(deps, ctx, judge, request);
  return reading.ok ? answeredJudge(judge, id, question, reading.distribution, reading.reasoning, { sampledBecause: reading.sampledBecause }) : failedJudge(judge, id, reading.error);
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
 * A point that evaluates blueprint-written patterns or paths against the reply without a service
 * of the server: a `correct:` check (its JSONPath and regexes) and any function point except
 * the external ones (`$call`, `$factcheck` go through the server's allow-listed HTTP port).
 */
function gradedOffThread(point: Prompt['points'][number]): boolean {
  if (point.kind === 'correct') return true;
  if (point.kind !== 'function') return false;
  const fn = resolvePointFunction(point.fn);
  return !fn.ok || !EXTERNAL_FUNCTIONS.has(fn.canonical);
}

const EXTERNAL_FUNCTIONS = new Set(['call', 'factcheck']);

/**
 * The reply's deterministic points, graded in a grading worker (off this thread): those that may
 * run code in the sandbox under the reply's and the run's sandbox budgets (what the worker spent
 * is charged to both here, so budgets span replies and resumes as on the thread), and the other
 * `correct:` and function points, whose patterns and paths are the blueprint's own: even bounded,
 * their evaluation must not hold the thread that answers pages. Each worker has its own sandbox.
 */
async function gradePointsInWorker(pool: GradingPool, deps: RunDeps, ctx: RunContext, reply: StoredReply, prompt: Prompt): Promise<Map<number, Verdict | 'needs-judge'>> {
  const [sandboxed, plain] = await Promise.all([gradeSandboxPointsInWorker(pool, deps, ctx, reply, prompt), gradePlainPointsInWorker(pool, reply, prompt)]);
  return new Map([...sandboxed, ...plain]);
}

/**
 * Points that never run the sandbox spend no sandbox budget: they are sent with empty budgets,
 * so their job's wall-clock limit is the pool's floor (GRADING_POOL_DEFAULTS.floorMs): a backstop for
 * an engine fault, since their patterns and paths are linear-time.
 */
async function gradePlainPointsInWorker(pool: GradingPool, reply: StoredReply, prompt: Prompt): Promise<Map<number, Verdict | 'needs-judge'>> {
  const points = prompt.points.flatMap((point, index) => (!mayUseSandbox(point) && gradedOffThread(point) ? [{ index, point }] : []));
  if (points.length === 0) return new Map();
  const none = { limitMs: 0, usedMs: 0 };
  const result = await pool.grade({ points, reply: { content: reply.content, toolCalls: reply.toolCalls }, context: { messages: reply.turns, modelId: reply.modelId, promptId: prompt.id }, budgets: { reply: none, run: none } });
  return new Map(points.map((p, i) => [p.index, result.verdicts[i]!]));
}

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
 * Deterministic points first. With a grading pool, every `correct:` and function point goes to
 * a worker (gradePointsInWorker); only criterion and external points run here. Without one, sandbox code runs synchronously
 * on this thread, so a turn of the event loop before each such point bounds the stall to one
 * point's limit (1 s) rather than the reply's whole sandbox budget. Judged points then go out together:
 * one call per point per judge, or, with `judge_mode: batched`, one call per judge for all of them.
 */
async function gradePoints(deps: RunDeps, ctx: RunContext, reply: StoredReply, prompt: Prompt): Promise<Graded[]> {
  const inWorker = deps.gradingPool ? await gradePointsInWorker(deps.gradingPool, deps, ctx, reply, prompt) : new Map<number, Verdict | 'needs-judge'>();
  const bounded = deps.gradingPool ? null : await replySandbox(deps, ctx);
  // criterion points (soev kinds): the reply's citations, the case's expect, the run's services
  // (their variants' replies, and the run's judge panel as the JudgePort)
  const criterion = prompt.points.some((p) => p.kind === 'criterion')
    ? {
        evidence: { ...criterionEvidence(ctx, reply, prompt), variants: prompt.variants.length > 0 ? await variantEvidence(deps.db, reply.id) : {} },
        services: await criterionServices(deps, ctx, { judge: criterionJudge(deps, ctx) }),
      }
    : undefined;
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
            ...(criterion ? { criterion } : {}),
          },
        ));
      graded.push(d === 'needs-judge' ? null : { verdict: d, judges: null });
    }
  } finally {
    await bounded?.record();
  }
  if (ctx.settings.judgeMode === 'batched' && ctx.settings.judges.length > 0) {
    const judged = graded.flatMap((g, i) => (g === null ? [i] : []));
    const batched = await judgePointsBatched(deps, ctx, reply, prompt, judged, { tries: JUDGE_TRIES, topLogprobs: TOP_LOGPROBS, judgeId });
    return graded.map((g, i) => g ?? batched.get(i)!);
  }
  return Promise.all(graded.map((g, pointIndex) => g ?? judgePoint(deps, ctx, reply, prompt, prompt.points[pointIndex]!, pointIndex)));
}

function verdictRow(ctx: RunContext, reply: StoredReply, g: Graded): Prisma.VerdictCreateManyInput {
  const v = g.verdict;
  // a criterion is stored by its kind and parameters in the same columns as a function's name and arguments
  const fn = v.spec.kind === 'function' ? v.spec : v.spec.kind === 'criterion' ? { fn: v.spec.criterion, args: v.spec.params } : null;
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
    method: v.method ?? (v.kind === 'function' ? 'function' : v.kind === 'correct' ? 'check' : v.kind === 'criterion' ? 'criterion' : null),
    detail: StoredDetailSchema.parse(v.detail),
    reasoning: v.reasoning,
    judges: g.judges ? (StoredJudgesSchema.parse(g.judges) as Prisma.InputJsonValue) : Prisma.DbNull,
    // the panel's spread is stored per verdict; its agreement (α) is not: over one reply's points
    // α is 0 or 1 whatever the judges said, so it is reported only over a run, a blueprint or a
    // board (krippendorffAlpha in lib/core/judging/alpha.ts)
    spread: v.panel?.std ?? null,
    disagreement: v.panel?.disagree ?? false,
    regexEngine: v.regexEngine ?? null,
    data: v.data === undefined ? Prisma.DbNull : (v.data as Prisma.InputJsonValue),
  };
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
  let passed: boolean | null = null;
  if (reply.error) {
    // The model gave no reply: the attempt is unscored (never a 0), every point counted as an error.
    errorCount = prompt.points.length;
    if (prompt.points.some((p) => p.kind === 'criterion')) passed = false;
  } else {
    graded = await gradePoints(deps, ctx, reply, prompt);
    const verdicts = graded.map((g) => g.verdict);
    const a = attemptScore(verdicts);
    score = a.score;
    errorCount = a.errors;
    gateFailed = a.gateFailed;
    noApplicable = a.noApplicable;
    if (prompt.points.some((p) => p.kind === 'criterion')) {
      // soev's per-attempt pass; a prompt of criteria alone is scored as soev scores it (criteria-attempt.ts)
      const soev = criteriaAttemptScore(verdicts);
      passed = soev.passed;
      if (isCriteriaOnly(prompt.points)) score = soev.score;
    }
  }
  const rows = graded.map((g) => verdictRow(ctx, reply, g));
  await storeGrading(deps.db, ctx.runId, reply, rows, { score, errorCount, gateFailed, noApplicable, passed });
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

/** Recomputes one heatmap cell (prompt × model) from its attempts: incremental, never the whole run (cell-writer.ts). */
export function updateCell(deps: RunDeps, ctx: RunContext, promptKey: string, modelId: string): Promise<void> {
  return refreshCell(deps.db, { runId: ctx.runId, promptKey, modelId, passThreshold: ctx.blueprint.pass_threshold });
}
