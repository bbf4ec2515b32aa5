import { describe, expect, it } from 'vitest';
import { addAlphaStats, EMPTY_ALPHA_STATS, krippendorffAlpha, unitAlphaStats, type JudgeAlpha } from '@/lib/core';
import type { PooledModelReliability } from '@/lib/server/db/queries/judge-reliability';
import type { LeaderboardRow } from '@/lib/server/db/queries/leaderboard';
import { intervalBar, leaderboardView, tagChips } from './leaderboard-view';

const row = (blueprintId: string, modelId: string, score: number | null, ci: [number, number] | null, tags: string[] = [], errorCount = 0): LeaderboardRow => ({
  blueprintId,
  blueprintTitle: blueprintId.toUpperCase(),
  tags,
  modelId,
  runId: `run-${blueprintId}`,
  judgedVerdicts: 4,
  judgedScored: 4,
  deterministicVerdicts: 2,
  deterministicScored: 2,
  score,
  ciLow: ci?.[0] ?? null,
  ciHigh: ci?.[1] ?? null,
  errorCount,
});

describe('the board as the page shows it', () => {
  it('orders by score, then lower bound, then id; unscored apart', () => {
    const rows = [
      row('a', 'zeta', 0.7, [0.6, 0.8]),
      row('a', 'alpha', 0.7, [0.65, 0.75]),
      row('a', 'none', null, null),
      row('a', 'best', 0.9, [0.85, 0.95]),
      row('a', 'beta', 0.7, [0.65, 0.75]),
    ];
    const v = leaderboardView(rows, new Map(), null);
    expect(v.entries.map((e) => e.modelId)).toEqual(['best', 'alpha', 'beta', 'zeta']);
    expect(v.entries.map((e) => e.rank)).toEqual([1, 2, 2, 2]);
    // no score on any blueprint: listed apart, unranked
    expect(v.unranked.map((e) => [e.modelId, e.rank, e.scoreLabel])).toEqual([['none', null, '—']]);
    expect(v.entries[0]).toMatchObject({ scoreLabel: '90.0', intervalLabel: '85.0–95.0', href: '/models/best' });
  });

  it('draws the interval bar in percent of the track', () => {
    expect(intervalBar(0.5, 0.4, 0.62)).toEqual({ point: 50, low: 40, high: 62 });
    expect(intervalBar(0.5, null, null)).toEqual({ point: 50, low: 50, high: 50 });
    expect(intervalBar(null, null, null)).toBeNull();
  });
});

describe('boards per tag', () => {
  const rows = [
    row('a', 'm1', 0.9, null, ['health', 'facts']),
    row('b', 'm1', 0.5, null, ['coding']),
    row('a', 'm2', 0.6, null, ['health', 'facts']),
    row('c', 'm2', 0.8, null, ['facts']),
  ];

  it('lists tags with most blueprints first, marking the current one', () => {
    expect(tagChips(rows, 'health').map((t) => [t.label, t.active, t.href])).toEqual([
      ['facts (2)', false, '/?tag=facts'],
      ['coding (1)', false, '/?tag=coding'],
      ['health (1)', true, '/?tag=health'],
    ]);
  });

  it('ranks only the blueprints of the tag', () => {
    const facts = leaderboardView(rows, new Map([['m1', 'Model One']]), 'facts');
    expect(facts.title).toBe('Leaderboard: facts');
    expect(facts.blueprintCount).toBe(2);
    expect(facts.entries.map((e) => [e.label, e.scoreLabel, e.blueprintsLabel])).toEqual([
      ['Model One', '90.0', '1 of 2'],
      ['m2', '70.0', '2 of 2'],
    ]);
    const overall = leaderboardView(rows, new Map(), null);
    // a tie on score and interval falls back to the id, so the order is stable
    expect(overall.entries.map((e) => [e.modelId, e.scoreLabel, e.rank])).toEqual([
      ['m1', '70.0', 1],
      ['m2', '70.0', 1],
    ]);
  });
});

