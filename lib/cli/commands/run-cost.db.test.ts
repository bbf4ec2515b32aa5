/**
 * Honest cost, through the real `assay run` (a child process, a real database) against the fake
 * provider speaking each provider's dialect with the token classes the providers bill apart:
 * OpenAI cached input and reasoning tokens, Anthropic cache reads and 5-minute cache writes, and
 * Gemini thoughts (and its dearer tier for prompts over 200k tokens). The stored costs must equal
 * the providers' published prices to the cent. Each expected figure is worked out by hand below
 * from the published rates (USD per 1M tokens), not from Assay's price table:
 *   gpt-5 (developers.openai.com/api/docs/models/gpt-5): input $1.25, cached input $0.125, output $10
 *   claude-sonnet-4-5 (platform.claude.com/docs/en/about-claude/pricing): input $3, 5m cache write
 *     $3.75, cache hit $0.30, output $15
 *   gemini-2.5-pro (ai.google.dev/gemini-api/docs/pricing): prompts ≤ 200k: input $1.25, output
 *     (including thinking tokens) $10; prompts > 200k: input $2.50, caching $0.25, output $15
 * And a capped run (`--max-cost`) with a model or judge priced nowhere does not start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { assay as runAssay } from '@/lib/cli/cli.testkit';
import { freshDatabase, type TestDatabase } from '@/lib/server/db/db.testkit';
import { getRunHeader } from '@/lib/server/db/queries/run-header';
import { getRunRanking } from '@/lib/server/db/queries/run-ranking';
import { rankingView, runHeaderView } from '@/lib/views/run-view';

let dir: string;
let t: TestDatabase;
let fake: FakeLlm;

const BLUEPRINT = `title: Honest cost
models: [openai:gpt-5, anthropic:claude-sonnet-4-5, google:gemini-2.5-pro]
---
- id: memo
  prompt: Summarise the memo.
  should:
    - $contains: summary
- id: archive
  prompt: Summarise the whole archive.
  should:
    - $contains: summary
`;

const REPLY = 'A short summary.';

/** Each reply's usage as the provider reports it (the fake renders each dialect's own fields). */
const RULES = [
  // OpenAI: 120,000 prompt tokens of which 100,000 cached; 30,000 completion tokens of which 25,000 reasoning.
  { model: 'gpt-5', reply: REPLY, usage: { promptTokens: 120_000, cachedInputTokens: 100_000, completionTokens: 30_000, reasoningTokens: 25_000 } },
  // Anthropic: 10,000 fresh + 200,000 read from the cache + 40,000 written to it; 8,000 output of which 5,000 thinking.
  { model: 'claude-sonnet-4-5', reply: REPLY, usage: { promptTokens: 250_000, cachedInputTokens: 200_000, cacheWriteTokens: 40_000, completionTokens: 8_000, reasoningTokens: 5_000 } },
  // Gemini: 50,000 prompt; 4,000 answer + 36,000 thoughts.
  { model: 'gemini-2.5-pro', lastUser: 'memo', reply: REPLY, usage: { promptTokens: 50_000, completionTokens: 40_000, reasoningTokens: 36_000 } },
  // Gemini, over 200k: 300,000 prompt of which 100,000 cached; 2,000 answer + 8,000 thoughts.
  { model: 'gemini-2.5-pro', lastUser: 'archive', reply: REPLY, usage: { promptTokens: 300_000, cachedInputTokens: 100_000, completionTokens: 10_000, reasoningTokens: 8_000 } },
];

// Worked by hand from the published rates ($ per 1M tokens):
const GPT5 = (20_000 * 1.25 + 100_000 * 0.125 + 30_000 * 10) / 1e6; // $0.025 + $0.0125 + $0.30 = $0.3375
const SONNET = (10_000 * 3 + 200_000 * 0.3 + 40_000 * 3.75 + 8_000 * 15) / 1e6; // $0.03 + $0.06 + $0.15 + $0.12 = $0.36
const GEMINI_SHORT = (50_000 * 1.25 + 40_000 * 10) / 1e6; // $0.0625 + $0.40 = $0.4625 (the answer alone would be $0.04)
const GEMINI_LONG = (200_000 * 2.5 + 100_000 * 0.25 + 10_000 * 15) / 1e6; // $0.50 + $0.025 + $0.15 = $0.675

const assay = (args: string[]) => runAssay(args, undefined, { DATABASE_URL: t.url, ASSAY_LLM_BASE_URL: fake.url });
const file = () => join(dir, 'cost.yml');
const cents = (usd: number) => Math.round(usd * 100);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assay-cost-'));
  await writeFile(file(), BLUEPRINT);
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: RULES });
});
afterAll(async () => {
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
  await t?.close();
});

