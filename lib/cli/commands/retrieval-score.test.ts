/**
 * `assay retrieval score` against pairs whose figures were published by trec_eval-based tools
 * or computed by hand (testing/trec/README.md says which): every figure to 4 decimals.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assay, REPO_ROOT, tempFiles } from '../cli.testkit';

interface Case {
  name: string;
  qrels: string;
  run: string;
  metrics: string[];
  overall: Record<string, number>;
  queries: Record<string, Record<string, number>>;
}

const TREC = join(REPO_ROOT, 'testing/trec');
const { cases } = JSON.parse(readFileSync(join(TREC, 'expected.json'), 'utf8')) as { cases: Case[] };

function expectClose(actual: Record<string, unknown>, expected: Record<string, number>, where: string): void {
  expect(Object.keys(actual).sort(), where).toEqual(Object.keys(expected).sort());
  for (const [metric, value] of Object.entries(expected)) {
    expect(typeof actual[metric], `${where} ${metric}`).toBe('number');
    expect(Math.abs((actual[metric] as number) - value), `${where} ${metric}: ${String(actual[metric])} vs ${value}`).toBeLessThan(5e-5);
  }
}

describe('assay retrieval score', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const result = await assay(['retrieval', 'score', '--qrels', join(TREC, c.qrels), '--run', join(TREC, c.run), '--metrics', c.metrics.join(','), '--per-query', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout) as { overall: Record<string, unknown>; queries: Record<string, Record<string, unknown>> };
    expectClose(out.overall, c.overall, 'overall');
    expect(Object.keys(out.queries).sort()).toEqual(Object.keys(c.queries).sort());
    for (const [qid, values] of Object.entries(c.queries)) expectClose(out.queries[qid]!, values, `query ${qid}`);
  });

  it('prints trec_eval-style lines without --json, only the means without --per-query, and notes left-out queries on stderr', async () => {
    const [text, json] = await Promise.all([
      assay(['retrieval', 'score', '--qrels', join(TREC, 'handmade.qrels'), '--run', join(TREC, 'handmade.run'), '--metrics', 'map,ndcg@3']),
      assay(['retrieval', 'score', '--qrels', join(TREC, 'handmade.qrels'), '--run', join(TREC, 'handmade.run'), '--metrics', 'map', '--json']),
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout.trim().split('\n')).toEqual(['map   \tall\t0.3417', 'ndcg@3\tall\t0.3374']);
    expect(JSON.parse(json.stdout)).toEqual({ overall: { map: expect.closeTo(0.341667, 5) } });
    expect(json.stderr).toContain('left out of the mean: q5');
    expect(json.stderr).toContain('(trec_eval without -c): q4');
  });

  it('reports broken files at file:line:col and usage mistakes with exit 2', async () => {
    const dir = await tempFiles({ 'q.txt': 'q1 0 d1 1\nq1 0 d2 high\nq1 0 d1 2\n', 'r.txt': 'q1 Q0 d1 1 0.5 x\nq1 Q0 d2 2 abc x\nq1 Q0 d1 3 0.1 x\nq1 Q0 d3\n' });
    const [broken, badMetric, missing, unknownSub] = await Promise.all([
      assay(['retrieval', 'score', '--qrels', join(dir, 'q.txt'), '--run', join(dir, 'r.txt')]),
      assay(['retrieval', 'score', '--qrels', join(dir, 'q.txt'), '--run', join(dir, 'r.txt'), '--metrics', 'recall']),
      assay(['retrieval', 'score', '--run', join(dir, 'r.txt')]),
      assay(['retrieval', 'rank']),
    ]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`${join(dir, 'q.txt')}:2:9: error: the relevance must be a whole number, not "high"`);
    expect(broken.stderr).toContain(`${join(dir, 'q.txt')}:3:6: error: the query "q1" judges the document "d1" twice (first at line 1)`);
    expect(broken.stderr).toContain(`${join(dir, 'r.txt')}:2:12: error: the score must be a number, not "abc"`);
    expect(broken.stderr).toContain(`${join(dir, 'r.txt')}:3:7: error: the query "q1" retrieves the document "d1" twice (first at line 1)`);
    expect(broken.stderr).toContain(`${join(dir, 'r.txt')}:4:1: error: a TREC run line has 6 fields`);
    expect(badMetric.code).toBe(2);
    expect(badMetric.stderr).toContain('`recall` needs a cutoff');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--qrels');
    expect(unknownSub.code).toBe(2);
  });

  it('fails, like trec_eval, when no query is both judged and ranked (no mean is printed as 0)', async () => {
    const dir = await tempFiles({ 'q.txt': 'q1 0 d1 1\n', 'r.txt': 'q2 Q0 d1 1 0.5 x\n' });
    const result = await assay(['retrieval', 'score', '--qrels', join(dir, 'q.txt'), '--run', join(dir, 'r.txt'), '--json']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('no query is both in');
  });
});
