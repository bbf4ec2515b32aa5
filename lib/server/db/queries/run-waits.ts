/** Why a run waits (table run_waits, written by lib/server/runs/calls/run-waits.ts), as the run header and the progress poll read it. */
import type { Prisma } from '@/generated/prisma/client';
import { isTerminalRunStatus, RunStatusSchema } from '@/lib/core';
import { redactStored, storedTextRedactor } from './redact-stored';

/** Spread into a run `select`. */
export const runWaitsSelect = {
  waits: {
    orderBy: { modelId: 'asc' },
    select: { modelId: true, provider: true, kind: true, message: true, httpStatus: true, retryAfterAt: true, nextAttemptAt: true, attempt: true, since: true },
  },
} as const satisfies Prisma.RunSelect;

type WaitRow = Prisma.RunWaitGetPayload<{ select: (typeof runWaitsSelect)['waits']['select'] }>;

/**
 * The waits a reader should see: none once the run has ended (a worker stopped mid-wait leaves
 * its row; the run's status says what happened), the provider's words redacted of known keys.
 */
export function liveWaits(status: string, waits: WaitRow[]): WaitRow[] {
  const known = RunStatusSchema.safeParse(status);
  if (!known.success || isTerminalRunStatus(known.data) || waits.length === 0) return [];
  return redactStored(waits, storedTextRedactor());
}