describe('blueprint coverage', () => {
  const rows = [
    row('a', 'wide', 0.6, null),
    row('b', 'wide', 0.6, null),
    row('c', 'wide', 0.6, null),
    row('d', 'wide', 0.6, null),
    row('a', 'half', 0.7, null),
    row('b', 'half', 0.7, null),
    row('a', 'narrow', 0.99, null),
  ];

  it('ranks only models scored on the minimum share of the board’s blueprints, listing the others apart with why', () => {
    const v = leaderboardView(rows, new Map(), null, { minCoverage: 0.5 });
    expect(v.requiredBlueprints).toBe(2);
    expect(v.entries.map((e) => [e.modelId, e.rank, e.blueprintsLabel])).toEqual([
      ['half', 1, '2 of 4'],
      ['wide', 2, '4 of 4'],
    ]);
    expect(v.unranked.map((e) => [e.modelId, e.rank, e.why])).toEqual([['narrow', null, 'scored on 1 of 4 blueprints; ranking needs 2']]);
    expect(v.caption).toMatch(/at least 2 blueprints of 4 \(50%\)/);
    expect(leaderboardView(rows, new Map(), null, { minCoverage: 1 }).entries.map((e) => e.modelId)).toEqual(['wide']);
    expect(leaderboardView(rows, new Map(), null, { minCoverage: 0 }).entries.map((e) => e.modelId)).toEqual(['narrow', 'half', 'wide']);
  });

  it('states the verdict coverage behind each score', () => {
    const partial = { ...row('a', 'm', 0.5, null), judgedVerdicts: 8, judgedScored: 6, deterministicVerdicts: 0, deterministicScored: 0 };
    expect(leaderboardView([partial], new Map(), null).entries[0]!.verdictCoverageLabel).toBe('judged 75%');
    expect(leaderboardView(rows, new Map(), null).entries[0]!.verdictCoverageLabel).toBe('judged 100% · deterministic 100%');
  });
});

describe('bands, cost and latency, and the comparison with the leader', () => {
  const scores = (modelId: string, base: number, n = 30) =>
    Array.from({ length: n }, (_v, i) => ({ blueprintId: 'a', modelId, runId: 'run-a', promptKey: `q${i}`, weight: 1, sealed: false, score: Math.min(1, Math.max(0, base + ((i % 5) - 2) * 0.1)) }));
  const rows = [
    { ...row('a', 'top', 0.9, null, ['t']), costUsd: 0.3, promptCount: 30, latencyMsP50: 1250 },
    { ...row('a', 'twin', 0.9, null, ['t']), costUsd: 0, promptCount: 30, latencyMsP50: 480 },
    { ...row('a', 'low', 0.3, null, ['t']), costUsd: null, promptCount: null, latencyMsP50: null },
  ];
  const prompts = [...scores('top', 0.9), ...scores('twin', 0.9).map((p, i) => ({ ...p, score: p.score - (i % 2 ? 0.01 : -0.01) })), ...scores('low', 0.3)];

  it('labels each ranked row with its band, cost per prompt and latency, and links all but the leader to a comparison with it', () => {
    const v = leaderboardView(rows, new Map(), 't', { prompts });
    expect(v.entries.map((e) => [e.modelId, e.bandLabel, e.tied, e.costLabel, e.latencyLabel])).toEqual([
      ['top', 'rank 1–2', true, '$0.01', '1.3 s'],
      ['twin', 'rank 1–2', true, '$0', '480 ms'],
      ['low', 'rank 3', false, '—', '—'],
    ]);
    expect(v.entries.map((e) => e.compareWithLeaderHref)).toEqual([null, '/compare?a=top&b=twin&tag=t', '/compare?a=top&b=low&tag=t']);
    expect(v.bandsCaption).toMatch(/Holm-corrected/);
    expect(v.caption).toMatch(/blueprint-to-blueprint/);
    // without prompt scores: no bands, no claim about blueprint variance
    const plain = leaderboardView(rows, new Map(), 't');
    expect(plain.entries.every((e) => e.bandLabel === null)).toBe(true);
    expect(plain.bandsCaption).toBeNull();
    expect(plain.caption).not.toMatch(/blueprint-to-blueprint/);
  });

  it('says beneath each interval what it rests on: blueprints and prompts, and the method', () => {
    // over two blueprints: the bootstrap over blueprints, then their prompts
    const second = rows.map((r) => ({ ...r, blueprintId: 'b' }));
    const secondPrompts = prompts.map((p) => ({ ...p, blueprintId: 'b', runId: 'run-b' }));
    const two = leaderboardView([...rows, ...second], new Map(), 't', { prompts: [...prompts, ...secondPrompts] });
    expect(two.entries.map((e) => e.intervalNote?.basis)).toEqual([
      '2 blueprints, 60 prompts · hierarchical bootstrap',
      '2 blueprints, 60 prompts · hierarchical bootstrap',
      '2 blueprints, 60 prompts · hierarchical bootstrap',
    ]);
    expect(two.entries[0]?.intervalNote?.method).toBe('hierarchical-bootstrap');
    // over one blueprint: that blueprint's own interval, the figure its page shows
    const one = leaderboardView([{ ...rows[0]!, ciLow: 0.85, ciHigh: 0.95 }], new Map(), 't', { prompts });
    expect(one.entries.map((e) => [e.intervalLabel, e.intervalNote?.basis])).toEqual([['85.0–95.0', '1 blueprint, 30 prompts · its one blueprint’s interval']]);
    // over a handful of prompts the note says first that the interval is rough, as the CLI warns
    const few = leaderboardView([{ ...rows[0]!, ciLow: 0.85, ciHigh: 0.95, promptCount: 3 }], new Map(), 't');
    expect(few.entries[0]?.intervalNote).toMatchObject({ rough: true, basis: 'rough: only 3 prompts (under 5) · 1 blueprint, 3 prompts · its one blueprint’s interval' });
    // rows without prompt scores and without intervals of their own: no interval, so no note
    expect(leaderboardView(rows, new Map(), 't').entries.map((e) => e.intervalNote)).toEqual([null, null, null]);
  });
});

