/**
 * A run's steps: the one engine under both schedulers (the in-process runner, execute-run.ts,
 * and the Inngest functions over the run's units, runs/units/kinds.ts). A scheduler decides only when
 * and where a step runs; what is still pending, what a step does and how a run ends are
 * decided here, once:
 *
 *   settled? → start → pendingGroups → processGroup (or generateGroup, then judgeGroup) × N → finish
 *
 * Every step is idempotent: the database is the journal, so a step repeated after a kill, a
 * redelivered event or a retry repeats no stored call and stores nothing twice.
 */
import { Prisma } from '@/generated/prisma/client';
import { finalStatus, planGenerations, replySourceOf, type FinalStatus, type GenerationCell } from '@/lib/core';
import type { RunDeps } from '../engine/deps';
import { providerOfModel, RESUMABLE_KINDS } from '../../providers';
import { foldVerdictCounts } from '../../db/verdict-counts';
import { budgetSpent } from '../calls/budget';
import { checkDrift } from '../drift-check';
import { BudgetExceededError, LeaseLostError, RunNotFoundError } from '../engine/errors';
import { generateCell, toStored } from './generate';
import { judgeReply } from '../grading/judge';
import { forgetRunContext, loadRunContext, type RunContext } from '../engine/run-context';
import { runErrors } from './run-errors';
import { publishesResults, storeDiffWithPrevious, summariseRun } from './summarise';
import type { PromptResultsCache } from '../../db/queries/blueprint-plan';
import { forgetFinishedFigures } from '../../db/commands/finished-figures';

export type { FinalStatus } from '@/lib/core';

/**
 * The unit a scheduler hands out: every generation of one prompt × model (systems,
 * temperatures, attempts), or for a rescore the source run's stored replies of that
 * prompt × model. Its providers are the concurrency keys of its calls.
 */
export interface CellGroup {
  promptKey: string;
  modelId: string;
  /** The model's provider prefix (`openai`, `openrouter`…): the key of its generation calls. */
  provider: string;
  /** The judge panel's providers, sorted (the first two are a grading unit's concurrency keys: units/kinds.ts). */
  judgeProviders: string[];
}

/** The providers a run's judge panel calls, sorted and without repeats. */
export function judgeProvidersOf(ctx: RunContext): string[] {
  return [...new Set(ctx.settings.judges.map((j) => providerOfModel(j.model)))].sort();
}

// ---------------------------------------------------------------------------------------------
// settled? and start

/** Failed replies that may pass on another try (a 5xx, a rate limit, a timeout, an account paid since…). */
async function hasTransientReplies(deps: Pick<RunDeps, 'db'>, runId: string): Promise<boolean> {
  return (await deps.db.reply.count({ where: { runId, error: { not: null }, errorKind: { in: [...RESUMABLE_KINDS] } } })) > 0;
}

/**
 * Whether a run has nothing left to do: it completed, and (unless it is a rescore, which
 * calls no model) none of its replies failed for a reason that may pass. A scheduler asked to
 * execute a settled run does nothing (no second summary, no second finished hook).
 */
export async function isSettled(deps: Pick<RunDeps, 'db'>, runId: string): Promise<boolean> {
  const run = await deps.db.run.findUnique({ where: { id: runId }, select: { id: true, status: true, trigger: true, parentRunId: true } });
  if (!run) throw new RunNotFoundError(runId);
  if (run.status !== 'completed') return false;
  return replySourceOf(run) !== runId || !(await hasTransientReplies(deps, runId));
}

/**
 * Replies that failed for a reason that may pass (a 5xx, a rate limit, a timeout, a truncated
 * or HTML body, an account out of credit that may have been paid since: RESUMABLE_KINDS) are given another chance when a run is resumed: the reply, its verdicts and its
 * attempt score are removed with the run's counters, so the cell is generated again.
 */
export async function forgetTransientReplies(deps: Pick<RunDeps, 'db'>, runId: string): Promise<number> {
  // the run's row holds every count before some are taken off it (never below what was written)
  await foldVerdictCounts(deps.db, runId);
  const kinds = [...RESUMABLE_KINDS];
  const [r] = await deps.db.$queryRaw<{ n: number }[]>`
    WITH gone AS (
      SELECT id FROM replies WHERE run_id = ${runId} AND error IS NOT NULL AND error_kind = ANY(${kinds}::text[])
    ), v AS (
      DELETE FROM verdicts WHERE run_id = ${runId} AND reply_id IN (SELECT id FROM gone) RETURNING status
    ), a AS (
      DELETE FROM attempt_scores WHERE run_id = ${runId} AND reply_id IN (SELECT id FROM gone) RETURNING 1
    ), d AS (
      DELETE FROM replies WHERE id IN (SELECT id FROM gone) RETURNING 1
    ), u AS (
      UPDATE runs SET done_calls = done_calls - (SELECT count(*) FROM d)::int, error_calls = error_calls - (SELECT count(*) FROM d)::int,
                      done_verdicts = done_verdicts - (SELECT count(*) FROM v)::int,
                      error_verdicts = error_verdicts - (SELECT count(*) FROM v WHERE status = 'error')::int
      WHERE id = ${runId} RETURNING 1
    )
    SELECT (SELECT count(*) FROM d)::int AS n, (SELECT count(*) FROM a)::int AS a, (SELECT count(*) FROM u)::int AS u`;
  return r?.n ?? 0;
}

