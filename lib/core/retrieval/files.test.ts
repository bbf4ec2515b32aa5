import { describe, expect, it } from 'vitest';
import { parseRetrievalFiles, parseTrecQrels, parseTrecRun } from './files';
import { RETRIEVAL_LIMITS } from './limits';

const corpus = (text: string) => ({ path: 'data/corpus.jsonl', text });
const queries = (text: string) => ({ path: 'data/queries.jsonl', text });
const qrels = (text: string) => ({ path: 'data/qrels.jsonl', text });
const where = (issues: { file: string; line: number; col: number; message: string }[]) => issues.map((i) => `${i.file}:${i.line}:${i.col} ${i.message}`);

const CORPUS = '{"id": "d1", "text": "Pasta al dente"}\n{"_id": "d2", "text": "Risotto"}\n\n{"id": 3, "text": "Gnocchi"}\n';
const QUERIES = '{"id": "q1", "text": "how long to boil pasta"}\r\n{"id": "q2", "text": "rice dishes"}\n';

describe('parseRetrievalFiles', () => {
  it('reads JSONL corpus, queries and qrels (blank lines, CRLF, `_id` and numeric ids accepted)', () => {
    const result = parseRetrievalFiles({ corpus: corpus(CORPUS), queries: queries(QUERIES), qrels: qrels('{"query_id": "q1", "doc_id": "d1", "relevance": 2}\n{"query_id": "q2", "doc_id": "d2", "relevance": "1"}\n') });
    expect(result).toEqual({
      ok: true,
      data: {
        corpus: [{ id: 'd1', text: 'Pasta al dente' }, { id: 'd2', text: 'Risotto' }, { id: '3', text: 'Gnocchi' }],
        queries: [{ id: 'q1', text: 'how long to boil pasta' }, { id: 'q2', text: 'rice dishes' }],
        qrels: [{ queryId: 'q1', docId: 'd1', relevance: 2 }, { queryId: 'q2', docId: 'd2', relevance: 1 }],
      },
      warnings: [],
    });
  });

  it('reads TREC qrels text, told apart from JSONL by the first character, `#` comments skipped', () => {
    const result = parseRetrievalFiles({ corpus: corpus(CORPUS), queries: queries(QUERIES), qrels: { path: 'qrels.txt', text: '# judged by hand\nq1 0 d1 2\nq1\t0\t3\t0\n' } });
    expect(result.ok && result.data.qrels).toEqual([{ queryId: 'q1', docId: 'd1', relevance: 2 }, { queryId: 'q1', docId: '3', relevance: 0 }]);
    // q2 has no judgement: scored by nobody, said as a warning at its line.
    expect(result.ok && where(result.warnings)).toEqual(['data/queries.jsonl:2:1 the query "q2" has no judgement in qrels.txt, so it is not scored (as trec_eval leaves it out)']);
  });

  it('reports every malformed line at the JSONL file’s path:line:col', () => {
    const result = parseRetrievalFiles({
      corpus: corpus('{"id": "d1", "text": "a"}\n{"id": "d1", "text": "b"}\n{"id": "d2" "text": "c"}\n{"text": "no id"}\n{"id": "d3"}\n{"id": "d4", "text": 5}\n[1, 2]\n'),
      queries: queries('{"id": "q1", "text": "x"}\n'),
      qrels: qrels('{"query_id": "q1", "doc_id": "d1", "relevance": 1.5}\n{"query_id": "q1", "relevance": 1}\n'),
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(where(result.issues)).toEqual([
      'data/corpus.jsonl:2:8 the document id "d1" is already used at line 1',
      `data/corpus.jsonl:3:13 this line is not valid JSON: expected ',' or '}' after the property value but found "\\""`,
      'data/corpus.jsonl:4:1 this line has no `id`',
      'data/corpus.jsonl:5:1 this line has no `text`',
      'data/corpus.jsonl:6:22 `text` must be a non-empty string, not 5',
      'data/corpus.jsonl:7:1 each line must be a JSON object, not a list',
      'data/qrels.jsonl:1:49 `relevance` must be a whole number, not 1.5',
      'data/qrels.jsonl:2:1 this line has no `doc_id`',
    ]);
    expect(result.issues.every((i) => i.severity === 'error' && i.hint.length > 0)).toBe(true);
  });

  it('reports a qrel naming an unknown document or query, and a duplicate judgement, at the qrel', () => {
    const result = parseRetrievalFiles({
      corpus: corpus(CORPUS),
      queries: queries(QUERIES),
      qrels: { path: 'qrels.txt', text: 'q1 0 d1 1\nq7 0 d1 1\nq1 0 d99 1\nq1 0 d1 2\nq1 0 d2 x\nq1 0 d2\n' },
    });
    expect(!result.ok && where(result.issues)).toEqual([
      'qrels.txt:2:1 the query "q7" is not in data/queries.jsonl',
      'qrels.txt:3:6 the document "d99" is not in data/corpus.jsonl',
      'qrels.txt:4:6 the query "q1" judges the document "d1" twice (first at line 1)',
      'qrels.txt:5:9 the relevance must be a whole number, not "x"',
      'qrels.txt:6:1 a TREC qrels line has 4 fields (`qid iter docid rel`), this one has 3',
    ]);
  });

  it('refuses empty files, qrels that judge nothing, and files past the limits', () => {
    const empty = parseRetrievalFiles({ corpus: corpus(''), queries: queries(QUERIES), qrels: qrels('# nothing\n') });
    expect(!empty.ok && where(empty.issues)).toEqual(['data/corpus.jsonl:1:1 the file is empty']);
    const nothing = parseRetrievalFiles({ corpus: corpus(CORPUS), queries: queries(QUERIES), qrels: { path: 'q.txt', text: '# only a comment\n' } });
    expect(!nothing.ok && where(nothing.issues)).toEqual(['q.txt:1:1 the qrels judge no document']);
    const small = { ...RETRIEVAL_LIMITS, maxDocuments: 2, maxIdChars: 3, maxFileBytes: 10_000 };
    const tooMany = parseRetrievalFiles({ corpus: corpus(CORPUS), queries: queries(QUERIES), qrels: qrels('{"query_id": "q1", "doc_id": "d1", "relevance": 1}\n') }, small);
    expect(!tooMany.ok && where(tooMany.issues)[0]).toMatch(/^data\/corpus\.jsonl:4:1 the file has 3 documents, over the limit of 2/);
    const longId = parseRetrievalFiles({ corpus: corpus('{"id": "abcd", "text": "x"}\n'), queries: queries(QUERIES), qrels: qrels('{"query_id": "q1", "doc_id": "d1", "relevance": 1}\n') }, small);
    expect(!longId.ok && where(longId.issues)[0]).toMatch(/^data\/corpus\.jsonl:1:8 `id` is 4 characters long, over the limit of 3/);
    const big = parseRetrievalFiles({ corpus: corpus('x'.repeat(10_001)), queries: queries(QUERIES), qrels: qrels('x') }, small);
    expect(!big.ok && where(big.issues)[0]).toMatch(/^data\/corpus\.jsonl:1:1 the file is 10,001 bytes, over the limit of 10,000/);
  });

  it('refuses text PostgreSQL cannot store', () => {
    const result = parseRetrievalFiles({ corpus: corpus('{"id": "d1", "text": "a\\u0000b"}\n'), queries: queries(QUERIES), qrels: qrels('{"query_id": "q1", "doc_id": "d1", "relevance": 1}\n') });
    expect(!result.ok && result.issues[0]!.code).toBe('unstorable_text');
  });
});

describe('parseTrecQrels / parseTrecRun', () => {
  it('reads a run as trec_eval does: rank and tag ignored, scores as numbers, queries in any order', () => {
    const run = parseTrecRun('q2 Q0 d1 1 -1.5e2 x\nq1 Q0 d2 9 0.25 y\nq2 Q0 d3 2 3 x\n', 'run.txt');
    expect(run).toEqual({ ok: true, rankings: { q2: [{ docId: 'd1', score: -150 }, { docId: 'd3', score: 3 }], q1: [{ docId: 'd2', score: 0.25 }] } });
  });

  it('reads qrels with no corpus to check against', () => {
    expect(parseTrecQrels('1 0 A 1\n1 0 B 0\n', 'q.txt')).toEqual({ ok: true, qrels: [{ queryId: '1', docId: 'A', relevance: 1 }, { queryId: '1', docId: 'B', relevance: 0 }] });
  });

  it('does not let a query id named like an Object property reach the prototype', () => {
    const run = parseTrecRun('__proto__ Q0 d1 1 1 x\nconstructor Q0 d1 1 1 x\n', 'run.txt');
    expect(run.ok && Object.keys(run.rankings).sort()).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).d1).toBeUndefined();
  });
});
