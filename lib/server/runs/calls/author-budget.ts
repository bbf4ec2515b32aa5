/**
 * An author's try-it budget per UTC day (docs/authoring.md, "Try it"): provider calls and their
 * cost, summed over every draft run the author made that day, against the limits maintainers set
 * (try_it_settings).
 *
 * The gateway reserves one call here just before each provider call of a draft run, in one
 * statement that takes the call only while the day has room (the day's row is locked by the
 * upsert, so two runs of one author racing for the last call cannot both get it); the call's
 * cost is added when it returns. A reserved call counts as used whether it succeeds or fails,
 * as a made call counts against a run's own budget. Cache hits cost nothing and reserve nothing.
 */
import type { Db } from '../../db/client';
import { poolOf } from '../../db/client';

/** The UTC day a moment falls on, as the `date` column stores it. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** When the budget of the day of `now` is renewed: the next UTC midnight. */
export function budgetResetsAt(now: Date): Date {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  return d;
}

export interface AuthorDay {
  calls: number;
  costUsd: number;
}

export interface DailyLimits {
  dailyCalls: number;
  dailyCostUsd: number;
}

/** What the author used on the day of `now` (zero when nothing yet). */
export async function authorDay(db: Db, userId: string, now = new Date()): Promise<AuthorDay> {
  const row = await db.authorTryDay.findUnique({ where: { userId_day: { userId, day: new Date(`${utcDay(now)}T00:00:00Z`) } }, select: { calls: true, costUsd: true } });
  return { calls: row?.calls ?? 0, costUsd: row?.costUsd ?? 0 };
}

/** Whether the day is used up: no call left, or the cost limit reached. */
export function dayUsedUp(day: AuthorDay, limits: DailyLimits): boolean {
  return day.calls >= limits.dailyCalls || day.costUsd >= limits.dailyCostUsd;
}

/** The sentence every refusal shows: what was used of what, and when it renews. */
export function budgetSentence(day: AuthorDay, limits: DailyLimits, now: Date): string {
  const resets = budgetResetsAt(now);
  const minutes = Math.max(1, Math.ceil((resets.getTime() - now.getTime()) / 60_000));
  const inTime = minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
  return `Your try-it budget for today is used: ${day.calls} of ${limits.dailyCalls} calls and $${day.costUsd.toFixed(4)} of $${limits.dailyCostUsd.toFixed(2)}. It resets at ${resets.toISOString().slice(0, 16).replace('T', ' ')} UTC (in ${inTime}).`;
}

export type AuthorReservation = { ok: true } | { ok: false; reason: string };

/**
 * Takes one call of the author's day if the maintainers' limits leave room (no settings row:
 * nothing is allowed, since a draft run is only requested after the row exists).
 */
export async function reserveAuthorCall(db: Db, userId: string, now = new Date()): Promise<AuthorReservation> {
  const day = utcDay(now);
  const { rows } = await poolOf(db).query<{ calls: number }>(
    `INSERT INTO author_try_days (user_id, day, calls, cost_usd)
     SELECT $1, $2::date, 1, 0 FROM try_it_settings s WHERE s.id = 1 AND s.daily_calls >= 1 AND s.daily_cost_usd > 0
     ON CONFLICT (user_id, day) DO UPDATE SET calls = author_try_days.calls + 1
     WHERE author_try_days.calls < (SELECT daily_calls FROM try_it_settings WHERE id = 1)
       AND author_try_days.cost_usd < (SELECT daily_cost_usd FROM try_it_settings WHERE id = 1)
     RETURNING calls`,
    [userId, day],
  );
  if (rows.length > 0) return { ok: true };
  const [used, limits] = await Promise.all([authorDay(db, userId, now), db.tryItSettings.findUnique({ where: { id: 1 }, select: { dailyCalls: true, dailyCostUsd: true } })]);
  return { ok: false, reason: budgetSentence(used, limits ?? { dailyCalls: 0, dailyCostUsd: 0 }, now) };
}

/** Gives back a reserved call that was never sent (the run's own budget or lease refused it). */
export async function releaseAuthorCall(db: Db, userId: string, now = new Date()): Promise<void> {
  await poolOf(db).query(`UPDATE author_try_days SET calls = GREATEST(calls - 1, 0) WHERE user_id = $1 AND day = $2::date`, [userId, utcDay(now)]);
}

/** Adds a made call's cost to the day it was reserved on. */
export async function addAuthorCost(db: Db, userId: string, costUsd: number, reservedAt: Date): Promise<void> {
  if (costUsd <= 0) return;
  await poolOf(db).query(`UPDATE author_try_days SET cost_usd = cost_usd + $3 WHERE user_id = $1 AND day = $2::date`, [userId, utcDay(reservedAt), costUsd]);
}
