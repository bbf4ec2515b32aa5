import { describe, expect, it } from 'vitest';
import { citationsOf, sourceIdOf } from './citations';

describe("soev's citation mapping", () => {
  const element = { title: 'Art. 7:261 BW', metadata: { unit_id: 'bw7/261/1#v2' } };
  it('takes the whole field, the first group, or the whole match', () => {
    expect(sourceIdOf(element, { path: 'metadata.unit_id' })).toBe('bw7/261/1#v2');
    expect(sourceIdOf(element, { path: 'metadata.unit_id', regex: '^([^#]+)' })).toBe('bw7/261/1');
    expect(sourceIdOf(element, { path: 'metadata.unit_id', regex: 'bw7/\\d+' })).toBe('bw7/261');
  });
  it('gives none for a missing or empty field or a regex that does not match', () => {
    expect(sourceIdOf(element, { path: 'metadata.missing' })).toBeNull();
    expect(sourceIdOf({ metadata: { unit_id: '' } }, { path: 'metadata.unit_id' })).toBeNull();
    expect(sourceIdOf(element, { path: 'metadata.unit_id', regex: '^awb' })).toBeNull();
    expect(sourceIdOf('text', { path: 'metadata.unit_id' })).toBeNull();
  });
  it("reads a thread reply's cited elements, once per id, dropping the unresolved", () => {
    const body = { reply: { text: '…', citations: [element, { metadata: { unit_id: 'bw7/261/1#v3' } }, { title: 'no id' }, { metadata: { unit_id: 'bw7/240' } }] } };
    expect(citationsOf(body, { path: 'metadata.unit_id', regex: '^([^#]+)' }).map((c) => c.id)).toEqual(['bw7/261/1', 'bw7/240']);
    expect(citationsOf(null, { path: 'x' })).toEqual([]);
  });
});
