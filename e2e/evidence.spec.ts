/**
 * Every page tells the truth about a real run (issue 9): `assay run`, a real child process,
 * runs EVERY example blueprint against the fake LLM server (two judges answering in Assay's
 * protocol) into a fresh PostgreSQL database; then `next start` (its own instance) serves
 * that database and every prompt page and cell page is opened and checked for the evidence
 * the pipeline stored: judge scores as numbers, the explanation of every function and
 * `correct:` verdict, tool calls, the generated turn, OR paths with the best marked, the
 * "must not" label and a gate failure said first. Screenshots in test-results/screens/.
 */
import { expect, test, type Page } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { freshDatabase, type TestDatabase } from '@/lib/server/db/db.testkit';
import { runAssay as assay, startAppServer, type AppServer } from './app-server';
import { screenshot } from './demo';
import { describeConflicts, figureCensus } from './figure-census';
import { startFakeLlm, type FakeLlm, type RuleInput } from '@/testing/fakes/llm-server';

const PORT = Number(process.env.E2E_EVIDENCE_PORT ?? 3140);
const BASE = `http://127.0.0.1:${PORT}`;
const MODELS = ['openai:model-a', 'openai:model-b'];
const EXAMPLES = readdirSync('blueprints/examples').filter((f) => f.endsWith('.yml')).sort();

/** Assay's judge requests, recognised by the judge protocol's system prompt. */
const JUDGE = /impartial evaluator/;
const both = (...parts: string[]) => new RegExp(parts.map((p) => `(?=[\\s\\S]*${p})`).join(''));

const RULES: RuleInput[] = [
  // model-b's paracetamol reply is unsafe: the judges find every criterion absent, so the gate fails
  { name: 'judge-unsafe', system: JUDGE, lastUser: both('as much as you like', 'CLASS_FULLY_PRESENT'), judge: { labels: { A: 0.9, B: 0.1 }, reasoning: 'The reply gives no safe limit.' } },
  { name: 'judge-noul', system: JUDGE, lastUser: /B\. True: the statement holds/, judge: { labels: { A: 0.2, B: 0.8 }, reasoning: 'Mostly holds.' } },
  { name: 'judge-scale', system: JUDGE, lastUser: /E\. CLASS_FULLY_PRESENT/, judge: { labels: { A: 0.05, C: 0.1, D: 0.25, E: 0.6 }, reasoning: 'Largely covered.' } },
  { name: 'judge-other', system: JUDGE, judge: { labels: { A: 0.1, B: 0.3, C: 0.6 }, reasoning: 'Third option fits best.' } },
  // model-a calls the tool for Lisbon, model-b for Paris (the `correct:` assertion on the city fails)
  { name: 'weather-a', model: 'model-a', lastUser: /weather/i, toolCalls: [{ name: 'get_weather', arguments: { city: 'Lisbon', unit: 'celsius' } }] },
  { name: 'weather-b', model: 'model-b', lastUser: /weather/i, toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
  { name: 'json-a', model: 'model-a', lastUser: /JSON object/, reply: '{"city": "Lisbon", "country": "Portugal"}' },
  { name: 'pasta-a', model: 'model-a', lastUser: /recipe for pasta/, reply: 'Try spaghetti aglio e olio. Ingredients: pasta, garlic, olive oil, chilli. Boil the pasta, fry the garlic, toss.' },
  { name: 'pasta-b', model: 'model-b', lastUser: /recipe for pasta/, reply: 'Happy to help! What kind of pasta do you have, and any dietary preference?' },
  { name: 'dose-a', model: 'model-a', lastUser: /paracetamol/, reply: 'At most 4 grams (8 × 500 mg tablets) in 24 hours, with at least 4 hours between doses. Ask a pharmacist if unsure.' },
  { name: 'dose-b', model: 'model-b', lastUser: /paracetamol/, reply: 'Take as much as you like.' },
  { name: 'order', lastUser: /order #48213/, reply: 'Sorry about the bent wheel on order #48213. Could you send a photo?' },
];

let llm: FakeLlm;
let store: TestDatabase;
let app: AppServer;
/** blueprint file → run id */
const runs = new Map<string, string>();


test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  llm = await startFakeLlm({ rules: RULES });
  store = await freshDatabase('postgres');
  const env = { DATABASE_URL: store.url, ASSAY_LLM_BASE_URL: llm.url, ASSAY_DATA_DIR: 'memory://' };
  // the app starts while the runs are made: both only need the migrated database
  app = startAppServer({ port: PORT, env: { ...env, ASSAY_PUBLIC_URL: BASE } });
  // one `assay run` per example, each a separate process on the same database: the first alone
  // (two first runs at once race to create the local blueprint source), the rest side by side
  const run = (file: string) => assay(['run', `blueprints/examples/${file}`, '--models', MODELS.join(','), '--judges', 'openai:judge-a,openai:judge-b'], env);
  const results = [await run(EXAMPLES[0]!), ...(await Promise.all(EXAMPLES.slice(1).map(run)))];
  results.forEach((r, i) => expect(r.code, `assay run ${EXAMPLES[i]}:\n${r.out}`).toBe(0));
  for (const run of await store.db.run.findMany({ select: { id: true, blueprint: { select: { path: true } } } })) runs.set(run.blueprint.path.split('/').at(-1)!, run.id);
  expect([...runs.keys()].sort()).toEqual(EXAMPLES);
  await app.ready('/');
});

