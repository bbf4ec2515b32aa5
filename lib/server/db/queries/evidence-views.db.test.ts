/**
 * The pages' view models built from what the real pipeline stores: every example blueprint
 * is run against the fake LLM server (two judges in Assay's protocol), then every prompt's
 * replies and verdicts are read back through the pages' own queries (which parse each stored
 * row with the writer's schemas, throwing on a shape they do not know) and turned into the
 * pages' view models. No hand-written rows: what is checked here is what readers get.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prisma } from '@/generated/prisma/client';
import { startFakeLlm, type FakeLlm, type RuleInput } from '@/testing/fakes/llm-server';
import { getPointVerdicts, getPromptReplies, getRunPrompt } from './run-prompt';
import { getRunRanking } from './run-ranking';
import { freshDatabase, type TestDatabase } from '../db.testkit';
import { executeRun } from '../../runs/engine/execute-run';
import { requestRescore } from '../../runs/request-rescore';
import { requestRun } from '../../runs/request-run';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from '../../runs/runs.testkit';
import { pointPageView } from '@/lib/views/point-view';
import { promptPageView, replyCards, type ReplyCardView } from '@/lib/views/prompt-view';

const JUDGE = /impartial evaluator/;
const RULES: RuleInput[] = [
  { system: JUDGE, lastUser: /What does the reply do about the missing Q4/, judge: { labels: { A: 0.5, B: 0.3, C: 0.2 }, reasoning: 'Left it out.' } },
  { system: JUDGE, lastUser: /B\. True: the statement holds/, judge: { labels: { A: 0.2, B: 0.8 }, reasoning: 'Mostly holds.' } },
  { system: JUDGE, lastUser: /E\. CLASS_FULLY_PRESENT/, judge: { labels: { A: 0.05, C: 0.1, D: 0.25, E: 0.6 }, reasoning: 'Largely covered.' } },
  { system: JUDGE, judge: { labels: { A: 0.1, B: 0.3, C: 0.6 }, reasoning: 'Third option fits best.' } },
  { lastUser: /weather/i, toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
  { model: 'model-b', lastUser: /recipe for pasta/, reply: 'What kind of pasta do you have? Any preference?' },
];
const MODELS = ['openai:model-a', 'openai:model-b'];
const EXAMPLES = readdirSync('blueprints/examples').filter((f) => f.endsWith('.yml')).sort();

let t: TestDatabase;
let fake: FakeLlm;
const runs = new Map<string, { id: string; versionId: string }>();
/** file → prompt key → model → card */
const cards = new Map<string, Map<string, Map<string, ReplyCardView>>>();
let parsedVerdicts = 0;
/** file → prompt key → number of points */
const pointCounts = new Map<string, number>();

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: RULES });
  const deps = await fakeDeps(t.db, fake.url);
  for (const file of EXAMPLES) {
    const { blueprintId } = await storeBlueprint(t.db, `blueprints/examples/${file}`, readFileSync(`blueprints/examples/${file}`, 'utf8'));
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', models: MODELS }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(deps, runId)).toBe('completed');
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId }, select: { id: true, versionId: true } });
    runs.set(file, run);
    const ranking = await getRunRanking(t.db, run.id);
    const byKey = new Map<string, Map<string, ReplyCardView>>();
    for (const { promptKey } of await t.db.versionPrompt.findMany({ where: { versionId: run.versionId }, select: { promptKey: true } })) {
      const data = (await getRunPrompt(t.db, run, promptKey))!;
      pointCounts.set(`${file}/${promptKey}`, data.prompt.points.length);
      const replies = await getPromptReplies(t.db, run, promptKey, MODELS);
      parsedVerdicts += replies.reduce((n, r) => n + r.verdicts.length, 0);
      const built = replyCards(run.id, data.prompt, replies, MODELS, ranking, MODELS[0]!);
      byKey.set(promptKey, new Map(built.map((c) => [c.modelId, c])));
      promptPageView(run.id, data, ranking, { model: MODELS[0]!, compare: 1 });
      for (let i = 0; i < data.prompt.points.length; i++) pointPageView(run.id, data.prompt, i, await getPointVerdicts(t.db, run, promptKey, i), ranking);
    }
    cards.set(file, byKey);
  }
}, 120_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