describe('the judges’ α beside each model', () => {
  const J1 = { id: 'openai:gpt-4.1-mini#standard', model: 'openai:gpt-4.1-mini', approach: 'standard' };
  const J2 = { id: 'openrouter:qwen/qwen-2.5-72b-instruct#prompt-aware', model: 'openrouter:qwen/qwen-2.5-72b-instruct', approach: 'prompt-aware' };
  // two judges on five times the verdicts (0, ½), (1, 1), (0, 0), (1, ½): the pooled example of judge-reliability.test.ts, 20 units, α = 0.675
  const stats = Array.from({ length: 5 }, () => [[0, 0.5], [1, 1], [0, 0], [1, 0.5]]).flat().map(unitAlphaStats).reduce(addAlphaStats, EMPTY_ALPHA_STATS);
  const enough = (value: number): JudgeAlpha => ({ kind: 'alpha', value, units: 20, values: 40, pairs: 20 });
  const pooled = (modelId: string, over: Partial<PooledModelReliability> = {}): PooledModelReliability => ({
    modelId,
    verdicts: 20,
    pairable: 20,
    disagreements: 10,
    alpha: krippendorffAlpha(stats),
    stats,
    judges: [
      { ...J1, assessments: 20 },
      { ...J2, assessments: 20 },
    ],
    ...over,
  });
  const four = [[0, 0.5], [1, 1], [0, 0], [1, 0.5]].map(unitAlphaStats).reduce(addAlphaStats, EMPTY_ALPHA_STATS);
  const rows = [row('a', 'openai:gpt-4o-mini', 0.9, null), row('a', 'anthropic:claude-3-5-sonnet', 0.8, null), row('a', 'x:lone', 0.7, null), row('a', 'x:exact', 0.6, null), row('a', 'x:few', 0.55, null), row('a', 'x:unjudged', 0.5, null)];
  const judges = [
    pooled('openai:gpt-4o-mini'),
    pooled('anthropic:claude-3-5-sonnet', { disagreements: 0, alpha: enough(0.93) }),
    // one judge only: judged, but no α
    pooled('x:lone', { pairable: 0, disagreements: 0, alpha: krippendorffAlpha(EMPTY_ALPHA_STATS), stats: EMPTY_ALPHA_STATS, judges: [{ ...J1, assessments: 4 }] }),
    pooled('x:exact', { disagreements: 0, alpha: enough(0.5) }),
    // two judges on four verdicts: too few to tell
    pooled('x:few', { verdicts: 4, pairable: 4, disagreements: 2, alpha: krippendorffAlpha(four), stats: four }),
  ];
  const v = leaderboardView(rows, new Map([['anthropic:claude-3-5-sonnet', 'Claude 3.5 Sonnet']]), null, { judges });
  const cell = (modelId: string) => v.entries.find((e) => e.modelId === modelId)!.judges;

  it('puts the pooled α with its units and pairs, its reading and the disagreement share in each model’s row, coverage in its title', () => {
    expect(krippendorffAlpha(stats)).toMatchObject({ kind: 'alpha', units: 20 });
    expect(cell('openai:gpt-4o-mini')).toEqual({
      alphaLabel: 'α 0.68',
      alphaAttrs: { 'data-figure': 'alpha|board=all|model=openai:gpt-4o-mini', 'data-value': '0.68', 'data-units': '20' },
      basisLabel: 'over 20 units · 20 pairs',
      reading: 'tentative',
      readingLabel: 'tentative',
      disagreementLabel: '50% disagreement',
      coverageTitle: '20 judged verdicts, 20 with ≥ 2 judges · gpt-4.1-mini 20 · qwen-2.5-72b-instruct (prompt-aware) 20 assessments',
      selfJudging: 'Self-judging: gpt-4.1-mini judges gpt-4o-mini, a model of the same maker.',
      methodologyHref: '/methodology#alpha',
    });
    expect(cell('anthropic:claude-3-5-sonnet')).toMatchObject({ alphaLabel: 'α 0.93', reading: 'reliable', readingLabel: 'reliable', disagreementLabel: '0% disagreement', selfJudging: null });
    expect(cell('x:exact')).toMatchObject({ alphaLabel: 'α 0.50', reading: 'unreliable', readingLabel: 'not reliable' });
    expect(v.caption).toMatch(/Judges α: .*pooled Krippendorff’s α/);
  });

  it('below the minimum of verdicts says “too few verdicts to tell”, neutral and with no α figure; one judge says so', () => {
    expect(cell('x:few')).toMatchObject({ alphaLabel: 'too few verdicts to tell (4 units)', alphaAttrs: null, basisLabel: null, reading: null, readingLabel: '', disagreementLabel: '50% disagreement' });
    expect(cell('x:lone')).toMatchObject({ alphaLabel: 'too few verdicts to tell (0 units)', alphaAttrs: null, reading: null, readingLabel: 'one judge', disagreementLabel: null });
  });

  it('gives nothing (shown "—", never 0 or 1) to a model without judged verdicts', () => {
    expect(cell('x:unjudged')).toBeNull();
    // a pooled row with no judged verdict at all counts as nothing judged, too
    expect(leaderboardView(rows, new Map(), null, { judges: [pooled('x:unjudged', { verdicts: 0, pairable: 0, disagreements: 0, alpha: krippendorffAlpha(EMPTY_ALPHA_STATS), stats: EMPTY_ALPHA_STATS, judges: [] })] }).entries.every((e) => e.judges === null)).toBe(true);
  });

  it('names a tag’s board in the α figure', () => {
    const tagged = leaderboardView([row('a', 'openai:gpt-4o-mini', 0.9, null, ['safety'])], new Map(), 'safety', { judges: [pooled('openai:gpt-4o-mini')] });
    expect(tagged.entries[0]!.judges?.alphaAttrs?.['data-figure']).toBe('alpha|board=tag:safety|model=openai:gpt-4o-mini');
  });

  it('flags a judge of the model’s own model, the same-model sentence first', () => {
    const self = leaderboardView([row('a', 'openai:gpt-4.1-mini', 0.9, null)], new Map(), null, { judges: [pooled('openai:gpt-4.1-mini')] }).entries[0]!.judges;
    expect(self?.selfJudging).toBe('Self-judging: gpt-4.1-mini judges gpt-4.1-mini, the same model.');
  });

  it('gives models listed apart their α too', () => {
    const board = leaderboardView([...rows, row('b', 'openai:gpt-4o-mini', 0.9, null)], new Map(), null, { judges, minCoverage: 1 });
    expect(board.unranked.map((e) => [e.modelId, e.judges?.alphaLabel ?? '—'])).toEqual([
      ['anthropic:claude-3-5-sonnet', 'α 0.93'],
      ['x:lone', 'too few verdicts to tell (0 units)'],
      ['x:exact', 'α 0.50'],
      ['x:few', 'too few verdicts to tell (4 units)'],
      ['x:unjudged', '—'],
    ]);
  });
});
