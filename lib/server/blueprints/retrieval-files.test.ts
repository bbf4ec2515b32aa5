import { describe, expect, it } from 'vitest';
import type { RetrievalBlock } from '@/lib/core';
import { loadRetrievalFiles, resolveRetrievalPath, retrievalContentHash } from './retrieval-files';

const block: RetrievalBlock = { corpus: 'data/corpus.jsonl', queries: 'data/queries.jsonl', qrels: '../shared/qrels.txt', metrics: [{ name: 'map', k: null, label: 'map' }], models: [{ id: 'openai:e', written: 'id' }], thresholds: null, primaryMetric: 'map' };

const FILES: Record<string, string> = {
  'blueprints/r/data/corpus.jsonl': '{"id": "d1", "text": "one"}\n{"id": "d2", "text": "two"}\n',
  'blueprints/r/data/queries.jsonl': '{"id": "q1", "text": "a"}\n',
  'blueprints/shared/qrels.txt': 'q1 0 d1 1\n',
};
const reader = (files: Record<string, string>, asked: string[] = []) => async (path: string) => {
  asked.push(path);
  if (!(path in files)) throw new Error(`ENOENT: ${path}`);
  return files[path]!;
};

describe('resolveRetrievalPath', () => {
  it('resolves relative to the blueprint folder and refuses whatever leaves the repository', () => {
    expect(resolveRetrievalPath('blueprints/r/x.yml', 'data/c.jsonl')).toBe('blueprints/r/data/c.jsonl');
    expect(resolveRetrievalPath('blueprints/r/x.yml', './../shared/q.txt')).toBe('blueprints/shared/q.txt');
    expect(resolveRetrievalPath('x.yml', 'c.jsonl')).toBe('c.jsonl');
    expect(resolveRetrievalPath('blueprints/r/x.yml', 'data\\c.jsonl')).toBe('blueprints/r/data/c.jsonl');
    for (const escape of ['../../../etc/passwd', '/etc/passwd', 'C:/x', '../..', 'a/../../../..', 'a\0b']) expect(resolveRetrievalPath('blueprints/r/x.yml', escape), escape).toBeNull();
  });
});

describe('loadRetrievalFiles', () => {
  it('reads the three files through the reader, checks them, and hashes their bytes', async () => {
    const asked: string[] = [];
    const loaded = await loadRetrievalFiles(block, 'blueprints/r/x.yml', reader(FILES, asked));
    expect(asked.sort()).toEqual(['blueprints/r/data/corpus.jsonl', 'blueprints/r/data/queries.jsonl', 'blueprints/shared/qrels.txt']);
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.data.qrels).toEqual([{ queryId: 'q1', docId: 'd1', relevance: 1 }]);
    expect(loaded.contentHash).toBe(retrievalContentHash({ corpus: FILES['blueprints/r/data/corpus.jsonl']!, queries: FILES['blueprints/r/data/queries.jsonl']!, qrels: FILES['blueprints/shared/qrels.txt']! }));
    const changed = await loadRetrievalFiles(block, 'blueprints/r/x.yml', reader({ ...FILES, 'blueprints/shared/qrels.txt': 'q1 0 d2 1\n' }));
    expect(changed.ok && changed.contentHash).not.toBe(loaded.contentHash);
  });

  it('hashes so that moving bytes from one file to the next is a different identity', () => {
    expect(retrievalContentHash({ corpus: 'ab', queries: 'c', qrels: 'd' })).not.toBe(retrievalContentHash({ corpus: 'a', queries: 'bc', qrels: 'd' }));
  });

  it('reports the data files at their repository paths, and reads nothing for an escaping path', async () => {
    const broken = await loadRetrievalFiles(block, 'blueprints/r/x.yml', reader({ ...FILES, 'blueprints/shared/qrels.txt': 'q1 0 d9 1\n' }));
    expect(!broken.ok && broken.issues.map((i) => `${i.file}:${i.line}:${i.col}`)).toEqual(['blueprints/shared/qrels.txt:1:6']);
    const asked: string[] = [];
    const escaped = await loadRetrievalFiles({ ...block, corpus: '../../../secret' }, 'blueprints/r/x.yml', reader(FILES, asked));
    expect(asked).toEqual([]);
    expect(!escaped.ok && escaped.issues[0]).toMatchObject({ file: 'blueprints/r/x.yml', line: 1, message: 'the corpus path "../../../secret" leaves the repository' });
    const missing = await loadRetrievalFiles(block, 'blueprints/r/y/x.yml', reader(FILES));
    expect(!missing.ok && missing.issues.map((i) => i.message)).toHaveLength(3);
  });
});
