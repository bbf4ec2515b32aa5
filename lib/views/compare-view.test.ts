import { describe, expect, it } from 'vitest';
import type { Board, BoardPromptCell, LeaderboardRow } from '@/lib/server/db/queries/leaderboard';
import { compareHref, compareView, formatP } from './compare-view';

const row = (blueprintId: string, modelId: string, score: number | null, tags: string[] = []): LeaderboardRow => ({
  blueprintId,
  blueprintTitle: `Title ${blueprintId}`,
  tags,
  modelId,
  runId: `run-${blueprintId}`,
  score,
  ciLow: null,
  ciHigh: null,
  errorCount: 0,
  judgedVerdicts: 1,
  judgedScored: 1,
  deterministicVerdicts: 0,
  deterministicScored: 0,
});
const cells = (blueprintId: string, modelId: string, scores: number[], sealedFrom = Infinity): BoardPromptCell[] =>
  scores.map((score, i) => ({ blueprintId, modelId, runId: `run-${blueprintId}`, promptKey: i >= sealedFrom ? `sealed-${i}` : `q${i}`, weight: 1, score, sealed: i >= sealedFrom }));

const board: Board = {
  rows: [row('x', 'm:a', 0.8, ['t']), row('x', 'm:b', 0.5, ['t']), row('y', 'm:a', 0.6), row('y', 'm:b', 0.6)],
  prompts: [
    ...cells('x', 'm:a', [1, 1, 0.5, 1, 0.5], 4),
    ...cells('x', 'm:b', [0.5, 0.5, 0.5, 0.5, 0.5], 4),
    ...cells('y', 'm:a', [0.6, 0.6]),
    ...cells('y', 'm:b', [0.6, 0.6]),
  ],
};
const form = { action: '/compare' };

describe('compareView', () => {
  it('says in one sentence what the pair’s own test and the leaderboard’s correction make of the gap', () => {
    const ranked = (modelId: string, rank: number, bandLabel: string) => ({
      modelId, score: 0.8, ciLow: null, ciHigh: null, blueprints: 1, scoredBlueprints: 1, errors: 0,
      coverage: { judgedVerdicts: 0, judgedScored: 0, deterministicVerdicts: 0, deterministicScored: 0 },
      intervalMethod: null, intervalPrompts: null, costPerPromptUsd: null, latencyMsPerPrompt: null, latencyMsP50: null, rank, band: null, bandLabel,
    });
    const onBoard = (separated: boolean) => ({
      tag: 't', blueprintCount: 1, minCoverage: 0.5, requiredBlueprints: 1, unranked: [],
      ranked: [ranked('m:a', 1, separated ? 'rank 1' : 'rank 1–2'), ranked('m:b', 2, separated ? 'rank 2' : 'rank 1–2')],
      pairs: [{ i: 0, j: 1, p: 0.02, diff: 0.3, adjustedP: separated ? 0.02 : 0.12, separated }],
    });
    // a clearly ahead of b on their own 10 prompts
    const clear: Board = {
      rows: [row('x', 'm:a', 0.8, ['t']), row('x', 'm:b', 0.5, ['t'])],
      prompts: [...cells('x', 'm:a', [0.9, 0.8, 0.9, 0.7, 0.8, 0.9, 0.8, 0.7, 0.9, 0.8]), ...cells('x', 'm:b', [0.5, 0.6, 0.4, 0.5, 0.6, 0.5, 0.4, 0.5, 0.6, 0.5])],
    };
    const tied = compareView(clear, new Map(), { kind: 'board', tag: 't' }, { a: 'm:a', b: 'm:b' }, form, onBoard(false)).result!;
    expect(tied.verdict).toMatch(/is ahead of b .*this pair tested alone\)\. But the leaderboard corrects for all 1 pairs it compares \(Holm\), and after that correction the gap is not significant \(adjusted p = 0\.12\): that is why it gives a rank 1–2 and b rank 1–2\./);
    // not shown as a settled difference when the board ties the pair
    expect(tied.significant).toBe(false);
    expect(tied.family).toMatchObject({ separated: false, bandA: 'rank 1–2', bandB: 'rank 1–2', adjustedPLabel: 'p = 0.12' });
    const apart = compareView(clear, new Map(), { kind: 'board', tag: 't' }, { a: 'm:a', b: 'm:b' }, form, onBoard(true)).result!;
    expect(apart.verdict).toMatch(/separates them too \(adjusted p = 0\.02\): a rank 1, b rank 2\./);
    expect(apart.significant).toBe(true);
  });

  it('compares on the prompts both share, lists the ones that differ most with both cells, never a sealed one', () => {
    const v = compareView(board, new Map(), { kind: 'board', tag: 't' }, { a: 'm:a', b: 'm:b' }, form);
    const r = v.result!;
    expect(r.n).toBe(5);
    expect(r.blueprintsLabel).toBe('1 blueprint');
    // d = 0.5, 0.5, 0, 0.5, 0 → mean 0.3
    expect(r.diffLabel).toBe('+30.0');
    expect(r).toMatchObject({ wins: 3, losses: 0, ties: 2, sealedCount: 1 });
    expect(r.differing.map((d) => d.promptKey)).toEqual(['q0', 'q1', 'q3']);
    expect(r.differing[0]).toMatchObject({ hrefA: '/runs/run-x/prompts/q0?model=m%3Aa#cell', hrefB: '/runs/run-x/prompts/q0?model=m%3Ab#cell', promptHref: '/runs/run-x/prompts/q0' });
    expect(r.intervalLabel).toMatch(/^[+−±]\d+\.\d to [+−±]\d+\.\d$/);
  });

  it('over the whole board weights each shared blueprint equally', () => {
    const r = compareView(board, new Map(), { kind: 'board', tag: null }, { a: 'm:a', b: 'm:b' }, form).result!;
    expect(r.n).toBe(7);
    expect(r.diffLabel).toBe('+15.0'); // (0.3 + 0) / 2
  });

  it('says why there is no result', () => {
    expect(compareView(board, new Map(), { kind: 'board', tag: null }, {}, form).message).toMatch(/Pick two models/);
    expect(compareView(board, new Map(), { kind: 'board', tag: null }, { a: 'm:a', b: 'm:a' }, form).message).toBe('Pick two different models.');
    expect(compareView(board, new Map(), { kind: 'board', tag: null }, { a: 'm:zzz', b: 'm:a' }, form).message).toMatch(/No score here for m:zzz/);
    expect(compareView(board, new Map(), { kind: 'blueprint', blueprintId: 'y' }, {}, form).choices.map((c) => c.modelId)).toEqual(['m:a', 'm:b']);
  });

  it('formats p-values and links', () => {
    expect([formatP(0.0004), formatP(0.0042), formatP(0.0456), formatP(null)]).toEqual(['p < 0.001', 'p = 0.004', 'p = 0.05', '—']);
    expect(compareHref('a:x/y', 'b', 'tag one')).toBe('/compare?a=a%3Ax%2Fy&b=b&tag=tag+one');
  });
});
