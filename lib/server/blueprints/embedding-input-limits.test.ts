import { describe, expect, it } from 'vitest';
import type { RetrievalBlock } from '@/lib/core';
import { loadRetrievalFiles } from './retrieval-files';

/** `n` cl100k_base tokens ("go", then " go" are one token each). */
const text = (n: number) => `go${' go'.repeat(n - 1)}`;

const block = (models: string[]): RetrievalBlock => ({
  corpus: 'corpus.jsonl',
  queries: 'queries.jsonl',
  qrels: 'qrels.txt',
  metrics: [{ name: 'map', k: null, label: 'map' }],
  models: models.map((id) => ({ id, written: 'id' as const })),
  thresholds: null,
  primaryMetric: 'map',
});

const files = (long: number): Record<string, string> => ({
  'r/corpus.jsonl': `{"id": "d1", "text": "short"}\n\n{"id": "d2", "text": "${text(long)}"}\n`,
  'r/queries.jsonl': '{"id": "q1", "text": "go"}\n',
  'r/qrels.txt': 'q1 0 d1 1\n',
});
const read = (f: Record<string, string>) => async (p: string) => f[p]!;

describe("the retrieval loader refuses a text longer than a named model's input limit, at its line", () => {
  it('names the document, its token count, the limit and the model, at the text field', async () => {
    const loaded = await loadRetrievalFiles(block(['openai:text-embedding-3-small']), 'r/x.yml', read(files(8193)));
    expect(loaded).toEqual({
      ok: false,
      issues: [
        {
          severity: 'error',
          code: 'limit',
          file: 'r/corpus.jsonl',
          line: 3,
          col: 14,
          message: 'the document "d2" is 8,193 tokens long, over the 8,192-token input limit of openai:text-embedding-3-small',
          hint: expect.stringContaining('Split it into passages') as unknown as string,
        },
      ],
    });
  });

  it('takes a text at the limit, and any length for models without a published limit', async () => {
    expect((await loadRetrievalFiles(block(['openai:text-embedding-3-large']), 'r/x.yml', read(files(8192)))).ok).toBe(true);
    expect((await loadRetrievalFiles(block(['openai:fake-embed-large', 'vllm:bge']), 'r/x.yml', read(files(9000)))).ok).toBe(true);
  });
});
