import { describe, expect, it } from 'vitest';
import { paginationView } from './pagination';

const link = (n: number) => `/p?page=${n}`;

describe('pagination', () => {
  it('labels the range and links neighbours', () => {
    const v = paginationView(2, 25, 500, 'prompts', link);
    expect(v.rangeLabel).toBe('Prompts 26–50 of 500');
    expect(v.pages).toBe(20);
    expect(v.previousHref).toBe('/p?page=1');
    expect(v.nextHref).toBe('/p?page=3');
    expect(v.links.map((l) => l?.page ?? null)).toEqual([1, 2, 3, 4, null, 20]);
  });

  it('handles one page, no items, and a page past the end', () => {
    expect(paginationView(1, 25, 10, 'prompts', link)).toMatchObject({ pages: 1, previousHref: null, nextHref: null, rangeLabel: 'Prompts 1–10 of 10' });
    expect(paginationView(1, 25, 0, 'prompts', link).rangeLabel).toBe('No prompts');
    const past = paginationView(9, 25, 30, 'prompts', link);
    expect(past.rangeLabel).toMatch(/Past the last page/);
    expect(past.previousHref).toBe('/p?page=2');
  });
});
