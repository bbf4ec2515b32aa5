import { describe, expect, it } from 'vitest';
import { etagOf, matchesIfNoneMatch, runFreshness } from './caching';

describe('API caching', () => {
  it('tags the same bytes the same way and other bytes otherwise', () => {
    expect(etagOf('{"a":1}')).toBe(etagOf('{"a":1}'));
    expect(etagOf('{"a":1}')).not.toBe(etagOf('{"a":2}'));
    expect(etagOf('x')).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
  });

  it('matches If-None-Match lists, weak tags and *', () => {
    const tag = etagOf('body');
    expect(matchesIfNoneMatch(tag, tag)).toBe(true);
    expect(matchesIfNoneMatch(`"other", W/${tag}`, tag)).toBe(true);
    expect(matchesIfNoneMatch('*', tag)).toBe(true);
    expect(matchesIfNoneMatch('"other"', tag)).toBe(false);
    expect(matchesIfNoneMatch(null, tag)).toBe(false);
  });

  it('lets a cache keep only a completed run', () => {
    expect(runFreshness('completed')).toBe('completed-run');
    for (const s of ['queued', 'running', 'judging', 'summarising', 'budget_exceeded', 'failed', 'cancelled']) expect(runFreshness(s)).toBe('live');
  });
});