/**
 * Marks a run running (first start or resume), clears a previous stop's reason, and gives its
 * transient failures another chance (a run that generates: a rescore's replies are not its own).
 */
export async function start(deps: RunDeps, runId: string): Promise<RunContext> {
  const run = await deps.db.run.findUnique({ where: { id: runId }, select: { startedAt: true } });
  if (!run) throw new RunNotFoundError(runId);
  await deps.db.run.update({ where: { id: runId }, data: { status: 'running', error: null, ...(run.startedAt ? {} : { startedAt: new Date() }) } });
  // a resumed run's cells change as it goes: what was stored when it last finished is made again when it finishes
  await forgetFinishedFigures(deps.db, runId);
  // a worker that died mid-wait left its note of why it waited (run-waits.ts): this execution has waited for nothing yet
  await deps.db.runWait.deleteMany({ where: { runId } });
  const ctx = await loadRunContext(deps.db, runId);
  if (ctx.replySourceRunId === runId) await forgetTransientReplies(deps, runId);
  return ctx;
}

// ---------------------------------------------------------------------------------------------
// what is pending: the one rule

export interface PendingWork {
  /** Planned cells with no reply yet. */
  generate: GenerationCell[];
  /** Replies (the run's own, or a rescore's source run's) with no attempt score under this run. */
  judge: { id: string; promptKey: string; modelId: string }[];
}

type GroupKey = Pick<CellGroup, 'promptKey' | 'modelId'>;

interface Plan {
  cells: GenerationCell[];
  byGroup: Map<string, GenerationCell[]>;
}

const groupKeyOf = (g: GroupKey) => `${g.promptKey}\u0000${g.modelId}`;

/**
 * The run's planned cells, made once per loaded run context (the settings object is the
 * context's): planning the whole run again for each group made a run's planning O(groups²).
 */
const plans = new WeakMap<RunContext['settings'], Plan>();
function planOf(ctx: RunContext): Plan {
  let plan = plans.get(ctx.settings);
  if (!plan) {
    const cells = planGenerations(ctx.blueprint, ctx.settings);
    const byGroup = new Map<string, GenerationCell[]>();
    for (const c of cells) {
      const k = groupKeyOf(c);
      const list = byGroup.get(k);
      if (list) list.push(c);
      else byGroup.set(k, [c]);
    }
    plans.set(ctx.settings, (plan = { cells, byGroup }));
  }
  return plan;
}

/**
 * What is still to do, for the whole run or one group. The rule: a cell is done when its reply
 * has an attempt score under this run. A run generates its planned cells, then grades them; a
 * rescore grades its source run's replies of the prompts its blueprint version has.
 */
async function pendingWork(deps: RunDeps, ctx: RunContext, group?: GroupKey): Promise<PendingWork> {
  const inGroup = group ? { promptKey: group.promptKey, modelId: group.modelId } : {};
  if (ctx.replySourceRunId !== ctx.runId) {
    const replies = await deps.db.reply.findMany({
      where: { runId: ctx.replySourceRunId, ...inGroup, attemptScores: { none: { runId: ctx.runId } } },
      select: { id: true, promptKey: true, modelId: true },
      orderBy: [{ promptKey: 'asc' }, { modelId: 'asc' }, { id: 'asc' }],
    });
    return { generate: [], judge: replies.filter((r) => ctx.prompts.has(r.promptKey)) };
  }
  const plan = planOf(ctx);
  const cells = group ? (plan.byGroup.get(groupKeyOf(group)) ?? []) : plan.cells;
  // One statement whatever the run's size: a nested Prisma select of the attempt scores sent every
  // reply id as a bind parameter, over PostgreSQL's 65,535 once a run held that many replies, so a
  // run that large could neither finish nor resume.
  const stored = await deps.db.$queryRaw<{ id: string; promptKey: string; modelId: string; systemIndex: number; temperatureIndex: number; attempt: number; scored: boolean }[]>`
    SELECT r.id, r.prompt_key AS "promptKey", r.model_id AS "modelId", r.system_index AS "systemIndex", r.temperature_index AS "temperatureIndex", r.attempt,
           EXISTS (SELECT 1 FROM attempt_scores a WHERE a.run_id = ${ctx.runId} AND a.reply_id = r.id) AS scored
    FROM replies r
    WHERE r.run_id = ${ctx.runId}${group ? Prisma.sql` AND r.prompt_key = ${group.promptKey} AND r.model_id = ${group.modelId}` : Prisma.empty}`;
  const byKey = new Map(stored.map((r) => [[r.promptKey, r.modelId, r.systemIndex, r.temperatureIndex, r.attempt].join('|'), r]));
  const work: PendingWork = { generate: [], judge: [] };
  for (const cell of cells) {
    const r = byKey.get(cell.key);
    if (!r) work.generate.push(cell);
    else if (!r.scored) work.judge.push({ id: r.id, promptKey: r.promptKey, modelId: r.modelId });
  }
  return work;
}

