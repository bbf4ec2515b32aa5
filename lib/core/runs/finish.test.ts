import { describe, expect, it } from 'vitest';
import { finalStatus, type RunOutcome } from './finish';

const ok: RunOutcome = { groupsLeft: 0, budgetStop: null, replies: 4, failedReplies: 0, verdicts: 8, errorVerdicts: 0, replyErrors: [], verdictErrors: [] };

describe('finalStatus', () => {
  it('completes a run with usable evidence, even with some errors', () => {
    expect(finalStatus(ok)).toEqual({ status: 'completed', error: null });
    expect(finalStatus({ ...ok, failedReplies: 3, errorVerdicts: 7 })).toEqual({ status: 'completed', error: null });
  });

  it('fails a run whose replies all failed, naming the most frequent error', () => {
    const d = finalStatus({ ...ok, failedReplies: 4, verdicts: 0, replyErrors: [{ message: 'set OPENAI_API_KEY', count: 4 }] });
    expect(d).toEqual({ status: 'failed', error: 'every reply failed (4): 4 × set OPENAI_API_KEY' });
  });

  it('fails a run whose verdicts are all errors', () => {
    expect(finalStatus({ ...ok, errorVerdicts: 8, verdictErrors: [{ message: 'malformed judge output', count: 8 }] })).toEqual({
      status: 'failed',
      error: 'every verdict is an error (8): 8 × malformed judge output',
    });
  });

  it('stops at the budget with work left, and fails when cells were lost instead', () => {
    expect(finalStatus({ ...ok, groupsLeft: 2, budgetStop: 'call budget of 5 reached' })).toEqual({ status: 'budget_exceeded', error: 'call budget of 5 reached' });
    expect(finalStatus({ ...ok, groupsLeft: 2 }).status).toBe('failed');
  });

  it('fails a run with nothing to grade', () => {
    expect(finalStatus({ ...ok, replies: 0, verdicts: 0 }).status).toBe('failed');
  });
});
