import { describe, expect, it } from 'vitest';
import { RunStatus as PrismaRunStatus } from '../../../generated/prisma/enums';
import { ActiveRunStatusSchema, FinalStatusSchema, isTerminalRunStatus, RunStatusSchema } from './status';

describe('the run status vocabulary', () => {
  it('is the database enum, value for value', () => {
    expect([...RunStatusSchema.options].sort()).toEqual(Object.values(PrismaRunStatus).sort());
  });

  it('tells finished runs from those still moving', () => {
    expect(RunStatusSchema.options.filter(isTerminalRunStatus)).toEqual(['completed', 'failed', 'cancelled', 'budget_exceeded']);
    expect(FinalStatusSchema.options.every(isTerminalRunStatus)).toBe(true);
    // Every status is either in flight (resumed at start, deduplicated against) or finished, never both.
    expect(ActiveRunStatusSchema.options).toEqual(['queued', 'running', 'judging', 'summarising']);
    expect(ActiveRunStatusSchema.options.some(isTerminalRunStatus)).toBe(false);
  });
});
