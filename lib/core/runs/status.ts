/**
 * The run status vocabulary: the one list of the states a run is in. The database enum
 * (prisma/schema.prisma `RunStatus`), the progress API, the pages and the pull-request
 * report all read it from here; `status.test.ts` holds the Prisma enum to the same values.
 */
import { z } from 'zod';

export const RunStatusSchema = z.enum(['queued', 'running', 'judging', 'summarising', 'completed', 'failed', 'cancelled', 'budget_exceeded']);
export type RunStatus = z.infer<typeof RunStatusSchema>;

/** The statuses a finished run ends in, as finishing decides them (a cancel is not a finish). */
export const FinalStatusSchema = RunStatusSchema.extract(['completed', 'budget_exceeded', 'failed']);
export type FinalStatus = z.infer<typeof FinalStatusSchema>;

/** A run in one of these will not change any more by itself. */
export const TerminalRunStatusSchema = RunStatusSchema.extract(['completed', 'failed', 'cancelled', 'budget_exceeded']);
export type TerminalRunStatus = z.infer<typeof TerminalRunStatusSchema>;

export const isTerminalRunStatus = (s: RunStatus): s is TerminalRunStatus => TerminalRunStatusSchema.safeParse(s).success;

/** A run in one of these is in flight (or waiting for its worker): not yet finished. */
export const ActiveRunStatusSchema = RunStatusSchema.exclude(TerminalRunStatusSchema.options);
export type ActiveRunStatus = z.infer<typeof ActiveRunStatusSchema>;
