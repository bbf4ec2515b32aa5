import { describe, expect, it } from 'vitest';
import type { PromptReply, RunPrompt } from '@/lib/server/db/queries/run-prompt';
import type { RunModelRow } from '@/lib/server/db/queries/run-ranking';
import { parseBlueprint, storedPoint, StoredPointsSchema } from '@/lib/core';
import { PROMPT_GRID_MAX_CELLS, promptGridModels } from './params';
import { COMPARE_PAGE_SIZE, conversation, promptPageView, replyCards, replyTurns, toolUseLines } from './prompt-view';

function storedPoints(yaml: string) {
  const r = parseBlueprint(yaml, { file: 'test.yml' });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return StoredPointsSchema.parse(JSON.parse(JSON.stringify(r.blueprint.prompts[0]!.points.map(storedPoint))));
}

const models = ['a:one', 'b:two', 'c:three', 'd:four', 'e:five', 'f:six'];
const ranking: RunModelRow[] = models.map((modelId, i) => ({ modelId, displayName: null, score: 0.9 - i / 10, ciLow: null, ciHigh: null, promptCount: 1, replyCount: 1, verdictCount: 2, errorCount: 0, costUsd: 0, latencyMsP50: null }));

const data: RunPrompt = {
  prompt: {
    promptKey: 'p1',
    position: 3,
    messages: [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: null },
    ],
    system: null,
    ideal: 'Hello',
    weight: 2,
    citation: null,
    category: 'greeting',
    points: storedPoints(`
title: t
---
- id: p1
  prompt: Hi
  should:
    - "Greets back"
    - $contains: hello
      weight: 2
      gate: true
`),
    pointCount: 2,
    repeats: 1,
    split: 'dev',
  },
  cells: models.map((modelId) => ({ modelId, score: 0.5, attempts: 1, errorCount: 0 })),
  grid: [
    { modelId: 'a:one', pointIndex: 0, status: 'pass', score: 1, disagreement: false, gate: false },
    { modelId: 'a:one', pointIndex: 1, status: 'error', score: null, disagreement: false, gate: true },
  ],
  gateFailures: [{ modelId: 'b:two', pointIndexes: [1], failed: 1, attempts: 1 }],
  previousKey: 'p0',
  nextKey: null,
  tools: {},
};