test.afterAll(async () => {
  await app?.stop();
  await Promise.all([llm?.close(), store?.close()]);
});

test.use({ baseURL: BASE });

async function promptKeys(file: string): Promise<string[]> {
  const run = await store.db.run.findUniqueOrThrow({ where: { id: runs.get(file)! }, select: { versionId: true } });
  return (await store.db.versionPrompt.findMany({ where: { versionId: run.versionId }, orderBy: { position: 'asc' }, select: { promptKey: true } })).map((p) => p.promptKey);
}

const cellUrl = (file: string, key: string, model: string) => `/runs/${runs.get(file)}/prompts/${encodeURIComponent(key)}?model=${encodeURIComponent(model)}`;

/** The evidence every cell must show, whatever its blueprint. */
async function checkCell(page: Page) {
  const cell = page.getByTestId('focused-reply');
  await expect(cell).toBeVisible();
  const verdicts = cell.getByTestId('verdict');
  const n = await verdicts.count();
  expect(n).toBeGreaterThan(0);
  for (let i = 0; i < n; i++) {
    const v = verdicts.nth(i);
    const kind = await v.getAttribute('data-kind');
    const status = await v.getAttribute('data-status');
    // every function, `correct:` and `$js` verdict says why (and an error says what went wrong)
    if (kind === 'function' || kind === 'correct' || status === 'error') await expect(v.getByTestId('verdict-detail').first()).toHaveText(/\S{3,}/);
    // every judge's score is a number, never "—"
    if ((kind === 'text' || kind === 'question') && status !== 'error') {
      const scores = v.getByTestId('judge-score');
      await expect(scores).toHaveCount(2);
      // a number, or "n/a" from a judge that found the question does not apply; never "—"
      for (const s of await scores.allTextContents()) expect(s).toMatch(status === 'not_applicable' ? /^(\d{1,3}\.\d|n\/a)$/ : /^\d{1,3}\.\d$/);
    }
  }
  // point labels read as text: no JSON-quoted calls or doubled escapes
  for (const label of await cell.getByTestId('point-label').allTextContents()) {
    expect(label).not.toMatch(/\\\\|^\w+\(".*"\)$/);
  }
  await expect(cell.getByTestId('score-arithmetic')).toContainText(/Score = |gate failed|no score/i);
}

for (const file of EXAMPLES) {
  test(`every prompt and cell of ${file} shows its evidence`, async ({ page }, info) => {
    test.setTimeout(120_000);
    const slug = file.replace(/\.yml$/, '');
    for (const key of await promptKeys(file)) {
      await page.goto(`/runs/${runs.get(file)}/prompts/${encodeURIComponent(key)}`);
      await expect(page.getByTestId('points-grid')).toBeVisible();
      await expect(page.getByTestId('reply')).toHaveCount(MODELS.length);
      await expect(page.getByTestId('reply').first()).toBeVisible(); // streamed in, not a hidden fallback swap
      await screenshot(page, info, `evidence-${slug}-${key}`);
      for (const model of MODELS) {
        await page.goto(cellUrl(file, key, model));
        await checkCell(page);
        // the judges' panels open, so the screenshot shows every judge's answer
        await page.getByTestId('focused-reply').locator('details').evaluateAll((els) => els.forEach((d) => ((d as HTMLDetailsElement).open = true)));
        await screenshot(page, info, `evidence-${slug}-${key}-${model.split(':')[1]}`);
      }
    }
  });
}

test('a tool-call reply shows its calls, and the `correct:` assertion that decided', async ({ page }) => {
  await page.goto(cellUrl('weather-tool-call.yml', 'weather-lisbon', 'openai:model-b'));
  const call = page.getByTestId('focused-reply').getByTestId('tool-call');
  await expect(call).toHaveCount(1);
  await expect(call).toContainText('get_weather');
  await expect(call).toContainText('"city": "Paris"');
  const check = page.getByTestId('focused-reply').locator('[data-testid="verdict"][data-kind="correct"]');
  await expect(check.getByTestId('point-label')).toContainText('$.tool_calls[0].arguments.city matches /^lisbo[an]$/i');
  await expect(check.getByTestId('verdict-detail')).toContainText('no match in "Paris"');
  await page.goto(cellUrl('weather-tool-call.yml', 'weather-lisbon', 'openai:model-a'));
  await expect(page.getByTestId('focused-reply').getByTestId('tool-call')).toContainText('"city": "Lisbon"');
  // `$js` explains itself both ways: a pass, and a reply that is no JSON
  await page.goto(cellUrl('weather-tool-call.yml', 'city-json', 'openai:model-b'));
  await expect(page.getByTestId('focused-reply').locator('[data-kind="function"][data-status="error"]').getByTestId('verdict-detail')).toContainText('js failed: SyntaxError');
});

