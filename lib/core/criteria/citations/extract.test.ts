import { describe, expect, it } from 'vitest';
import { CitationsConfigSchema } from './config';
import { extractCitations } from './extract';

const mapping = (path: string, regex?: string) => CitationsConfigSchema.parse({ mapping: { path, ...(regex ? { regex } : {}) } });
const ids = (structured: unknown, config: ReturnType<typeof mapping>, text = '') => extractCitations({ text, structured }, config).map((c) => c.id);

describe('citations of a reply (the one citation mapping)', () => {
  // a soev thread reply, as the soev system returns it and replies.structured stores it
  const element = { title: 'Art. 7:261 BW', metadata: { unit_id: 'bw7/261/1#v2' } };
  const body = { reply: { text: '…', citations: [element, { metadata: { unit_id: 'bw7/261/1#v3' } }, { title: 'no id' }, { metadata: { unit_id: '' } }, { metadata: { unit_id: 'bw7/240' } }] } };

  it('takes the whole field, the first group, or the whole match (soev CitationMapping.source_id)', () => {
    expect(ids(body, mapping('reply.citations.metadata.unit_id'))).toEqual(['bw7/261/1#v2', 'bw7/261/1#v3', 'bw7/240']);
    expect(ids(body, mapping('reply.citations.metadata.unit_id', '^([^#]+)'))).toEqual(['bw7/261/1', 'bw7/261/1', 'bw7/240']);
    expect(ids(body, mapping('reply.citations.metadata.unit_id', 'bw7/\\d+'))).toEqual(['bw7/261', 'bw7/261', 'bw7/240']);
  });

  it('gives none for a missing or empty field, a regex that does not match, or no JSON body', () => {
    expect(ids(body, mapping('reply.citations.metadata.missing'))).toEqual([]);
    expect(ids(body, mapping('reply.citations.metadata.unit_id', '^awb'))).toEqual([]);
    expect(ids(null, mapping('reply.citations.metadata.unit_id'))).toEqual([]);
    expect(ids('text', mapping('reply.citations.metadata.unit_id'))).toEqual([]);
  });

  it('reads a plain reply by a pattern, its first group the id', () => {
    const config = CitationsConfigSchema.parse({ pattern: '\\[bron: ([^\\]]+)\\]' });
    expect(ids(undefined, config, 'Zie [bron: bw7/261] en [bron: bw7/240/1].')).toEqual(['bw7/261', 'bw7/240/1']);
  });
});
