/**
 * Issue 11, finding 4: each `$js` point had 1 s, but nothing limited their total: 60
 * `while(true){}` points on one prompt held the server for 60 s. With the per-reply and
 * per-run budgets, the points after the budget is used up are `error` verdicts naming the
 * budget (never 0, never a hang), and the wall time is bounded by the budget.
 * Before the fix the first test takes 60 s (past its bound) and finds no budget message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBlueprint } from '../../blueprint/parse';
import type { Point } from '../../blueprint/schema';
import { evaluateDeterministicPoint } from '../../scoring/deterministic';
import type { Verdict } from '../../scoring/verdict';
import { budgetedSandbox, SANDBOX_BUDGET_DEFAULTS, SandboxTimeBudget } from './budget';
import { createQuickJsSandbox, type QuickJsSandbox } from './quickjs';

const LOOPING = 60;

function loopingPoints(n: number): Point[] {
  const should = Array.from({ length: n }, () => '    - $js: "while (true) {}"').join('\n');
  const parsed = parseBlueprint(`title: loops\n---\n- prompt: Say something.\n  should:\n${should}\n`, { file: 'loops.yml' });
  if (!parsed.ok) throw new Error(parsed.errors.map((e) => e.message).join('; '));
  return parsed.blueprint.prompts[0]!.points;
}

/** Grades every point of one reply as a run does: one reply budget, the run's budget shared. */
async function gradeReply(points: Point[], sandbox: QuickJsSandbox, run: SandboxTimeBudget, perReplyMs: number): Promise<Verdict[]> {
  const reply = new SandboxTimeBudget('reply', perReplyMs);
  const budgeted = budgetedSandbox(sandbox, [reply, run], { now: () => performance.now() });
  const verdicts: Verdict[] = [];
  for (const [pointIndex, point] of points.entries()) {
    const v = await evaluateDeterministicPoint(point, 'a reply', { pointIndex, sandbox: budgeted });
    if (v === 'needs-judge') throw new Error('a $js point needs no judge');
    verdicts.push(v);
  }
  return verdicts;
}

let sandbox: QuickJsSandbox;
beforeAll(async () => {
  sandbox = await createQuickJsSandbox();
});
afterAll(() => sandbox.dispose());

describe('sandbox time budgets (finding 4)', () => {
  it(`${LOOPING} looping $js points on one prompt stop at the reply budget (${SANDBOX_BUDGET_DEFAULTS.perReplyMs / 1000} s), not after ${LOOPING} s`, async () => {
    const run = new SandboxTimeBudget('run', SANDBOX_BUDGET_DEFAULTS.perRunMs);
    const started = performance.now();
    const verdicts = await gradeReply(loopingPoints(LOOPING), sandbox, run, SANDBOX_BUDGET_DEFAULTS.perReplyMs);
    const wallMs = performance.now() - started;

    expect(verdicts).toHaveLength(LOOPING);
    expect(verdicts.every((v) => v.status === 'error' && v.score === null)).toBe(true);
    const timedOut = verdicts.filter((v) => /time limit/.test(v.detail)).length;
    const usedUp = verdicts.filter((v) => v.detail.includes('sandbox time budget of 5 s for this reply is used up')).length;
    // 5 points each ran into their own 1 s limit; every later one found the budget spent.
    expect(timedOut).toBeLessThanOrEqual(5);
    expect(timedOut + usedUp).toBe(LOOPING);
    expect(usedUp).toBeGreaterThanOrEqual(LOOPING - 5);
    expect(wallMs).toBeLessThan(SANDBOX_BUDGET_DEFAULTS.perReplyMs + 3_000);
    expect(run.usedMs).toBeLessThan(SANDBOX_BUDGET_DEFAULTS.perReplyMs + 500);
  }, 30_000);

  it('the run budget spans replies: once spent, the next reply\'s sandbox points are errors at once', async () => {
    const run = new SandboxTimeBudget('run', 1_500);
    const first = await gradeReply(loopingPoints(3), sandbox, run, 5_000);
    expect(first.map((v) => v.status)).toEqual(['error', 'error', 'error']);
    expect(first[1]!.detail).toContain('sandbox time budget of 1.5 s for this run is used up');
    const started = performance.now();
    const second = await gradeReply(loopingPoints(10), sandbox, run, 5_000);
    expect(performance.now() - started).toBeLessThan(500);
    expect(second.every((v) => v.status === 'error' && v.detail.includes('for this run is used up'))).toBe(true);
  }, 30_000);

  it('ordinary $js points are untouched by the budget', async () => {
    const parsed = parseBlueprint('title: ok\n---\n- prompt: p\n  should:\n    - $js: "r.length > 3"\n', { file: 'ok.yml' });
    if (!parsed.ok) throw new Error('parses');
    const run = new SandboxTimeBudget('run', 1_000);
    const verdicts = await gradeReply(parsed.blueprint.prompts[0]!.points, sandbox, run, 1_000);
    expect(verdicts[0]).toMatchObject({ status: 'pass', score: 1 });
    expect(run.usedMs).toBeGreaterThan(0);
  });
});
