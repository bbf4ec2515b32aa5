import { describe, expect, it } from 'vitest';
import { budgetResetsAt, budgetSentence, dayUsedUp, utcDay } from './author-budget';

describe("an author's try-it day", () => {
  const now = new Date('2026-12-02T21:35:10Z');

  it('is the UTC day, renewed at the next UTC midnight', () => {
    expect(utcDay(now)).toBe('2026-12-02');
    expect(budgetResetsAt(now).toISOString()).toBe('2026-12-03T00:00:00.000Z');
    expect(budgetResetsAt(new Date('2026-12-31T23:59:59Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('is used up at the call limit or at the cost limit, whichever comes first', () => {
    const limits = { dailyCalls: 50, dailyCostUsd: 0.5 };
    expect(dayUsedUp({ calls: 49, costUsd: 0.49 }, limits)).toBe(false);
    expect(dayUsedUp({ calls: 50, costUsd: 0 }, limits)).toBe(true);
    expect(dayUsedUp({ calls: 3, costUsd: 0.5 }, limits)).toBe(true);
  });

  it('says what was used of what, and when it resets', () => {
    expect(budgetSentence({ calls: 50, costUsd: 0.0123 }, { dailyCalls: 50, dailyCostUsd: 0.5 }, now)).toBe(
      'Your try-it budget for today is used: 50 of 50 calls and $0.0123 of $0.50. It resets at 2026-12-03 00:00 UTC (in 2 h 25 min).',
    );
    expect(budgetSentence({ calls: 1, costUsd: 0 }, { dailyCalls: 1, dailyCostUsd: 1 }, new Date('2026-12-02T23:59:30Z'))).toMatch(/\(in 1 min\)\.$/);
  });
});