/** The prompt × model groups of a run that still have work, in plan order. */
export async function pendingGroups(deps: RunDeps, ctx: RunContext): Promise<CellGroup[]> {
  return (await pendingGroupsWithWork(deps, ctx)).map((g) => g.group);
}

/** A group with the work found for it, for a scheduler that runs the groups where it found them. */
export interface GroupWork {
  group: CellGroup;
  work: PendingWork;
}

/**
 * pendingGroups with each group's pending work, from the one run-wide read: the in-process
 * runner, which holds the run's lease, hands it to processGroup instead of reading each group
 * again (a statement per group was a round trip per prompt × model). The writes still guard
 * (natural keys), so work found stale costs nothing twice.
 */
export async function pendingGroupsWithWork(deps: RunDeps, ctx: RunContext): Promise<GroupWork[]> {
  const work = await pendingWork(deps, ctx);
  const judgeProviders = judgeProvidersOf(ctx);
  const groups = new Map<string, GroupWork>();
  const entry = ({ promptKey, modelId }: GroupKey) => {
    const k = groupKeyOf({ promptKey, modelId });
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { group: { promptKey, modelId, provider: providerOfModel(modelId), judgeProviders }, work: { generate: [], judge: [] } }));
    return g.work;
  };
  for (const c of work.generate) entry(c).generate.push(c);
  for (const r of work.judge) entry(r).judge.push(r);
  return [...groups.values()];
}

// ---------------------------------------------------------------------------------------------
// processing a group

export interface GroupOptions {
  /** Told after each cell of the group is done (graded, or generated in the generate phase). */
  onCell?: () => void | Promise<void>;
  /** The group's pending work as the scheduler found it (pendingGroupsWithWork); absent: read now. */
  work?: PendingWork;
}

export interface GroupOutcome {
  /** Cells this step worked on. */
  cells: number;
}

/** The rows of the replies to grade; each is parsed in its own task (a bad row fails its cell alone). */
async function loadReplies(deps: RunDeps, ids: string[]) {
  if (ids.length === 0) return [];
  return deps.db.reply.findMany({
    where: { id: { in: ids } },
    select: { id: true, promptKey: true, modelId: true, content: true, toolCalls: true, turns: true, error: true, structured: true, refusal: true },
  });
}

/**
 * Runs every task to its end, then rethrows one failure: a defect first (it must surface),
 * then a lost lease, then a budget stop. No call is left running behind a step that returned.
 */
async function settleAll(tasks: (() => Promise<void>)[]): Promise<void> {
  const results = await Promise.allSettled(tasks.map((t) => t()));
  const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  const defect = failures.find((e) => !(e instanceof BudgetExceededError) && !(e instanceof LeaseLostError));
  const stop = defect ?? failures.find((e) => e instanceof LeaseLostError) ?? failures[0];
  if (stop !== undefined) throw stop;
}

async function runGroup(deps: RunDeps, ctx: RunContext, group: GroupKey, phases: { generate: boolean; judge: boolean }, opts: GroupOptions): Promise<GroupOutcome> {
  const work = opts.work ?? (await pendingWork(deps, ctx, group));
  const toJudge = phases.judge ? await loadReplies(deps, work.judge.map((r) => r.id)) : [];
  const generate = phases.generate ? work.generate : [];
  const done = async () => void (await opts.onCell?.());
  await settleAll([
    ...toJudge.map((row) => async () => {
      await judgeReply(deps, ctx, toStored(row), { fresh: true });
      await done();
    }),
    ...generate.map((cell) => async () => {
      const reply = await generateCell(deps, ctx, cell, { fresh: true });
      if (phases.judge) await judgeReply(deps, ctx, reply, { fresh: true });
      await done();
    }),
  ]);
  return { cells: toJudge.length + generate.length };
}