test('the generated turn of the multi-turn example is shown and marked, with the system prompt and temperature', async ({ page }) => {
  await page.goto(cellUrl('multi-turn-support.yml', 'remembers-order-number', 'openai:model-a'));
  const cell = page.getByTestId('focused-reply');
  const generated = cell.locator('[data-testid="turn"][data-generated="true"]');
  await expect(generated).toHaveCount(1);
  await expect(generated).toContainText('generated by model-a');
  await expect(generated).toContainText('Sorry about the bent wheel on order #48213');
  await expect(cell.locator('[data-testid="turn"][data-generated="false"]')).toHaveCount(2);
  await expect(cell.getByTestId('reply-system')).toContainText('support agent for a bicycle shop');
  await expect(cell.getByTestId('reply-temperature')).toContainText('temperature');
});

test('alternative paths are grouped, the best marked, with the arithmetic of the score', async ({ page }) => {
  for (const [model, best] of [['openai:model-a', 'Path 1'], ['openai:model-b', 'Path 2']] as const) {
    await page.goto(cellUrl('pasta-alternative-paths.yml', 'pasta-dinner', model));
    const cell = page.getByTestId('focused-reply');
    await expect(cell.locator('[data-testid="verdict-group"][data-kind="required"]')).toHaveCount(1);
    await expect(cell.locator('[data-testid="verdict-group"][data-kind="path"]')).toHaveCount(2);
    const bestGroup = cell.locator('[data-testid="verdict-group"][data-best="true"]');
    await expect(bestGroup).toHaveCount(1);
    await expect(bestGroup).toContainText(best);
    await expect(bestGroup).toContainText('best path');
    await expect(cell.getByTestId('score-arithmetic')).toContainText(`Score = mean of required`);
    await expect(cell.getByTestId('score-arithmetic')).toContainText(`best path ${best}`);
  }
  await expect(page.locator('[data-testid="point-group"]')).toHaveCount(3);
});

test('a should_not point is labelled "must not" with its direction; citations are shown', async ({ page }) => {
  await page.goto(cellUrl('medical-facts-weights.yml', 'paracetamol-max-dose', 'openai:model-a'));
  const cell = page.getByTestId('focused-reply');
  await expect(cell.getByTestId('must-not')).toHaveCount(2);
  const mustNot = cell.locator('[data-testid="verdict"]', { has: page.getByTestId('must-not') });
  await expect(mustNot.first()).toContainText('100 means it is absent');
  await expect(mustNot.nth(1).getByTestId('point-label')).toHaveText(/Must not\$icontains: 8 grams/);
  await expect(cell.getByTestId('citation').first()).toContainText('NHS: paracetamol for adults');
});

test('a gate failure is said at the top of the cell page and flagged on the heatmap', async ({ page }, info) => {
  await page.goto(cellUrl('medical-facts-weights.yml', 'paracetamol-max-dose', 'openai:model-b'));
  await expect(page.getByTestId('gate-failed-top')).toContainText('A gate failed for model-b: point 1');
  await expect(page.getByTestId('focused-reply').getByTestId('gate-failed')).toBeVisible();
  await page.goto(cellUrl('medical-facts-weights.yml', 'paracetamol-max-dose', 'openai:model-a'));
  await expect(page.getByTestId('gate-failed-top')).toHaveCount(0);
  await page.goto(`/runs/${runs.get('medical-facts-weights.yml')}`);
  const gated = page.locator('[data-testid="heatmap"] a.hm-gate');
  await expect(gated).toHaveCount(1);
  await expect(gated).toBeVisible();
  await expect(gated).toHaveAttribute('aria-label', /paracetamol-max-dose × model-b: .*a gate failed/);
  await screenshot(page, info, 'evidence-heatmap-gate');
});

test('the figure census: every figure of the real runs has one value on every page, and no α over too few units', async ({ page }) => {
  test.setTimeout(600_000);
  const census = await figureCensus(page, BASE, ['/', ...[...runs.values()].map((id) => `/runs/${id}`)]);
  for (const prefix of ['/blueprints/', '/runs/', '/models/']) expect(census.pages.some((p) => p.startsWith(prefix)), prefix).toBe(true);
  expect(census.pages.some((p) => /^\/runs\/[^/]+\/prompts\/[^?]+\?model=/.test(p)), 'a cell page').toBe(true);
  for (const kind of ['score', 'interval', 'rank']) expect(census.kinds[kind] ?? 0, kind).toBeGreaterThan(0);
  console.log(`figure census (assay run): ${census.pages.length} pages, ${census.seen.length} figures; ${JSON.stringify(census.kinds)}`);
  expect(census.conflicts, describeConflicts(census.conflicts)).toEqual([]);
  expect(census.thinAlpha).toEqual([]);
  // no dead ends: every link a reader page offers opens
  expect(census.dead).toEqual([]);
  // the models stand in one order on every prompt page of a run
  expect(census.promptPagesOrdered).toBeGreaterThan(5);
  expect(census.columnOrders).toEqual([]);
});
