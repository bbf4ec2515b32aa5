/**
 * The live progress of a run: the JSON contract of /api/runs/[runId]/progress (validated on
 * the way out by the route and on the way in by the polling component) and what the page
 * shows from it. Pure: the client component imports it too.
 */
import { z } from 'zod';
import { RunStatusSchema, TerminalRunStatusSchema, type RunStatus } from '@/lib/core';
import { formatCount, formatDuration, formatPercent, plural } from './format';
import { costLabel } from './cost-label';
import { runWaitJson, RunWaitSchema, runWaitsView, waitRemainingMs, type RunWaitView } from './run-wait-view';

export const RunProgressSchema = z.object({
  runId: z.string(),
  status: RunStatusSchema,
  totalCalls: z.number().int().nonnegative(),
  doneCalls: z.number().int().nonnegative(),
  errorCalls: z.number().int().nonnegative(),
  totalVerdicts: z.number().int().nonnegative(),
  doneVerdicts: z.number().int().nonnegative(),
  errorVerdicts: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
  /** The run's models and judges with no known price: their calls are not in costUsd (shown as unknown). */
  unpricedModels: z.array(z.string()).default([]),
  error: z.string().nullable(),
  /** Why the run waits and until when, per model (empty while calls flow, and once it has ended). */
  waits: z.array(RunWaitSchema).default([]),
  startedAt: z.iso.datetime().nullable(),
  finishedAt: z.iso.datetime().nullable(),
  updatedAt: z.iso.datetime(),
});
export type RunProgress = z.infer<typeof RunProgressSchema>;

/** The statuses after which the page stops polling. */
export const TERMINAL: ReadonlySet<RunStatus> = new Set(TerminalRunStatusSchema.options);

export interface ProgressBarView {
  label: string;
  done: number;
  total: number;
  /** 0–100, for the bar's width and aria-valuenow. */
  percent: number;
  text: string;
}

export interface ProgressView {
  statusLabel: string;
  terminal: boolean;
  bars: ProgressBarView[];
  facts: { label: string; value: string }[];
  /** What the run waits for, in words: the reason its counts stand still. */
  waits: RunWaitView[];
  error: string | null;
}

const STATUS_LABEL: Record<RunStatus, string> = {
  queued: 'Queued',
  running: 'Generating replies',
  judging: 'Judging replies',
  summarising: 'Summarising scores',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  budget_exceeded: 'Stopped: budget reached',
};

function bar(label: string, done: number, total: number): ProgressBarView {
  const fraction = total > 0 ? Math.min(1, done / total) : 0;
  return { label, done, total, percent: Math.round(fraction * 1000) / 10, text: `${formatCount(done)} of ${formatCount(total)} (${formatPercent(fraction)})` };
}

export function progressView(p: RunProgress, now: Date): ProgressView {
  const terminal = TERMINAL.has(p.status);
  const started = p.startedAt ? new Date(p.startedAt) : null;
  const end = p.finishedAt ? new Date(p.finishedAt) : now;
  const elapsed = started ? Math.max(0, end.getTime() - started.getTime()) : null;
  const fraction = p.totalCalls > 0 ? p.doneCalls / p.totalCalls : 0;
  // a linear estimate from the replies done so far: rough, and labelled as such
  const linear = !terminal && elapsed !== null && fraction > 0.02 && fraction < 1 ? (elapsed / fraction) * (1 - fraction) : null;
  // a run waiting on a provider does nothing for that model until the wait ends: the estimate
  // is at least the wait left plus the remaining work at the rate seen so far
  const waits = terminal ? [] : p.waits;
  const waitLeft = waitRemainingMs(waits, now);
  const estimate = estimateText(linear, waitLeft);
  return {
    statusLabel: STATUS_LABEL[p.status],
    terminal,
    bars: [bar('Replies', p.doneCalls, p.totalCalls), bar('Verdicts', p.doneVerdicts, p.totalVerdicts)],
    facts: [
      { label: 'Errors', value: `${plural(p.errorCalls, 'failed reply', 'failed replies')}, ${plural(p.errorVerdicts, 'verdict error')}` },
      { label: 'Cost so far', value: costLabel(p.costUsd, p.unpricedModels) },
      ...(elapsed !== null ? [{ label: terminal ? 'Took' : 'Elapsed', value: formatDuration(elapsed) }] : []),
      ...(estimate !== null ? [{ label: 'Estimated time left', value: estimate }] : []),
    ],
    waits: runWaitsView(waits, now),
    error: p.error,
  };
}

function estimateText(linear: number | null, waitLeft: number | null): string | null {
  if (waitLeft === null || waitLeft <= 0) return linear === null ? null : `about ${formatDuration(linear)}`;
  // too little done to extrapolate: the wait is all that is known
  if (linear === null) return `at least ${formatDuration(waitLeft)} (waiting on a provider)`;
  return `about ${formatDuration(waitLeft + linear)} (${formatDuration(waitLeft)} of it waiting on a provider)`;
}

/** The database row → the API's JSON (dates as ISO strings). */
export function progressJson(row: {
  id: string;
  status: string;
  totalCalls: number;
  doneCalls: number;
  errorCalls: number;
  totalVerdicts: number;
  doneVerdicts: number;
  errorVerdicts: number;
  costUsd: number;
  unpricedModels?: string[];
  error: string | null;
  waits?: Parameters<typeof runWaitJson>[0][];
  startedAt: Date | null;
  finishedAt: Date | null;
  updatedAt: Date;
}): RunProgress {
  return RunProgressSchema.parse({
    runId: row.id,
    status: row.status,
    totalCalls: row.totalCalls,
    doneCalls: row.doneCalls,
    errorCalls: row.errorCalls,
    totalVerdicts: row.totalVerdicts,
    doneVerdicts: row.doneVerdicts,
    errorVerdicts: row.errorVerdicts,
    costUsd: row.costUsd,
    unpricedModels: row.unpricedModels ?? [],
    error: row.error,
    waits: (row.waits ?? []).map(runWaitJson),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
  });
}
