import { describe, expect, it } from 'vitest';
import { DEFAULT_MIN_BLUEPRINT_COVERAGE } from '@/lib/core';
import type { LeaderboardRow } from '@/lib/server/db/queries/leaderboard';
import type { ModelProfile } from '@/lib/server/db/queries/model-profile';
import { boardKeyName, makeBoard, type BoardKey } from '@/lib/server/db/commands/board-snapshots';
import type { BoardPromptCell } from '@/lib/server/db/queries/leaderboard';
import { leaderboardView } from './leaderboard-view';
import { modelPageView } from './model-view';

/** The boards the model page reads, made as they are stored: overall, each tag, each blueprint. */
function boardsOf(p: ModelProfile, opts: { minCoverage?: number; prompts?: BoardPromptCell[] } = {}) {
  const keys: BoardKey[] = [
    { kind: 'all' },
    ...[...new Set(p.scores.flatMap((r) => r.tags))].map((tag) => ({ kind: 'tag', tag }) as const),
    ...[...new Set(p.scores.map((r) => r.blueprintId))].map((blueprintId) => ({ kind: 'blueprint', blueprintId }) as const),
  ];
  return new Map(keys.map((k) => [boardKeyName(k), makeBoard(k, p.scores, opts.prompts ?? [], opts.minCoverage ?? DEFAULT_MIN_BLUEPRINT_COVERAGE)]));
}
const view = (p: ModelProfile, opts: Parameters<typeof boardsOf>[1] = {}) => modelPageView(p, { boards: boardsOf(p, opts) });

const row = (blueprintId: string, modelId: string, score: number, tags: string[]): LeaderboardRow => ({
  blueprintId,
  blueprintTitle: `Blueprint ${blueprintId}`,
  tags,
  modelId,
  runId: `run-${blueprintId}`,
  judgedVerdicts: 4,
  judgedScored: 4,
  deterministicVerdicts: 2,
  deterministicScored: 2,
  score,
  ciLow: null,
  ciHigh: null,
  errorCount: 0,
});

const scores = [
  // everyone aces "easy": 0.95 there is no strength; "hard" at 0.5 beats a field of 0.3
  row('easy', 'me', 0.95, ['facts']),
  row('easy', 'other', 0.97, ['facts']),
  row('hard', 'me', 0.5, ['safety']),
  row('hard', 'other', 0.1, ['safety']),
  row('mid', 'me', 0.6, ['coding']),
  row('mid', 'other', 0.8, ['coding']),
];

const profile = (history: ModelProfile['history'] = []): ModelProfile => ({
  modelId: 'x:me',
  model: { id: 'x:me', provider: 'x', displayName: 'Me' },
  scores: scores.map((s) => ({ ...s, modelId: s.modelId === 'me' ? 'x:me' : s.modelId })),
  history,
  retrievalRuns: [],
});

