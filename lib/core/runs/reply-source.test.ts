import { describe, expect, it } from 'vitest';
import { gradesStoredReplies, replySourceOf } from './reply-source';

describe('replySourceOf', () => {
  it('a rescore grades its parent run’s replies', () => {
    const run = { id: 'r2', trigger: 'rescore', parentRunId: 'r1' };
    expect(replySourceOf(run)).toBe('r1');
    expect(gradesStoredReplies(run)).toBe(true);
  });

  it('every other run grades its own replies, even when it names a parent', () => {
    for (const trigger of ['manual', 'schedule', 'pull_request', 'cli']) {
      const run = { id: 'r2', trigger, parentRunId: 'r1' };
      expect(replySourceOf(run)).toBe('r2');
      expect(gradesStoredReplies(run)).toBe(false);
    }
  });

  it('a rescore whose parent is gone (no parent id) grades nothing but its own id', () => {
    expect(replySourceOf({ id: 'r2', trigger: 'rescore', parentRunId: null })).toBe('r2');
  });
});