/**
 * Generates and grades every pending cell of one prompt × model (for a rescore: grades the
 * source run's stored replies of it; no model is called). Each cell is graded as soon as its
 * reply is stored. Throws BudgetExceededError / LeaseLostError when a call was refused, after
 * every other cell of the group has ended.
 */
export function processGroup(deps: RunDeps, ctx: RunContext, group: GroupKey, opts: GroupOptions = {}): Promise<GroupOutcome> {
  return runGroup(deps, ctx, group, { generate: true, judge: true }, opts);
}

/** The generation half of processGroup (its calls go to the model's provider). */
export function generateGroup(deps: RunDeps, ctx: RunContext, group: GroupKey, opts: GroupOptions = {}): Promise<GroupOutcome> {
  return runGroup(deps, ctx, group, { generate: true, judge: false }, opts);
}

/** The grading half of processGroup: the group's stored, ungraded replies (its calls go to the judges' providers). */
export function judgeGroup(deps: RunDeps, ctx: RunContext, group: GroupKey, opts: GroupOptions = {}): Promise<GroupOutcome> {
  return runGroup(deps, ctx, group, { generate: false, judge: true }, opts);
}

// ---------------------------------------------------------------------------------------------
// finish: the one place a run's end is decided

/**
 * What is left, what the run stored, and `finalStatus` (lib/core) decide the status; then the
 * summaries, the leaderboard (only for a completed run), the drift checks (a completed
 * scheduled run) and the finished hook (PR comments).
 * Idempotent: finishing twice decides the same from the same rows.
 * `budgetStop`: the reason a scheduler saw the budget (or its deadline) stop the run; without
 * one, a run with work left is budget-stopped when its budget is spent, else failed.
 */
export async function finish(deps: RunDeps, runId: string, opts: { budgetStop?: string | null } = {}): Promise<FinalStatus> {
  const ctx = await loadRunContext(deps.db, runId);
  const groupsLeft = (await pendingGroups(deps, ctx)).length;
  const budgetStop = opts.budgetStop ?? (groupsLeft > 0 && (await budgetSpent(deps, runId)) ? 'stopped by its budget' : null);
  const replyWhere = { runId: ctx.replySourceRunId, promptKey: { in: [...ctx.prompts.keys()] } };
  const [replies, failedReplies, verdicts, errorVerdicts, errors, recorded] = await Promise.all([
    deps.db.reply.count({ where: replyWhere }),
    deps.db.reply.count({ where: { ...replyWhere, error: { not: null } } }),
    deps.db.verdict.count({ where: { runId } }),
    deps.db.verdict.count({ where: { runId, status: 'error' } }),
    runErrors(deps.db, runId, { replyRunId: ctx.replySourceRunId, take: 1 }),
    deps.db.run.findUniqueOrThrow({ where: { id: runId }, select: { error: true } }),
  ]);
  const decision = finalStatus({ groupsLeft, budgetStop, replies, failedReplies, verdicts, errorVerdicts, replyErrors: errors.replies, verdictErrors: errors.verdicts });
  // A scheduler's own record of why cells were left (a defect after its retries) says more than the count.
  const error = decision.status === 'failed' && groupsLeft > 0 && recorded.error ? `${decision.error} (${recorded.error})` : decision.error;

  // the counters' pending rows into the run's row before its status is final (verdict-counts.ts reads a final run's row alone)
  await foldVerdictCounts(deps.db, runId);
  const run = await deps.db.run.update({ where: { id: runId }, data: { status: 'summarising' }, select: { trigger: true, draft: true } });
  // Summarising, the drift check and the comparison with the run before each read every cell of the
  // run (and the last two the earlier run's): read once here, as none of them changes cells.
  const cache: PromptResultsCache = new Map();
  // A pull request's run and an author's draft run grade unpublished content: never on the public leaderboard.
  await summariseRun(deps.db, runId, { publish: decision.status === 'completed' && publishesResults(run), cache });
  await deps.db.run.update({ where: { id: runId }, data: { status: decision.status, error, finishedAt: new Date() } });
  // a finished run waits for nothing (a call that gave up while others waited may have left a note)
  await deps.db.runWait.deleteMany({ where: { runId } });
  // A completed scheduled run is compared with the previous one of its version (drift-check.ts).
  if (decision.status === 'completed' && run.trigger === 'schedule') await checkDrift(deps.db, runId, cache);
  // and compared with the run of its blueprint before it, once, after the drift check whose figure the comparison shows (run-diff.ts)
  await storeDiffWithPrevious(deps.db, runId, cache);
  forgetRunContext(runId); // a long-lived server keeps no finished run in memory
  await deps.onFinished?.(runId);
  return decision.status;
}
