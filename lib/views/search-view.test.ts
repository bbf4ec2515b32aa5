import { describe, expect, it } from 'vitest';
import { MATCH_END, MATCH_START } from '@/lib/core';
import { highlightSegments, searchPageView, SearchParamsSchema } from './search-view';

const m = (s: string) => `${MATCH_START}${s}${MATCH_END}`;

describe('search view', () => {
  it('splits snippets into plain and matched text (never HTML)', () => {
    expect(highlightSegments(`the ${m('paracetamol')} dose is ${m('4')} g`)).toEqual([
      { text: 'the ', match: false },
      { text: 'paracetamol', match: true },
      { text: ' dose is ', match: false },
      { text: '4', match: true },
      { text: ' g', match: false },
    ]);
    expect(highlightSegments('<script>x</script>')).toEqual([{ text: '<script>x</script>', match: false }]);
    expect(highlightSegments(`${MATCH_START}unclosed`)).toEqual([{ text: 'unclosed', match: false }]);
  });

  it('parses the query string forgivingly', () => {
    expect(SearchParamsSchema.parse({ q: '  tea   cup ', kind: 'bogus', page: 'x' })).toEqual({ q: 'tea cup', kind: 'replies', page: 1 });
    expect(SearchParamsSchema.parse({ q: ['a', 'b'] }).q).toBe('');
    expect(SearchParamsSchema.parse({ q: 'x'.repeat(500) }).q).toHaveLength(200);
  });

  it('links reply hits to their cell and caps the count', () => {
    const v = searchPageView(
      { q: 'canberra', kind: 'replies', page: 1 },
      { hits: [{ runId: 'r1', runCreatedAt: new Date('2026-11-29T00:00:00Z'), blueprintId: 'b', blueprintTitle: 'B', promptKey: 'p', modelId: 'x:y/z', snippet: m('Canberra') }], total: 1001 },
    );
    expect(v.countLabel).toBe('1,000+ replies');
    expect(v.hits[0]).toMatchObject({ title: 'z on B › p', href: '/runs/r1/prompts/p?model=x%3Ay%2Fz#cell' });
    expect(v.nextHref).toBe('/search?q=canberra&page=2');
    expect(searchPageView({ q: 'x', kind: 'prompts', page: 1 }, { hits: [], total: 0 }).countLabel).toBe('No prompts match.');
  });
});
