import { describe, expect, it } from 'vitest';
import { decodeSegment, href, modelIdFromSegments, modelPath } from './urls';

describe('addresses', () => {
  it('carries model ids with ":" and "/" as readable path segments, and back', () => {
    const id = 'openrouter:meta-llama/llama-3.1-70b-instruct';
    expect(modelPath(id)).toBe('openrouter%3Ameta-llama/llama-3.1-70b-instruct');
    expect(href.model(id)).toBe('/models/openrouter%3Ameta-llama/llama-3.1-70b-instruct');
    // whether the router hands the segments over decoded or not, the id comes back whole
    expect(modelIdFromSegments(['openrouter%3Ameta-llama', 'llama-3.1-70b-instruct'])).toBe(id);
    expect(modelIdFromSegments(['openrouter:meta-llama', 'llama-3.1-70b-instruct'])).toBe(id);
    const odd = 'custom:team a/bot?v=1#x%';
    expect(modelIdFromSegments(modelPath(odd).split('/'))).toBe(odd);
  });

  it('decodes a segment at most once and survives a stray percent sign', () => {
    expect(decodeSegment('a%20b')).toBe('a b');
    expect(decodeSegment('100%')).toBe('100%');
  });

  it('keeps default state out of URLs and the rest in them', () => {
    expect(href.run('r1')).toBe('/runs/r1');
    expect(href.run('r1', { view: 'prompts', page: 1, sort: 'position' })).toBe('/runs/r1');
    expect(href.run('r1', { view: 'points', page: 3 })).toBe('/runs/r1?view=points&page=3');
    expect(href.run('r1', { sort: 'hardest', page: 2 })).toBe('/runs/r1?sort=hardest&page=2');
  });

  it('deep-links cells, points and anchors', () => {
    expect(href.cell('r 1', 'k/1', 'openai:gpt-4o')).toBe('/runs/r%201/prompts/k%2F1?model=openai%3Agpt-4o#cell');
    expect(href.point('r1', 'k', 2)).toBe('/runs/r1/prompts/k/points/2');
    expect(href.pointAnchor('r1', 'k', 2, 'm')).toBe('/runs/r1/prompts/k?model=m#point-2');
    expect(href.runModel('r1', 'a:b/c', { sort: 'weakest', page: 2 })).toBe('/runs/r1/models/a%3Ab/c?page=2');
    expect(href.search('tea cup', { kind: 'prompts' })).toBe('/search?q=tea+cup&kind=prompts');
    expect(href.home('health')).toBe('/?tag=health');
  });
});
