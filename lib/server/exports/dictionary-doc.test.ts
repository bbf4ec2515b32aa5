import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { DICTIONARY_END, DICTIONARY_START, exportDictionaryMarkdown } from '@/lib/core';

describe('the exports column dictionary', () => {
  it('docs/exports.md lists exactly the columns the tables export (made from their schemas)', () => {
    const doc = readFileSync(new URL('../../../docs/exports.md', import.meta.url), 'utf8');
    const start = doc.indexOf(DICTIONARY_START);
    const end = doc.indexOf(DICTIONARY_END);
    expect(start, 'the start marker').toBeGreaterThanOrEqual(0);
    expect(end, 'the end marker').toBeGreaterThan(start);
    // to refresh it: print exportDictionaryMarkdown() from '@/lib/core' and paste it between the markers
    expect(doc.slice(start, end + DICTIONARY_END.length)).toBe(exportDictionaryMarkdown());
  });
});
