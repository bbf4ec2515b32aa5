import { describe, expect, it } from 'vitest';
import { describeInterval, formatAgo, formatCount, formatDelta, formatDuration, formatInterval, formatScore, formatUsd, modelShortName, plainText, plural, roundHalfUp, truncate } from './format';

describe('scores and intervals', () => {
  it('rounds half away from zero, free of binary noise', () => {
    expect(roundHalfUp(0.735 * 100, 0)).toBe(74);
    expect(formatScore(0.7345)).toBe('73.5');
    expect(formatScore(0.12345, 2)).toBe('12.35');
    expect(formatScore(1)).toBe('100.0');
    expect(formatScore(0)).toBe('0.0');
    expect(roundHalfUp(-1.005, 2)).toBe(-1.01);
  });

  it('shows a missing score as a dash, never as 0', () => {
    expect(formatScore(null)).toBe('—');
    expect(formatScore(undefined)).toBe('—');
    expect(formatScore(Number.NaN)).toBe('—');
  });

  it('formats an interval as a range, or nothing when there is none', () => {
    expect(formatInterval(0.681, 0.78)).toBe('68.1–78.0');
    expect(formatInterval(null, 0.5)).toBeNull();
    expect(describeInterval(0.681, 0.78)).toBe('95% interval 68.1 to 78.0');
    expect(describeInterval(null, null)).toMatch(/no interval/);
  });

  it('signs changes, with a true minus sign and a neutral zero', () => {
    expect(formatDelta(0.032)).toBe('+3.2');
    expect(formatDelta(-0.01)).toBe('−1.0');
    expect(formatDelta(0.0001)).toBe('±0.0');
    expect(formatDelta(null)).toBe('—');
  });
});

describe('counts, money, time and names', () => {
  it('groups thousands and pluralises', () => {
    expect(formatCount(100000)).toBe('100,000');
    expect(plural(1, 'reply', 'replies')).toBe('1 reply');
    expect(plural(1200, 'reply', 'replies')).toBe('1,200 replies');
  });

  it('keeps small costs readable', () => {
    expect(formatUsd(0)).toBe('$0');
    expect(formatUsd(0.00123)).toBe('$0.0012');
    expect(formatUsd(0.00003)).toBe('<$0.0001');
    expect(formatUsd(12.345)).toBe('$12.35');
  });

  it('says durations and ages in words', () => {
    expect(formatDuration(450)).toBe('450 ms');
    expect(formatDuration(65_000)).toBe('1 min 5 s');
    expect(formatDuration(3_900_000)).toBe('1 h 5 min');
    const now = new Date('2026-11-30T12:00:00Z');
    expect(formatAgo(new Date('2026-11-30T11:59:30Z'), now)).toBe('just now');
    expect(formatAgo(new Date('2026-11-27T12:00:00Z'), now)).toBe('3 days ago');
    expect(formatAgo(new Date('2026-11-16T12:00:00Z'), now)).toBe('2 weeks ago');
  });

  it('shortens model ids and text', () => {
    expect(modelShortName('openrouter:openai/gpt-4o')).toBe('gpt-4o');
    expect(modelShortName('openai:gpt-4o-mini')).toBe('gpt-4o-mini');
    expect(modelShortName('x:y/z', 'Custom name')).toBe('Custom name');
    expect(truncate('one two three four five', 12)).toBe('one two…');
    expect(truncate('  short  ', 12)).toBe('short');
  });

  it('turns Markdown into plain text for previews', () => {
    expect(plainText('Graded on **accuracy**, _safety_ and `code`.\n\n- See the [docs](https://x.example) ![img](y.png)')).toBe('Graded on accuracy, safety and code. See the docs img');
    expect(plainText('# Title\n> quoted\n1. first')).toBe('Title quoted first');
    expect(plainText('2 * 3 * 4 and snake_case_name')).toBe('2 * 3 * 4 and snake_case_name');
  });
});