describe('prompt page view', () => {
  it('marks the turns the model generates, in the blueprint and in each reply', () => {
    expect(conversation(data.prompt.messages)).toEqual([
      { roleLabel: 'User', content: 'Hi', generated: false },
      { roleLabel: 'Assistant', content: null, generated: true },
    ]);
    const blueprint = [
      { role: 'user' as const, content: 'My order #1 is broken.' },
      { role: 'assistant' as const, content: null },
      { role: 'user' as const, content: 'Which order?' },
    ];
    const sent = [{ role: 'system' as const, content: 'Be kind.' }, { ...blueprint[0]! }, { role: 'assistant' as const, content: 'Sorry!' }, { ...blueprint[2]! }, { role: 'assistant' as const, content: 'Order #1.' }];
    expect(replyTurns(blueprint, sent)).toEqual({
      system: ['Be kind.'],
      turns: [
        { roleLabel: 'User', content: 'My order #1 is broken.', generated: false },
        { roleLabel: 'Assistant', content: 'Sorry!', generated: true },
        { roleLabel: 'User', content: 'Which order?', generated: false },
      ],
    });
    // a written assistant turn is not generated: nothing to show beyond the blueprint's conversation
    expect(replyTurns([{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'user', content: 'c' }], [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'user', content: 'c' }, { role: 'assistant', content: 'd' }]).turns).toEqual([]);
  });

  it('lays out points × models, with errors as "err" and links to each verdict', () => {
    const v = promptPageView('r1', data, ranking, { model: null, compare: 1 });
    expect(v.facts).toEqual(['position 4', '2 points', 'weight 2', 'category greeting']);
    expect(v.grid.columns.map((c) => c.modelId)).toEqual(models);
    expect(v.grid.groups.map((g) => g.title)).toEqual(['Gates', 'Required points']);
    const [second, first] = v.grid.groups.flatMap((g) => g.rows);
    expect(first?.cells[0]).toMatchObject({ text: '100', href: '/runs/r1/prompts/p1?model=a%3Aone#point-0', ariaLabel: 'Point 1 × one: Pass, score 100.0' });
    expect(second?.cells[0]).toMatchObject({ text: 'err', ariaLabel: 'Point 2 × one: error' });
    expect(second?.cells[1]?.text).toBe('—');
    expect(second?.point).toMatchObject({ text: '$contains: hello', gate: true, weightLabel: 'weight 2', href: '/runs/r1/prompts/p1/points/1' });
    expect(v.gateNote).toBeNull();
    expect(promptPageView('r1', data, ranking, { model: 'b:two', compare: 1 }).gateNote).toBe('A gate failed for two: point 2 (“$contains: hello”) did not pass, so this reply scores 0 whatever its other points.');
    expect(v.previousHref).toBe('/runs/r1/prompts/p0');
    expect(v.nextHref).toBeNull();
  });

  it("says a prompt's Weval tool-use fields in words, and nothing when it has none", () => {
    expect(promptPageView('r1', data, ranking, { model: null, compare: 1 }).toolUse).toEqual([]);
    const withTools = { ...data, tools: { requiredTools: ['search', 'retrieve'], prohibitedTools: ['calculator'], maxCalls: 1 } };
    expect(promptPageView('r1', withTools, ranking, { model: null, compare: 1 }).toolUse).toEqual(['Required tools: search, retrieve', 'Prohibited tools: calculator', 'At most 1 tool call']);
    expect(toolUseLines({ maxCalls: 0 })).toEqual(['At most 0 tool calls']);
  });

  it('shows a page of models side by side when none is selected', () => {
    const v = promptPageView('r1', data, ranking, { model: null, compare: 2 });
    expect(v.selectedModelId).toBeNull();
    expect(v.compareModelIds).toEqual(models.slice(COMPARE_PAGE_SIZE + 1));
    expect(v.replyModelIds).toEqual(v.compareModelIds);
    expect(v.comparePagination?.pages).toBe(2);
  });

  it('focuses the selected model (the cell) and pages through the others', () => {
    const v = promptPageView('r1', data, ranking, { model: 'c:three', compare: 1 });
    expect(v.selectedModelId).toBe('c:three');
    expect(v.replyModelIds[0]).toBe('c:three');
    expect(v.compareModelIds).toEqual(['a:one', 'b:two', 'd:four']);
    expect(v.grid.columns.find((c) => c.selected)?.modelId).toBe('c:three');
    expect(v.comparePagination?.nextHref).toBe('/runs/r1/prompts/p1?model=c%3Athree&compare=2#replies');
    // an unknown model in the URL is ignored, not an error
    expect(promptPageView('r1', data, ranking, { model: 'nope', compare: 99 })).toMatchObject({ selectedModelId: null, compareModelIds: ['e:five', 'f:six'] });
  });

  it('pages the grid by models when a page would hold too many cells, opening on the focused model’s page', () => {
    const many = Array.from({ length: 200 }, (_, i) => `m:model-${String(i).padStart(3, '0')}`);
    const wide: RunPrompt = { ...data, cells: many.map((modelId) => ({ modelId, score: 0.5, attempts: 1, errorCount: 0 })), grid: [] };
    const wideRanking = many.map((modelId) => ({ ...ranking[0]!, modelId }));
    const perPage = promptGridModels(wide.prompt.points.length);
    // two points and the prompt score: three rows of at most PROMPT_GRID_MAX_CELLS cells in all
    expect(perPage).toBe(Math.floor(PROMPT_GRID_MAX_CELLS / 3));
    const first = promptPageView('r1', wide, wideRanking, { model: null, compare: 1 });
    expect(first.grid.columns.map((c) => c.modelId)).toEqual(many.slice(0, perPage));
    expect(first.grid.totals).toHaveLength(perPage);
    expect(first.grid.groups.flatMap((g) => g.rows).every((r) => r.cells.length === perPage)).toBe(true);
    expect(first.grid.pagination).toMatchObject({ page: 1, pages: Math.ceil(200 / perPage), rangeLabel: `Models 1–${perPage} of 200` });
    expect(first.grid.pagination?.nextHref).toBe('/runs/r1/prompts/p1?grid=2#points-h');
    // the last model focused: its column is on the page shown, the other replies' pages keep the grid's
    const last = promptPageView('r1', wide, wideRanking, { model: many[199]!, compare: 1 });
    expect(last.grid.columns.map((c) => c.modelId)).toContain(many[199]);
    expect(last.grid.columns.find((c) => c.selected)?.modelId).toBe(many[199]);
    expect(last.grid.pagination?.previousHref).toBe(`/runs/r1/prompts/p1?model=m%3Amodel-199&grid=${Math.ceil(200 / perPage) - 1}#points-h`);
    // a page asked for is the page shown, whichever model is focused; past the last, the last
    expect(promptPageView('r1', wide, wideRanking, { model: many[199]!, compare: 1, grid: 1 }).grid.columns[0]?.modelId).toBe(many[0]);
    expect(promptPageView('r1', wide, wideRanking, { model: null, compare: 1, grid: 99 }).grid.pagination?.page).toBe(Math.ceil(200 / perPage));
    // a small run's grid is one page, with no pages to go through
    expect(promptPageView('r1', data, ranking, { model: null, compare: 1 }).grid.pagination).toBeNull();
  });

  it('turns replies into cards, a failed reply into an error and not a score', () => {
    const reply = (over: Partial<PromptReply>): PromptReply => ({
      id: 'x',
      modelId: 'a:one',
      systemIndex: 0,
      temperatureIndex: 0,
      temperature: 0,
      attempt: 0,
      content: 'Hello!',
      turns: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
      ],
      toolCalls: null,
      finishReason: 'stop',
      refusal: null,
      promptTokens: 10,
      completionTokens: 3,
      latencyMs: 1200,
      costUsd: 0.0001,
      error: null,
      errorKind: null,
      fromCache: false,
      attemptScores: [{ score: 0.75, errorCount: 0, gateFailed: false, noApplicable: false }],
      verdicts: [],
      variants: [],
      ...over,
    });
    const cards = replyCards('r1', data.prompt, [reply({}), reply({ modelId: 'c:three', content: '', toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Lisbon' } }] }), reply({ modelId: 'b:two', content: '', error: 'HTTP 503', errorKind: 'server_error', attemptScores: [{ score: null, errorCount: 1, gateFailed: false, noApplicable: false }] })], ['a:one', 'b:two', 'c:three'], ranking, 'a:one');
    expect(cards[0]).toMatchObject({ selected: true, scoreLabel: '75.0', cellHref: '/runs/r1/prompts/p1?model=a%3Aone#cell' });
    expect(cards[0]?.attempts[0]).toMatchObject({ content: 'Hello!', error: null, meta: '10 + 3 tokens · 1 s · cost $0.0001 · finish: stop', temperatureLabel: 'temperature 0', system: [], turns: [] });
    expect(cards[1]).toMatchObject({ scoreLabel: 'error' });
    expect(cards[1]?.attempts[0]).toMatchObject({ content: null, error: { kind: 'server_error', message: 'HTTP 503' }, scoreLabel: 'error' });
    expect(cards[2]?.attempts[0]?.toolCalls).toEqual([{ name: 'get_weather', argumentsText: '{\n  "city": "Lisbon"\n}' }]);
    expect(replyCards('r1', data.prompt, [], ['d:four'], ranking, null)[0]?.attempts).toEqual([]);
    // each reply's cost: unknown when no price was reported, $0 from the cache, a tiny one never $0, none for a failed call
    const meta = (over: Partial<PromptReply>) => replyCards('r1', data.prompt, [reply(over)], ['a:one'], ranking, null)[0]?.attempts[0]?.meta;
    expect(meta({ costUsd: null })).toBe('10 + 3 tokens · 1 s · cost unknown (no price known) · finish: stop');
    expect(meta({ costUsd: 0, fromCache: true, latencyMs: null })).toBe('10 + 3 tokens · cost $0 · finish: stop');
    expect(meta({ costUsd: 0.00002 })).toBe('10 + 3 tokens · 1 s · cost <$0.0001 · finish: stop');
    expect(meta({ costUsd: null, error: 'HTTP 503', finishReason: null })).toBe('10 + 3 tokens · 1 s');
  });

  it('says above the reply that the provider refused it, or that it was cut off at the token limit', () => {
    const base = { id: 'x', modelId: 'a:one', systemIndex: 0, temperatureIndex: 0, temperature: 0, attempt: 0, turns: [], toolCalls: null, promptTokens: null, completionTokens: null, latencyMs: null, costUsd: null, error: null, errorKind: null, fromCache: false, attemptScores: [], verdicts: [], variants: [] };
    const attempt = (r: Pick<PromptReply, 'content' | 'finishReason' | 'refusal'> & Partial<PromptReply>) => replyCards('r1', data.prompt, [{ ...base, ...r }], ['a:one'], ranking, null)[0]?.attempts[0];
    const refused = attempt({ content: "I'm sorry, I can't help with that.", finishReason: 'stop', refusal: 'message.refusal' });
    expect(refused).toMatchObject({ content: "I'm sorry, I can't help with that.", outcome: { kind: 'refused', label: 'Refused' } });
    expect(refused?.outcome?.detail).toContain('message.refusal');
    // every provider's word for "stopped at the output limit"
    for (const finishReason of ['length', 'max_tokens', 'MAX_TOKENS']) {
      expect(attempt({ content: 'The sky is blue because', finishReason, refusal: null })?.outcome).toMatchObject({ kind: 'cut_off', label: 'Cut off at the token limit' });
    }
    expect(attempt({ content: 'Done.', finishReason: 'end_turn', refusal: null })?.outcome).toBeNull();
    // an error reply says it did not answer; no outcome on top of that
    expect(attempt({ content: '', finishReason: null, refusal: null, error: 'blocked', errorKind: 'blocked' })?.outcome).toBeNull();
  });

  it("shows an attempt's variants, a failed one as its error", () => {
    const base = { id: 'x', modelId: 'a:one', systemIndex: 0, temperatureIndex: 0, temperature: 0, attempt: 0, content: 'Six weeks.', turns: [], toolCalls: null, finishReason: null, refusal: null, promptTokens: null, completionTokens: null, latencyMs: null, costUsd: null, error: null, errorKind: null, fromCache: false, attemptScores: [], verdicts: [] };
    const variants = [
      { name: 'formal', content: '', error: 'HTTP 400: context too long' },
      { name: 'informal', content: 'You have 6 weeks.', error: null },
    ];
    const [card] = replyCards('r1', data.prompt, [{ ...base, variants }], ['a:one'], ranking, null);
    expect(card?.attempts[0]?.variants).toEqual([
      { name: 'formal', content: null, error: 'HTTP 400: context too long' },
      { name: 'informal', content: 'You have 6 weeks.', error: null },
    ]);
  });
});