const card = (file: string, key: string, model = MODELS[0]!) => cards.get(file)!.get(key)!.get(model)!;
const verdictsOf = (c: ReplyCardView) => c.attempts.flatMap((a) => a.breakdown?.groups.flatMap((g) => g.verdicts) ?? []);

describe(`the pages' view models of real runs of every example (${process.env.ASSAY_TEST_DB})`, () => {
  it('parse every stored verdict, and every attempt score is what its verdicts give', async () => {
    expect(parsedVerdicts).toBe(await t.db.verdict.count());
    expect(parsedVerdicts).toBeGreaterThan(50);
    for (const [file, byKey] of cards)
      for (const [key, byModel] of byKey)
        for (const c of byModel.values()) {
          for (const a of c.attempts) expect(a.breakdown?.mismatch, `${c.modelId}`).toBeNull();
          // every point of the prompt is shown, in exactly one group
          expect(verdictsOf(c).map((v) => v.pointIndex).sort((x, y) => x - y)).toEqual([...Array(pointCounts.get(`${file}/${key}`)).keys()]);
          for (const v of verdictsOf(c)) {
            if (v.kind === 'function' || v.kind === 'correct' || v.status === 'error') expect(v.detail, `${c.modelId} ${v.text}`).toMatch(/\S/);
            if ((v.kind === 'text' || v.kind === 'question') && v.status !== 'error') {
              expect(v.judges).toHaveLength(2);
              for (const j of v.judges) expect(j.scoreLabel, v.text).toMatch(/^\d{1,3}\.\d$/);
            }
            expect(v.text, 'no JSON rendering or doubled escapes').not.toMatch(/\\\\|^\w+\(".*"\)$/);
          }
        }
  });

  it('shows tool calls and the `correct:` assertion that decided', () => {
    const c = card('weather-tool-call.yml', 'weather-lisbon');
    expect(c.attempts[0]!.toolCalls).toEqual([{ name: 'get_weather', argumentsText: '{\n  "city": "Paris"\n}' }]);
    const check = verdictsOf(c).find((v) => v.kind === 'correct')!;
    expect(check.text).toContain('$.tool_calls[0].arguments.city matches /^lisbo[an]$/i');
    expect(check.detail).toContain('no match in "Paris"');
    expect(verdictsOf(card('weather-tool-call.yml', 'city-json')).find((v) => v.status === 'error')?.detail).toMatch(/^js failed: SyntaxError/);
  });

  it('marks the generated turn of a multi-turn conversation, with the system prompt', () => {
    const a = card('multi-turn-support.yml', 'remembers-order-number').attempts[0]!;
    expect(a.system).toEqual(['You are a concise, friendly support agent for a bicycle shop.']);
    expect(a.turns.map((x) => [x.roleLabel, x.generated])).toEqual([
      ['User', false],
      ['Assistant', true],
      ['User', false],
    ]);
    expect(a.turns[1]!.content).toMatch(/^Fake reply from model-a/);
  });

  it('groups alternative paths with the best marked, per model', () => {
    const groups = (model: string) => card('pasta-alternative-paths.yml', 'pasta-dinner', model).attempts[0]!.breakdown!;
    expect(groups(MODELS[0]!).groups.map((g) => [g.title, g.best])).toEqual([
      ['Required points', false],
      ['Path 1', true],
      ['Path 2', false],
    ]);
    expect(groups(MODELS[1]!).groups.find((g) => g.best)?.title).toBe('Path 2');
    expect(groups(MODELS[1]!).arithmetic.at(-1)).toMatch(/^Score = mean of required \d+\.\d and best path Path 2 \d+\.\d = \d+\.\d$/);
  });

  it('labels should_not points "must not", keeps citations, and lists a choice in written order', () => {
    const vs = verdictsOf(card('medical-facts-weights.yml', 'paracetamol-max-dose'));
    expect(vs.filter((v) => v.mustNot).map((v) => v.text)).toEqual(['Suggests exceeding the daily maximum', '$icontains: 8 grams']);
    expect(vs.find((v) => v.pointIndex === 0)?.citation).toBe('NHS: paracetamol for adults, how much to take');
    expect(vs.find((v) => v.pointIndex === 3)?.text).toBe('$matches: \\b4\\s?(g|grams?)\\b|\\b4,?000\\s?mg\\b');
    const choice = verdictsOf(card('grounded-summary-questions.yml', 'quarterly-figures')).find((v) => v.text.startsWith('What does the reply do'))!;
    expect(choice.distribution?.map((b) => b.label)).toEqual(['left it out', 'flagged it as unknown', 'hedged it', 'stated it as fact', 'nothing missing']);
    const levels = verdictsOf(card('grounded-summary-questions.yml', 'quarterly-figures')).find((v) => v.text.startsWith('How grounded'))!;
    expect(levels.distribution?.map((b) => b.label)).toEqual(['Fabricated', 'Mostly fabricated', 'Mostly grounded', 'Fully grounded']);
  });

  it("pages a point's verdicts best first: the pages together are the whole list, the summary counts them all", async () => {
    const run = runs.get(EXAMPLES[0]!)!;
    const { promptKey } = await t.db.versionPrompt.findFirstOrThrow({ where: { versionId: run.versionId }, orderBy: { position: 'asc' }, select: { promptKey: true } });
    const prompt = (await getRunPrompt(t.db, run, promptKey))!.prompt;
    const verdicts = await getPointVerdicts(t.db, run, promptKey, 0);
    const ranking = await getRunRanking(t.db, run.id);
    expect(verdicts.length).toBeGreaterThanOrEqual(2);
    const whole = pointPageView(run.id, prompt, 0, verdicts, ranking)!;
    expect(whole.pagination).toBeNull();
    const pages = verdicts.map((_, i) => pointPageView(run.id, prompt, 0, verdicts, ranking, i + 1, 1)!);
    expect(pages.flatMap((p) => p.entries)).toEqual(whole.entries);
    expect(pages.every((p) => p.summary === whole.summary)).toBe(true);
    expect(pages[0]!.pagination).toMatchObject({ page: 1, pages: verdicts.length, previousHref: null });
    expect(pages[0]!.pagination!.nextHref).toMatch(/\/points\/0\?page=2#verdicts-h$/);
  });

  it("shows a rescored run's verdicts beside its parent's replies", async () => {
    const parent = runs.get('weather-tool-call.yml')!;
    const { runId } = await requestRescore(t.db, { runId: parent.id }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(await fakeDeps(t.db, fake.url), runId)).toBe('completed');
    const replies = await getPromptReplies(t.db, { id: runId, versionId: parent.versionId }, 'weather-lisbon', MODELS);
    expect(replies.map((r) => [r.modelId, r.verdicts.length, r.attemptScores.length])).toEqual(MODELS.map((m) => [m, 3, 1]));
  });

  it('a stored row in a shape the pages do not know is an error, never a blank', async () => {
    const run = runs.get('medical-facts-weights.yml')!;
    const v = await t.db.verdict.findFirstOrThrow({ where: { runId: run.id, kind: 'text' }, select: { id: true, promptKey: true, judges: true } });
    const old = (v.judges as Record<string, unknown>[]).map(({ score, ...rest }) => ({ ...rest, value: score }));
    await t.db.verdict.update({ where: { id: v.id }, data: { judges: old as Prisma.InputJsonValue } });
    await expect(getPromptReplies(t.db, run, v.promptKey, MODELS)).rejects.toThrow(/verdicts\.judges.*does not have the expected shape/);
    // rows written before the fix are moved by the data migration, keeping the panel's order
    await t.db.$executeRawUnsafe(readFileSync('prisma/migrations/20261201010000_judge_record_score/migration.sql', 'utf8'));
    const migrated = await t.db.verdict.findUniqueOrThrow({ where: { id: v.id }, select: { judges: true } });
    const before = v.judges as { judge: string; score: number }[];
    const after = migrated.judges as Record<string, unknown>[];
    expect(after.map((j) => [j.judge, j.score, 'value' in j])).toEqual(before.map((j) => [j.judge, j.score, false]));
    await expect(getPromptReplies(t.db, run, v.promptKey, MODELS)).resolves.toHaveLength(MODELS.length);
  });
});
