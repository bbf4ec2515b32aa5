import { describe, expect, it } from 'vitest';
import { figureAttrs, figureConflicts, figureId, type SeenFigure } from './figures';

describe('figure identities', () => {
  it('name the figure, then its scope from the most general part, whatever order the scope was written in', () => {
    expect(figureId('interval', { model: 'openai:gpt-4o', run: 'r1' })).toBe('interval|run=r1|model=openai:gpt-4o');
    expect(figureId('band', { model: 'm', board: 'tag:health' })).toBe('band|board=tag:health|model=m');
    expect(figureAttrs('score', { run: 'r', model: 'm' }, ' 97.3 \n')).toEqual({ 'data-figure': 'score|run=r|model=m', 'data-value': '97.3' });
  });
});

describe('the census’s check', () => {
  // The disagreements readers found on the demo before each figure had one source, written as
  // the census sees them once both pages give the figure its identity: each must be caught.
  const found: [string, SeenFigure, SeenFigure][] = [
    ['a tag board over one blueprint vs the blueprint’s page', { id: 'interval|run=everyday-3|model=llama', value: '60.8–95.9', page: '/?tag=health' }, { id: 'interval|run=everyday-3|model=llama', value: '50.9–95.6', page: '/blueprints/demo__everyday-answers' }],
    ['one interval rounded two ways', { id: 'interval|run=everyday-3|model=gpt-4o', value: '95.3–96.9', page: '/models/gpt-4o' }, { id: 'interval|run=everyday-3|model=gpt-4o', value: '95.4–96.9', page: '/runs/everyday-3' }],
    ['a drift on /drift vs the run diff', { id: 'difference|from=everyday-1|to=everyday-3|model=gemini', value: '−28.8', page: '/drift' }, { id: 'difference|from=everyday-1|to=everyday-3|model=gemini', value: '−31.0', page: '/runs/everyday-3/diff/everyday-1' }],
    ['the newer run’s score on the diff', { id: 'score|run=everyday-3|model=gemini', value: '26.0', page: '/runs/everyday-3/diff/everyday-1' }, { id: 'score|run=everyday-3|model=gemini', value: '24.1', page: '/runs/everyday-3' }],
    ['the smallest detectable difference', { id: 'mde|run=everyday-1', value: '31.3', page: '/blueprints/demo__everyday-answers' }, { id: 'mde|run=everyday-1', value: '30.9', page: '/drift' }],
    ['a place on a tag board vs the model page', { id: 'band|board=tag:tools|model=gpt-4o', value: 'rank 2', page: '/models/gpt-4o' }, { id: 'band|board=tag:tools|model=gpt-4o', value: 'rank 1–2', page: '/?tag=tools' }],
    ['a retrieval status', { id: 'status|run=retrieval-1|model=fake-embed-small', value: 'Warn', page: '/' }, { id: 'status|run=retrieval-1|model=fake-embed-small', value: 'Fail', page: '/runs/retrieval-1' }],
  ];

  it.each(found)('catches %s', (_what, a, b) => {
    const same = { ...a, page: '/elsewhere' };
    expect(figureConflicts([a, same, b])).toEqual([{ id: a.id, values: [{ value: a.value, pages: [a.page, '/elsewhere'] }, { value: b.value, pages: [b.page] }] }]);
  });

  it('passes a figure shown with one value on many pages, and different figures with different values', () => {
    const seen = found.flatMap(([, a]) => [a, { ...a, page: '/other' }, { ...a, page: '/third' }]);
    expect(figureConflicts(seen)).toEqual([]);
  });
});
