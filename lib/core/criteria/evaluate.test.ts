import { describe, expect, it } from 'vitest';
import type { CriterionPoint } from '../blueprint/schema';
import { evaluateDeterministicPoint } from '../scoring/deterministic';
import { attemptScore } from '../scoring/attempt';
import { criteriaAttemptScore } from '../scoring/criteria-attempt';
import { CorpusUnavailableError } from './corpus';

const point = (criterion: string, params: unknown, over: Partial<CriterionPoint> = {}): CriterionPoint => ({
  kind: 'criterion', criterion, params, text: criterion, weight: 1, citation: null, path: null, source: 'should', gate: false, loc: null, ...over,
});

describe('a criterion point graded like any point (evaluateDeterministicPoint)', () => {
  it('a share is the raw score; the verdict score is 1/0 by status, with the kind and params as its spec', async () => {
    const v = await evaluateDeterministicPoint(point('reply.contains', { text: ['Awb', 'Wmo'], ignore_case: false }), 'Zie de Awb.', { pointIndex: 3 });
    expect(v).toMatchObject({ pointIndex: 3, kind: 'criterion', status: 'fail', score: 0, rawScore: 0.5, spec: { kind: 'criterion', criterion: 'reply.contains' } });
  });

  it('a failed gate zeroes the attempt in both aggregations', async () => {
    const gate = await evaluateDeterministicPoint(point('reply.max_length', { max: 3, unit: 'characters' }, { gate: true }), 'too long', { pointIndex: 0 });
    const other = await evaluateDeterministicPoint(point('reply.contains', { text: 'long', ignore_case: false }), 'too long', { pointIndex: 1 });
    if (gate === 'needs-judge' || other === 'needs-judge') throw new Error('criteria need no judge');
    expect(gate).toMatchObject({ status: 'fail', gate: true });
    expect(attemptScore([gate, other])).toMatchObject({ score: 0, gateFailed: true });
    expect(criteriaAttemptScore([gate, other])).toMatchObject({ score: 0, passed: false });
  });

  it('error (never a 0) for an unknown kind, stored params that no longer parse, a missing corpus', async () => {
    const unknown = await evaluateDeterministicPoint(point('reply.langauge', {}), 'x');
    const stale = await evaluateDeterministicPoint(point('reply.max_length', { max: 'ten' }), 'x');
    const corpus = await evaluateDeterministicPoint(point('citations.mentions_in_corpus', {}), 'x');
    expect(unknown).toMatchObject({ status: 'error', score: null, detail: 'unknown criterion kind "reply.langauge"; did you mean reply.language?' });
    expect(stale).toMatchObject({ status: 'error', score: null, detail: expect.stringMatching(/^reply\.max_length: stored parameters no longer valid/) });
    expect(corpus).toMatchObject({ status: 'error', score: null, detail: expect.stringMatching(/needs the corpus/) });
  });

  it('a corpus that could not be read is an error verdict in a judged kind too, not a thrown run', async () => {
    const broken = () => {
      throw new CorpusUnavailableError('the corpus file ../corpus/units.jsonl cannot be read');
    };
    const expect_ = { behaviour: 'answer', message: null, answer: null, nuggets: [{ text: 'Twee keer de huur.', importance: 'vital', sources: ['bw7/261'] }], sources: { required: {}, supporting: [], forbidden: [] } };
    const judge = { choose: async () => ({ distribution: { false: 0, true: 1 } }) };
    const v = await evaluateDeterministicPoint(point('nuggets.coverage', {}), 'x', { criterion: { evidence: { expect: expect_ }, services: { judge, corpus: { has: broken, text: broken, ids: broken } } } });
    expect(v).toMatchObject({ status: 'error', score: null, detail: 'nuggets.coverage failed: the corpus file ../corpus/units.jsonl cannot be read' });
  });

  it('not_applicable keeps no score', async () => {
    const v = await evaluateDeterministicPoint(point('citations.required', {}), 'x', { criterion: { evidence: { citations: [{ id: 'law/a', raw: 'law/a' }] } } });
    expect(v).toMatchObject({ status: 'not_applicable', score: null, rawScore: null });
  });
});
