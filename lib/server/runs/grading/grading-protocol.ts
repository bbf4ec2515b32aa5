/**
 * What the server and a grading worker (grading-worker.ts) exchange: plain data only, so it
 * crosses `postMessage` by structured clone. The worker is told what each budget has left and
 * answers what it spent; the server's budgets stay the record (sandbox-budget.ts).
 */
import type { Point, PointContext, Verdict } from '@/lib/core';

export interface BudgetState {
  limitMs: number;
  usedMs: number;
}

export interface GradingJob {
  id: number;
  /** The points to grade, with their index in the prompt (stored on the verdict). */
  points: Array<{ index: number; point: Point }>;
  reply: { content: string | null; toolCalls: readonly unknown[] | null };
  context: { messages: NonNullable<PointContext['messages']>; modelId: string; promptId: string };
  budgets: { reply: BudgetState; run: BudgetState };
}

export type WorkerMessage =
  | { type: 'ready' }
  /** One point graded (`position` in `job.points`); `spentMs`: the job's sandbox time so far. */
  | { type: 'point'; id: number; position: number; verdict: Verdict | 'needs-judge'; spentMs: number }
  | { type: 'done'; id: number; spentMs: number };