describe(`assay run: cost of cached, reasoning and thinking tokens (${process.env.ASSAY_TEST_DB})`, () => {
  it('stores each reply’s cost and the run’s at the providers’ published prices, to the cent', { timeout: 120_000 }, async () => {
    expect([GPT5, SONNET, GEMINI_SHORT, GEMINI_LONG].map(cents)).toEqual([34, 36, 46, 68]);
    // A cap, with a priced judge panel: every model's price is known, so the run starts.
    const r = await assay(['run', file(), '--judges', 'openai:gpt-5-mini', '--max-cost', '10', '--concurrency', '1', '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    const run = await t.db.run.findFirstOrThrow({ orderBy: { createdAt: 'desc' }, select: { id: true, costUsd: true, status: true } });
    expect(run.status).toBe('completed');
    const replies = await t.db.reply.findMany({ where: { runId: run.id }, select: { modelId: true, promptKey: true, costUsd: true, completionTokens: true } });
    const cost = (modelId: string, promptKey: string) => replies.find((x) => x.modelId === modelId && x.promptKey === promptKey)?.costUsd ?? NaN;
    expect(cost('openai:gpt-5', 'memo')).toBeCloseTo(GPT5, 9);
    expect(cost('openai:gpt-5', 'archive')).toBeCloseTo(GPT5, 9);
    expect(cost('anthropic:claude-sonnet-4-5', 'memo')).toBeCloseTo(SONNET, 9);
    expect(cost('google:gemini-2.5-pro', 'memo')).toBeCloseTo(GEMINI_SHORT, 9);
    expect(cost('google:gemini-2.5-pro', 'archive')).toBeCloseTo(GEMINI_LONG, 9);
    // Completion tokens counted for budgets include Gemini's thoughts (reported apart from the answer).
    expect(replies.find((x) => x.modelId === 'google:gemini-2.5-pro' && x.promptKey === 'memo')?.completionTokens).toBe(40_000);
    const total = 2 * GPT5 + 2 * SONNET + GEMINI_SHORT + GEMINI_LONG; // $2.5325
    expect(run.costUsd).toBeCloseTo(total, 9);
    expect(cents(run.costUsd)).toBe(253);
    expect(r.stdout).toContain('cost $2.53');
  });

  it('refuses to start a capped run whose models or judges include one priced nowhere: exit 1, the models named, nothing stored', { timeout: 120_000 }, async () => {
    const runsBefore = await t.db.run.count();
    const requestsBefore = fake.requests().length;
    const r = await assay(['run', file(), '--models', 'openai:gpt-5,openai:house-model', '--judges', 'openai:house-judge', '--max-cost', '5', '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no price is known for openai:house-model, openai:house-judge');
    expect(r.stderr).toContain('--max-cost');
    expect(r.stderr).toContain('--max-calls');
    expect(r.stderr).not.toContain('openai:gpt-5,');
    expect(await t.db.run.count()).toBe(runsBefore);
    expect(fake.requests().length).toBe(requestsBefore);
    // Without the cap the same models run, and their cost is shown as unknown, not $0: in the CLI's summary…
    const uncapped = await assay(['run', file(), '--models', 'openai:house-model', '--judges', 'openai:house-judge', '--quiet']);
    expect(uncapped.code, uncapped.stderr).toBe(0);
    expect(await t.db.run.count()).toBe(runsBefore + 1);
    expect(uncapped.stdout).toContain('cost unknown (no price known for openai:house-model, openai:house-judge)');
    // …on the run page's header and its models table, and on each reply.
    const { id } = await t.db.run.findFirstOrThrow({ orderBy: { createdAt: 'desc' }, select: { id: true } });
    const header = runHeaderView((await getRunHeader(t.db, id))!, 'prompts');
    expect(header.facts.find((f) => f.label === 'Cost')?.value).toBe('unknown (no price known for openai:house-model, openai:house-judge)');
    expect(rankingView(id, await getRunRanking(t.db, id), (await getRunHeader(t.db, id))!.unpricedModels).map((r) => r.cost)).toEqual(['unknown (no price known for openai:house-model)']);
    expect(await t.db.reply.findMany({ where: { runId: id }, select: { costUsd: true, error: true } })).toEqual([
      { costUsd: null, error: null },
      { costUsd: null, error: null },
    ]);
  });

  it('shows as unknown, not $0, a model whose provider prices its calls but reported no price for them', { timeout: 120_000 }, async () => {
    // OpenRouter reports each call's cost (`usage.cost`); the fake's default answer carries none, so
    // the replies have no cost although the provider is one Assay counts as priced
    const llama = 'openrouter:meta-llama/llama-3.1-70b-instruct';
    const r = await assay(['run', file(), '--models', `openai:gpt-5,${llama}`, '--judges', 'openai:gpt-5-mini', '--no-cache', '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    const { id } = await t.db.run.findFirstOrThrow({ orderBy: { createdAt: 'desc' }, select: { id: true } });
    expect((await t.db.reply.findMany({ where: { runId: id, modelId: llama }, select: { costUsd: true, error: true } })).map((x) => [x.costUsd, x.error])).toEqual([
      [null, null],
      [null, null],
    ]);
    const run = (await getRunHeader(t.db, id))!;
    expect(run.unpricedModels).toEqual([llama]);
    // found once when the run was summarised, the figure the replies give
    expect((await t.db.run.findUniqueOrThrow({ where: { id }, select: { unpricedModels: true } })).unpricedModels).toEqual([llama]);
    expect(runHeaderView(run, 'prompts').facts.find((f) => f.label === 'Cost')?.value).toBe(`$0.68 + unknown (no price known for ${llama})`);
    expect(rankingView(id, await getRunRanking(t.db, id), run.unpricedModels).map((x) => [x.modelId, x.cost])).toEqual([
      ['openai:gpt-5', '$0.68'],
      [llama, `unknown (no price known for ${llama})`],
    ]);
    expect(r.stdout).toContain(`cost $0.68 + unknown (no price known for ${llama})`);
  });
});
