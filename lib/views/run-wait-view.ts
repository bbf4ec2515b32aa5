/**
 * Why a run waits and until when, in words, for the progress page and the run header: "Waiting
 * for openai:gpt-4o — rate limited, the provider asked to retry at 14:05 UTC (in 52 min); next
 * attempt 14:05 UTC". Pure: the moment it is now is passed in (the client component re-renders
 * it every poll), never read from a clock here.
 */
import { RunWaitSchema, type RunWait } from '@/lib/core';
import { formatDateTime, plural } from './format';

export { RunWaitSchema, type RunWait };

export interface RunWaitView {
  modelId: string;
  /** The one-line reason and the moments it ends. */
  text: string;
  /** The provider's own words, when it gave any. */
  detail: string | null;
}

/** A stored wait row (run-progress.ts, run-header.ts) → the API's JSON (dates as ISO strings). */
export function runWaitJson(row: {
  modelId: string;
  provider: string;
  kind: string;
  message: string | null;
  httpStatus: number | null;
  retryAfterAt: Date | null;
  nextAttemptAt: Date | null;
  attempt: number;
  since: Date;
}): RunWait {
  return RunWaitSchema.parse({
    modelId: row.modelId,
    provider: row.provider,
    kind: row.kind,
    message: row.message,
    httpStatus: row.httpStatus,
    retryAfterAt: row.retryAfterAt?.toISOString() ?? null,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    attempt: row.attempt,
    since: row.since.toISOString(),
  });
}

/** "52 min", "1 h 5 min", "40 s": how far a moment is, to the unit a reader plans with. */
export function roughDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  return `${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ''}`;
}

/** "14:05 UTC" on the same (UTC) day as now, the date too otherwise; UTC as every page dates. */
function clock(at: Date, now: Date | null): string {
  const iso = at.toISOString();
  return now !== null && iso.slice(0, 10) === now.toISOString().slice(0, 10) ? `${iso.slice(11, 16)} UTC` : formatDateTime(at);
}

/** "14:05 UTC (in 52 min)", or "(due now)" once it has passed; without a `now`, the moment alone. */
function moment(at: Date, now: Date | null): string {
  if (now === null) return clock(at, now);
  const ahead = at.getTime() - now.getTime();
  return `${clock(at, now)} (${ahead > 0 ? `in ${roughDuration(ahead)}` : 'due now'})`;
}

/** The moment the wait ends: the next attempt, or else the provider's retry-after. */
function endOf(w: RunWait): Date | null {
  const at = w.nextAttemptAt ?? w.retryAfterAt;
  return at === null ? null : new Date(at);
}

function reason(w: RunWait, now: Date | null): string {
  const status = w.httpStatus === null ? '' : `HTTP ${w.httpStatus}`;
  const askedAt = w.retryAfterAt === null ? null : moment(new Date(w.retryAfterAt), now);
  switch (w.kind) {
    case 'rate_limited':
      return askedAt ? `rate limited, the provider asked to retry at ${askedAt}` : `rate limited${status ? ` (${status})` : ''}, backing off`;
    case 'retry_after':
      return `the provider answered ${status || 'with an error'} and asked to retry ${askedAt ? `at ${askedAt}` : 'later'}`;
    case 'backoff':
      return `backing off after ${plural(w.attempt, 'failed attempt')}${status ? ` (last: ${status})` : ''}`;
    case 'batch':
      return 'its calls are in a provider batch that has not ended yet';
  }
}

/** One model's wait in words, as of `now` (null: a page rendered without one says the moments alone). */
export function runWaitView(w: RunWait, now: Date | null): RunWaitView {
  const end = endOf(w);
  const next = end === null ? '' : `; ${w.kind === 'batch' ? 'next poll' : 'next attempt'} ${moment(end, now)}`;
  return { modelId: w.modelId, text: `Waiting for ${w.modelId} — ${reason(w, now)}${next}`, detail: w.message };
}

/** Every model's wait, the one that ends last first (it is the one that holds the run up). */
export function runWaitsView(waits: readonly RunWait[], now: Date | null): RunWaitView[] {
  const ends = (w: RunWait) => endOf(w)?.getTime() ?? Number.POSITIVE_INFINITY;
  return [...waits].sort((a, b) => ends(b) - ends(a) || a.modelId.localeCompare(b.modelId)).map((w) => runWaitView(w, now));
}

/**
 * How long until the last wait ends, from `now` (0 once every one is due; null when nothing
 * waits or no wait says when it ends): what a time estimate must at least add.
 */
export function waitRemainingMs(waits: readonly RunWait[], now: Date): number | null {
  const ends = waits.map(endOf).filter((d): d is Date => d !== null);
  if (ends.length === 0) return null;
  return Math.max(0, ...ends.map((d) => d.getTime() - now.getTime()));
}