describe('model page view', () => {
  it('finds strengths and weaknesses relative to the field, not in absolute terms', () => {
    const v = view(profile());
    expect(v.strongest.map((a) => [a.name, a.deltaLabel])).toEqual([['safety', '+20.0']]);
    expect(v.weakest.map((a) => [a.name, a.deltaLabel])).toEqual([
      ['coding', '−10.0'],
      ['facts', '−1.0'],
    ]);
    // no prompt scores behind the rows: nothing separates the two models, so they share a band
    expect(v.overall).toMatchObject({ scoreLabel: '68.3', rankLabel: 'rank 1–2 of 2', blueprintsLabel: '3 blueprints' });
    expect(v.blueprints.find((b) => b.name === 'Blueprint hard')).toMatchObject({ rankLabel: 'rank 1–2 of 2', fieldLabel: '30.0', href: '/blueprints/hard' });
  });

  it('shows each tag’s score, interval and place as the tag’s leaderboard does: the same figures, the same values', () => {
    // two blueprints under one tag, prompt scores behind them: the board has bands
    const prompts = ['easy', 'hard'].flatMap((b) =>
      ['x:me', 'other', 'third'].flatMap((m, k) =>
        Array.from({ length: 12 }, (_x, i) => ({ blueprintId: b, modelId: m, runId: `run-${b}`, promptKey: `${b}-${i}`, weight: 1, sealed: false, score: Math.min(1, 0.5 + (i % 3) * 0.1 - k * 0.02) })),
      ),
    );
    const rows = ['easy', 'hard'].flatMap((b) =>
      ['x:me', 'other', 'third'].map((m, k) => ({ ...row(b, m, 0.6 - k * 0.02, ['both']), ciLow: 0.5 - k * 0.02, ciHigh: 0.7 - k * 0.02 })),
    );
    const p: ModelProfile = { modelId: 'x:me', model: null, scores: rows, history: [], retrievalRuns: [] };
    const mine = view(p, { minCoverage: 0.5, prompts });
    const board = leaderboardView(rows, new Map(), 'both', { minCoverage: 0.5, prompts });
    const onBoard = board.entries.find((e) => e.modelId === 'x:me')!;
    const tag = mine.tags.find((t) => t.name === 'both')!;
    for (const k of ['score', 'interval'] as const) expect(tag.figures[k]).toEqual(onBoard.figures[k]);
    expect(tag.figures.rank).toEqual(onBoard.figures.band);
    expect(tag.rankLabel).toBe(`${onBoard.bandLabel} of 3`);
    // a blueprint area shows that blueprint's stored run figures (the run page's identities)
    const easy = mine.blueprints.find((b) => b.name === 'Blueprint easy')!;
    expect(easy.figures.interval).toEqual({ 'data-figure': 'interval|run=run-easy|model=x:me', 'data-value': '50.0–70.0' });
  });

  it('draws history as one line per blueprint, oldest first, and lists every run', () => {
    const h = (runId: string, blueprint: string, date: string, score: number) => ({
      runId,
      score,
      ciLow: null,
      ciHigh: null,
      errorCount: 0,
      run: { createdAt: new Date(date), blueprint: { id: blueprint, title: blueprint.toUpperCase() } },
    });
    const v = view(profile([h('r3', 'b', '2026-11-20T00:00:00Z', 0.7), h('r2', 'a', '2026-11-10T00:00:00Z', 0.6), h('r1', 'a', '2026-11-01T00:00:00Z', 0.5)]));
    expect(v.history?.series.map((s) => s.label)).toEqual(['A', 'B']);
    expect(v.history?.rows).toEqual([
      { x: '2026-11-01', s0: 50, s1: null },
      { x: '2026-11-10', s0: 60, s1: null },
      { x: '2026-11-20', s0: null, s1: 70 },
    ]);
    expect(v.historyTable.map((r) => r.runHref)).toEqual(['/runs/r3/models/x%3Ame', '/runs/r2/models/x%3Ame', '/runs/r1/models/x%3Ame']);
    expect(view(profile()).history).toBeNull();
  });
});

describe('model page intervals with the prompt scores', () => {
  it('are the leaderboard’s: the same hierarchical bootstrap for the same rows', async () => {
    const { leaderboardView } = await import('./leaderboard-view');
    const base = profile();
    const prompts = base.scores.flatMap((r) =>
      Array.from({ length: 12 }, (_v, i) => ({ blueprintId: r.blueprintId, modelId: r.modelId, runId: r.runId, promptKey: `q${i}`, weight: 1, sealed: false, score: Math.min(1, Math.max(0, (r.score as number) + ((i % 3) - 1) * 0.05)) })),
    );
    const withPrompts = view(base, { prompts });
    const board = leaderboardView(base.scores, new Map(), null, { prompts, minCoverage: 0 });
    expect(withPrompts.overall.intervalLabel).toBe(board.entries.find((e) => e.modelId === 'x:me')!.intervalLabel);
    expect(withPrompts.overall.intervalLabel).not.toBeNull();
    expect(view(base).overall.intervalLabel).toBeNull();
  });
});
