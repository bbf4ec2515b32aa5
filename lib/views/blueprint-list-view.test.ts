import { describe, expect, it } from 'vitest';
import type { BlueprintListItem } from '@/lib/server/db/queries/blueprint-list';
import { blueprintCards } from './blueprint-list-view';

const item = (over: Partial<BlueprintListItem>): BlueprintListItem => ({
  id: 'x',
  title: 'X',
  description: null,
  tags: [],
  promptCount: 3,
  retrieval: null,
  valid: true,
  errorCount: 0,
  updatedAt: new Date('2026-12-01T00:00:00Z'),
  ...over,
});

describe('blueprintCards', () => {
  it('sizes a chat blueprint by its prompts and a retrieval blueprint by its queries and documents', () => {
    const [chat, one, retrieval] = blueprintCards([item({}), item({ promptCount: 1 }), item({ promptCount: 0, retrieval: { queries: 20, documents: 50 } })]);
    expect(chat!.promptCountLabel).toBe('3 prompts');
    expect(one!.promptCountLabel).toBe('1 prompt');
    expect(retrieval!.promptCountLabel).toBe('20 queries over 50 documents');
  });
});
