import { describe, expect, it } from 'vitest';
import { judgeReliability, type JudgedVerdict } from '@/lib/core';
import type { DriftCheckRow } from '@/lib/server/db/queries/drift';
import { diffPageView, formatP } from './diff-view';
import { driftCheckView } from './drift-view';

describe('run diff view', () => {
  const older = { id: 'r1', createdAt: new Date('2026-11-01T10:00:00Z') };
  const newer = { id: 'r2', createdAt: new Date('2026-11-08T10:00:00Z') };
  const v = diffPageView(
    older,
    newer,
    {
      models: [
        { modelId: 'x:b', paired: 20, olderScore: 0.5, newerScore: 0.6, difference: 0.1, fromDriftCheck: true, better: 15, worse: 1, same: 4 },
        { modelId: 'x:a', paired: 20, olderScore: 0.7, newerScore: 0.69, difference: -0.01, fromDriftCheck: false, better: 9, worse: 11, same: 0 },
      ],
      cells: [{ promptKey: 'p1', modelId: 'x:b', scoreA: 0.1, scoreB: 0.9, delta: 0.8 }],
      unchangedCells: 58,
      modelsOnlyInA: 0,
      modelsOnlyInB: 1,
    },
    [
      { modelId: 'x:a', displayName: 'A', score: 0.7, ciLow: null, ciHigh: null, promptCount: 20, replyCount: 20, verdictCount: 80, errorCount: 0, costUsd: 0, latencyMsP50: null },
      { modelId: 'x:b', displayName: 'B', score: 0.6, ciLow: null, ciHigh: null, promptCount: 20, replyCount: 20, verdictCount: 80, errorCount: 0, costUsd: 0, latencyMsP50: null },
    ],
  );

  it('orders models as the newer run ranks them and says whether a change is more than noise', () => {
    expect(v.models.map((m) => [m.label, m.deltaLabel, m.tone, m.significant])).toEqual([
      ['A', '−1.0', 'worse', false],
      ['B', '+10.0', 'better', true],
    ]);
    expect(v.models[1]?.pLabel).toBe('p < 0.001');
    expect(v.models[1]?.counts).toBe('15 better, 1 worse, 4 same');
  });

  it('links each moved cell in both runs and notes models present in one run only', () => {
    expect(v.cells[0]).toMatchObject({ deltaLabel: '+80.0', olderHref: '/runs/r1/prompts/p1?model=x%3Ab#cell', newerHref: '/runs/r2/prompts/p1?model=x%3Ab#cell' });
    expect(v.notes.join(' ')).toMatch(/1 model ran only in the newer run/);
  });

  it('counts the unchanged cells instead of listing them as moves of ±0.0', () => {
    expect(v.cells.map((c) => c.deltaLabel)).toEqual(['+80.0']);
    expect(v.unchanged).toBe('58 prompts unchanged: prompt × model cells that scored the same in both runs are not listed.');
    expect(diffPageView(older, newer, { models: [], cells: [], unchangedCells: 0, modelsOnlyInA: 0, modelsOnlyInB: 0 }, []).unchanged).toBeNull();
  });

  it('shows each run’s score as its run page does, and the change as the drift check does, each named as a figure', () => {
    const b = v.models[1]!;
    expect([b.olderLabel, b.olderFigure, b.newerLabel, b.newerFigure]).toEqual([
      '50.0',
      { 'data-figure': 'score|run=r1|model=x:b', 'data-value': '50.0' },
      '60.0',
      { 'data-figure': 'score|run=r2|model=x:b', 'data-value': '60.0' },
    ]);
    expect(b.figure).toEqual({ 'data-figure': 'difference|from=r1|to=r2|model=x:b', 'data-value': '+10.0' });
    expect(b.changeBasis).toBe('over the 20 prompts both runs scored (the drift check’s figure)');
    expect(v.models[0]?.changeBasis).toBe('over the 20 prompts both runs scored');
    expect(v.notes[0]).toMatch(/^Older and Newer are each run’s score for the model, as its run page shows it/);
  });

  it('gives the change the identity and value of the drift check of the same two runs', () => {
    const check: DriftCheckRow = {
      id: 'c1',
      blueprintId: 'bp',
      blueprintTitle: 'BP',
      modelId: 'x:b',
      fromRunId: 'r1',
      fromRunAt: older.createdAt,
      toRunId: 'r2',
      toRunAt: newer.createdAt,
      paired: 20,
      difference: -0.28765,
      ciLow: -0.4,
      ciHigh: -0.2,
      mde: 0.309,
      flagged: true,
      reason: 'r',
      servedModelBefore: null,
      servedModelAfter: null,
      fingerprintBefore: null,
      fingerprintAfter: null,
      servedChanged: false,
      moved: [],
      createdAt: newer.createdAt,
    };
    const diff = diffPageView(older, newer, { models: [{ modelId: 'x:b', paired: 20, olderScore: 0.62, newerScore: 0.241, difference: check.difference, fromDriftCheck: true, better: 1, worse: 12, same: 7 }], cells: [], unchangedCells: 0, modelsOnlyInA: 0, modelsOnlyInB: 0 }, []);
    expect(diff.models[0]?.figure).toEqual(driftCheckView(check, new Map()).figure);
    expect(diff.models[0]?.figure?.['data-value']).toBe('−28.8');
  });

  it('shows no score figure for a model whose score is withheld, and no change without paired prompts', () => {
    const w = diffPageView(older, newer, { models: [{ modelId: 'x:b', paired: 0, olderScore: null, newerScore: 0.4, difference: null, fromDriftCheck: false, better: 0, worse: 0, same: 0 }], cells: [], unchangedCells: 0, modelsOnlyInA: 0, modelsOnlyInB: 0 }, []);
    expect(w.models[0]).toMatchObject({ olderLabel: '—', olderFigure: null, deltaLabel: '—', figure: null, changeBasis: 'no prompt scored in both runs' });
  });

  it('gives each run’s pooled judge α when the page has it', () => {
    expect(v.judges).toBeNull();
    const verdict = (a: number, b: number, disagreement = false): JudgedVerdict => ({
      modelId: 'x:b',
      disagreement,
      judges: [
        { judge: 'j:one', approach: null, score: a },
        { judge: 'k:two', approach: null, score: b },
      ],
    });
    // the older run: the pooled example of judge-reliability.test.ts (20 units, α = 0.675); the newer: two verdicts, too few to tell
    const withJudges = diffPageView(older, newer, { models: [], cells: [], unchangedCells: 0, modelsOnlyInA: 0, modelsOnlyInB: 0 }, [{ modelId: 'x:b', displayName: 'B', score: null, ciLow: null, ciHigh: null, promptCount: 0, replyCount: 0, verdictCount: 0, errorCount: 0, costUsd: 0, latencyMsP50: null }], {
      older: judgeReliability(Array.from({ length: 5 }, () => [verdict(0, 0.5, true), verdict(1, 1), verdict(0, 0), verdict(1, 0.5, true)]).flat()),
      newer: judgeReliability([verdict(1, 1), verdict(0, 0)]),
    });
    expect(withJudges.judges?.older).toMatchObject({ judged: true, alphaLabel: 'α 0.68', reading: 'tentative', disagreementLabel: '50% flagged as disagreement (10 of 20)' });
    expect(withJudges.judges?.older.alphaAttrs).toEqual({ 'data-figure': `alpha|run=${older.id}`, 'data-value': '0.68', 'data-units': '20' });
    expect(withJudges.judges?.newer).toMatchObject({ judged: true, alphaLabel: 'too few verdicts to tell (2 units)', alphaAttrs: null, reading: null, coverageLabel: '2 judged verdicts, 2 with ≥ 2 judges' });
  });

  it('formats p-values readably', () => {
    expect(formatP(null)).toBe('—');
    expect(formatP(0.0004)).toBe('p < 0.001');
    expect(formatP(0.0042)).toBe('p = 0.004');
    expect(formatP(0.5)).toBe('p = 0.50');
  });
});
