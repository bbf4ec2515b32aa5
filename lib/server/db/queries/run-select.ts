/** Run columns several queries select together (spread into a `select`, keeping the field order). */
import type { Prisma } from '@/generated/prisma/client';

/** A run's live counters, cost and failure message (the run header and the progress poll). */
export const runCountersSelect = {
  totalCalls: true,
  doneCalls: true,
  errorCalls: true,
  totalVerdicts: true,
  doneVerdicts: true,
  errorVerdicts: true,
  costUsd: true,
  error: true,
} as const satisfies Prisma.RunSelect;

/** A run as a row of a run list: when it ran and how far it got (the blueprint's history and the home page). */
export const runListRowSelect = {
  createdAt: true,
  finishedAt: true,
  totalCalls: true,
  doneCalls: true,
  errorCalls: true,
  errorVerdicts: true,
} as const satisfies Prisma.RunSelect;
