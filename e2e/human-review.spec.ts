/**
 * Human judgement end to end: `assay run` (a real child process) grades a blueprint with a
 * sealed prompt on four models with a panel of two judges (the fake LLM server) into a fresh
 * PostgreSQL database; `next start` serves it. An admin grants two reviewers and draws review
 * items and pairs from the admin page; each reviewer signs in with GitHub (the fake's consent
 * page) and, keyboard only, labels 20 judged verdicts (undoing one on the way) and 15 pairs.
 * The blueprint page then shows calibration figures that equal a computation done here, by hand,
 * from exactly the labels stored and the judges' stored answers; the leaderboard shows people's
 * ranking. No page a reviewer sees names a model, a judge's answer or a sealed prompt.
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase, type TestDatabase } from '@/lib/server/db/db.testkit';
import { FakeGitHub } from '@/testing/fakes/github-server';
import { startFakeLlm, type FakeLlm, type RuleInput } from '@/testing/fakes/llm-server';
import { runAssay, startAppServer, type AppServer } from './app-server';
import { signIn } from './author-kit';
import { screenshot } from './demo';
import { formatSigned } from '@/lib/views/human-figures-view';

const PORT = Number(process.env.E2E_REVIEW_PORT ?? 3170);
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN_TOKEN = 'e2e-review-admin-token-0123456789';
const MODELS = ['openai:model-a', 'openai:model-b', 'openai:model-c', 'openai:model-d'];
const REVIEWERS = ['rita', 'ravi'] as const;
const LABELS_EACH = 20;
const PAIRS_EACH = 15;
const JUDGE = /impartial evaluator/;
const CRITERIA = ['The reply is polite.', 'The reply answers the question directly.', 'The reply gives a concrete example.'];
const TOPICS = ['tides', 'rainbows', 'volcanoes', 'glaciers', 'comets', 'earthquakes', 'monsoons', 'auroras'];
const CLASSES = ['CLASS_ABSENT', 'CLASS_SLIGHTLY_PRESENT', 'CLASS_PARTIALLY_PRESENT', 'CLASS_MAJORLY_PRESENT', 'CLASS_FULLY_PRESENT'];

const BLUEPRINT = `title: Explaining nature
description: Short explanations of natural phenomena, judged on tone, directness and examples.
---
${TOPICS.map((t) => `- id: explain-${t}\n  prompt: Explain ${t} to a ten-year-old.\n  should:\n${CRITERIA.map((c) => `    - "${c}"`).join('\n')}`).join('\n')}
- id: sealed-holdout-geysers
  split: test
  prompt: SEALED-PROMPT Explain geysers.
  should:
    - "SEALED-CRITERION The reply mentions heat."
`;

/** A small deterministic hash, so the judges' answers and the reviewers' choices vary by item but never by run. */
function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

const reply = (model: string, topic: string) => `Answer ${'ABCD'[MODELS.indexOf(model)]}${hash(model + topic) % 97}: ${topic} happen because of ${['gravity', 'light', 'heat', 'wind'][hash(topic + model) % 4]}.`;

/** Each judge's letter probabilities for one reply × criterion: two letters around a centre that depends on both. */
function judgeLabels(judge: string, text: string): Record<string, number> {
  const centre = hash(text) % 5;
  const lean = (hash(judge + text) % 3) - 1;
  const other = Math.min(4, Math.max(0, centre + (lean === 0 ? 1 : lean)));
  const letters: Record<string, number> = {};
  letters['ABCDE'[centre]!] = 0.7;
  letters['ABCDE'[other]!] = (letters['ABCDE'[other]!] ?? 0) + 0.3;
  return letters;
}

const RULES: RuleInput[] = [
  ...MODELS.flatMap((m) => TOPICS.map((t) => ({ name: `${m}-${t}`, model: m.split(':')[1], lastUser: `Explain ${t}`, reply: reply(m, t) }))),
  ...['judge-a', 'judge-b'].flatMap((j) =>
    MODELS.flatMap((m) =>
      TOPICS.flatMap((t) =>
        CRITERIA.map((c) => ({ name: `${j}-${m}-${t}-${c}`, model: j, system: JUDGE, lastUser: new RegExp(`(?=[\\s\\S]*${reply(m, t).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})(?=[\\s\\S]*${c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})`), judge: { labels: judgeLabels(j, reply(m, t) + c), reasoning: `${j} reasoning.` } })),
      ),
    ),
  ),
  // the sealed prompt's reply (the fake's default) and criterion
  { name: 'judge-sealed', system: JUDGE, judge: { labels: { C: 0.6, D: 0.4 }, reasoning: 'judge-a reasoning.' } },
];

let llm: FakeLlm;
let gh: FakeGitHub;
let store: TestDatabase;
let app: AppServer;
let blueprintId: string;
let runAgain: () => Promise<{ code: number; out: string }>;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  llm = await startFakeLlm({ rules: RULES });
  gh = await FakeGitHub.start({ files: { 'README.md': '# none' }, oauth: { clientId: 'e2e-review-client', clientSecret: 'e2e-review-secret' } });
  store = await freshDatabase('postgres');
  const dir = mkdtempSync(join(tmpdir(), 'assay-review-'));
  const file = join(dir, 'explaining-nature.yml');
  writeFileSync(file, BLUEPRINT);
  const env = { DATABASE_URL: store.url, ASSAY_LLM_BASE_URL: llm.url, ASSAY_DATA_DIR: 'memory://' };
  app = startAppServer({
    port: PORT,
    env: {
      ...env,
      ASSAY_PUBLIC_URL: BASE,
      ASSAY_ADMIN_TOKEN: ADMIN_TOKEN,
      GITHUB_REPOSITORY: '',
      GITHUB_OAUTH_CLIENT_ID: 'e2e-review-client',
      GITHUB_OAUTH_CLIENT_SECRET: 'e2e-review-secret',
      GITHUB_OAUTH_URL: gh.url,
      GITHUB_API_URL: gh.url,
    },
  });
  const run = await runAssay(['run', file, '--models', MODELS.join(','), '--judges', 'openai:judge-a,openai:judge-b'], env);
  expect(run.code, run.out).toBe(0);
  blueprintId = (await store.db.run.findFirstOrThrow({ select: { blueprintId: true } })).blueprintId;
  runAgain = () => runAssay(['run', file, '--models', MODELS.join(','), '--judges', 'openai:judge-a,openai:judge-b'], env);
  await app.ready('/');
});

test.afterAll(async () => {
  await app?.stop();
  await Promise.all([llm?.close(), gh?.close(), store?.close()]);
});

test.use({ baseURL: BASE });

async function adminSignIn(page: Page) {
  await page.goto('/admin/sign-in');
  await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
}

/** Nothing a reviewer is shown names a model, repeats a judge's answer, or comes from the sealed prompt. */
async function expectBlinded(page: Page) {
  const text = await page.locator('main').innerText();
  for (const m of MODELS) expect(text).not.toContain(m.split(':')[1]);
  expect(text).not.toMatch(/judge-[ab] reasoning|SEALED-/);
}

test('an admin grants two reviewers and draws verdicts and pairs for review', async ({ page }, info) => {
  await adminSignIn(page);
  const section = page.locator('section[aria-labelledby="review"]');
  for (const login of REVIEWERS) {
    await section.getByTestId('admin-grant-login').fill(login);
    await section.getByTestId('admin-grant-scope').fill(blueprintId);
    await section.getByTestId('admin-grant-submit').click();
    await expect(page.getByText(new RegExp(`${login}.*review`, 'i')).first()).toBeVisible();
  }
  await page.locator('section[aria-labelledby="review"]').getByTestId('admin-draw-blueprint').fill(blueprintId);
  await page.locator('section[aria-labelledby="review"]').getByTestId('admin-draw-kind').selectOption('verdicts');
  // about 40 of the 96 judged verdicts: a uniform half, the rest weighted to where the judges are unsure
  await page.locator('section[aria-labelledby="review"]').getByTestId('admin-draw-expected').fill('40');
  await page.locator('section[aria-labelledby="review"]').getByTestId('admin-draw-submit').click();
  await expect(page.getByText(/Drew \d+ of 96 judged verdicts/)).toBeVisible();
  await page.locator('section[aria-labelledby="review"]').getByTestId('admin-draw-blueprint').fill(blueprintId);
  await page.locator('section[aria-labelledby="review"]').getByTestId('admin-draw-kind').selectOption('pairs');
  await page.locator('section[aria-labelledby="review"]').getByTestId('admin-draw-submit').click();
  await expect(page.getByText(/Drew \d+ pair/)).toBeVisible();
  const items = await store.db.reviewItem.count({ where: { blueprintId } });
  const pairs = await store.db.pairItem.count({ where: { blueprintId } });
  expect(items).toBeGreaterThanOrEqual(LABELS_EACH);
  expect(pairs).toBeGreaterThanOrEqual(PAIRS_EACH);
  // the sealed prompt was never drawn
  expect(await store.db.reviewItem.count({ where: { promptKey: 'sealed-holdout-geysers' } })).toBe(0);
  expect(await store.db.pairItem.count({ where: { promptKey: 'sealed-holdout-geysers' } })).toBe(0);
  await screenshot(page, info, 'review-0-admin');
});

/** A key, once the page's keys are live (its script has run: before that a key does nothing, the buttons still work). */
async function press(page: Page, key: string) {
  await expect(page.locator('[data-keys-ready="true"]')).toHaveCount(1);
  await page.keyboard.press(key);
}

/** The option a reviewer picks for an item: from the reply and question text (what they see), with each reviewer's own slant. */
function choose(reviewer: string, replyText: string, statement: string, options: number): number {
  const base = hash(replyText + statement) % options;
  const slant = reviewer === 'ravi' && hash(replyText) % 4 === 0 ? 1 : 0;
  return Math.min(options - 1, base + slant);
}

for (const reviewer of REVIEWERS) {
  test(`${reviewer} labels ${LABELS_EACH} verdicts and ${PAIRS_EACH} pairs with the keyboard alone`, async ({ page }, info) => {
    test.setTimeout(180_000);
    await signIn(page, gh.url, reviewer);
    await page.goto(`/review/${encodeURIComponent(blueprintId)}`);
    const item = page.locator('[data-item-id]');
    let undone = false;
    for (let n = 0; n < LABELS_EACH; n++) {
      await expect(item).toBeVisible();
      const id = await item.getAttribute('data-item-id');
      const replyText = await page.getByTestId('review-reply').innerText();
      const statement = await page.getByTestId('review-statement').innerText();
      const options = await page.locator('[data-testid^="review-option-"]').count();
      await expectBlinded(page);
      if (n === 3 && !undone) {
        // a slip: answer, undo with U, and the same item comes back to be answered again
        await press(page, String(((choose(reviewer, replyText, statement, options) + 1) % options) + 1));
        await expect(item).not.toHaveAttribute('data-item-id', id!);
        await press(page, 'u');
        await expect(item).toHaveAttribute('data-item-id', id!);
        undone = true;
      }
      await press(page, String(choose(reviewer, replyText, statement, options) + 1));
      await expect(item).not.toHaveAttribute('data-item-id', id!);
      if (n === 0) await screenshot(page, info, `review-1-${reviewer}-item`);
    }
    await page.goto(`/review/${encodeURIComponent(blueprintId)}/pairs`);
    const pair = page.locator('[data-pair-id]');
    for (let n = 0; n < PAIRS_EACH; n++) {
      await expect(pair).toBeVisible();
      const id = await pair.getAttribute('data-pair-id');
      await expectBlinded(page);
      const a = await page.getByTestId('pair-reply-a').innerText();
      const b = await page.getByTestId('pair-reply-b').innerText();
      // prefer the reply that names heat, then the longer one; equal length is a tie
      const key = a.includes('heat') !== b.includes('heat') ? (a.includes('heat') ? 'a' : 'b') : a.length === b.length ? 't' : a.length > b.length ? 'a' : 'b';
      await press(page, key);
      // answered: the next pair (or the empty queue) replaces it
      await expect(page.locator(`[data-pair-id="${id}"]`)).toHaveCount(0);
      if (n === 0) await screenshot(page, info, `review-2-${reviewer}-pair`);
    }
    const live = await store.db.reviewLabel.count({ where: { reviewer: { githubLogin: reviewer }, action: 'label', undoneAt: null, removedAt: null } });
    expect(live).toBe(LABELS_EACH);
    expect(await store.db.reviewLabel.count({ where: { reviewer: { githubLogin: reviewer }, undoneAt: { not: null } } })).toBe(1);
    expect(await store.db.pairLabel.count({ where: { reviewer: { githubLogin: reviewer }, action: 'label', undoneAt: null, removedAt: null } })).toBe(PAIRS_EACH);
  });
}

// ───────────── the hand computation, from the stored labels and the judges' stored answers ─────────────

/** A 5-class distribution's value: the expected class ÷ 4. */
const classValue = (d: Record<string, number>) => CLASSES.reduce((acc, c, i) => acc + (d[c] ?? 0) * (i / 4), 0) / CLASSES.reduce((acc, c) => acc + (d[c] ?? 0), 0);
const classArgmax = (d: Record<string, number>) => CLASSES.reduce((best, c, i) => ((d[c] ?? 0) > (d[CLASSES[best]!] ?? 0) ? i : best), 0);

/** Krippendorff's α, interval metric, from its definition: 1 − D_o / D_e over pairable values. */
function alphaByHand(units: number[][]): number {
  const pairable = units.filter((u) => u.length >= 2);
  const values = pairable.flat();
  const n = values.length;
  let observed = 0;
  for (const u of pairable) for (let i = 0; i < u.length; i++) for (let j = 0; j < u.length; j++) if (i !== j) observed += (u[i]! - u[j]!) ** 2 / (u.length - 1);
  let expected = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) expected += (values[i]! - values[j]!) ** 2;
  return 1 - observed / n / (expected / (n * (n - 1)));
}

/** Cohen's κ with quadratic weights over five ordered options, from the agreement table. */
function quadraticKappaByHand(pairs: Array<[number, number]>): number {
  const k = 5;
  const table = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (const [a, b] of pairs) table[a]![b]!++;
  const n = pairs.length;
  const rows = table.map((r) => r.reduce((x, y) => x + y, 0));
  const cols = table[0]!.map((_v, j) => table.reduce((x, r) => x + r[j]!, 0));
  let o = 0;
  let e = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const w = ((i - j) / (k - 1)) ** 2;
      o += (w * table[i]![j]!) / n;
      e += (w * rows[i]! * cols[j]!) / (n * n);
    }
  }
  return 1 - o / e;
}

const fixed2 = (x: number) => x.toFixed(2);

/** How many labels the stored figures of `key` rest on (null: none stored yet). */
async function storedLabels(key: string): Promise<number | null> {
  const row = await store.db.humanFigures.findUnique({ where: { key }, select: { body: true } });
  return row ? (row.body as { labels: number }).labels : null;
}

test('the blueprint page shows calibration figures computed from exactly those labels', async ({ page }, info) => {
  const labels = await store.db.reviewLabel.findMany({ where: { action: 'label', undoneAt: null, removedAt: null }, include: { item: true } });
  expect(labels).toHaveLength(LABELS_EACH * REVIEWERS.length);
  const verdicts = new Map((await store.db.verdict.findMany({ where: { id: { in: [...new Set(labels.map((l) => l.item.verdictId))] } } })).map((v) => [v.id, v]));
  const byItem = new Map<string, typeof labels>();
  for (const l of labels) byItem.set(l.item.verdictId, [...(byItem.get(l.item.verdictId) ?? []), l]);
  // both reviewers labelled the same 20 items (each item wanted two reviewers)
  expect(byItem.size).toBe(LABELS_EACH);

  const panelValue = (id: string) => classValue(verdicts.get(id)!.distribution as Record<string, number>);
  const human = (id: string) => byItem.get(id)!.map((l) => CLASSES.indexOf(l.answer!) / 4);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const ids = [...byItem.keys()];
  const alpha = alphaByHand(ids.map((id) => [panelValue(id), mean(human(id))]));
  const humanAlpha = alphaByHand(ids.map(human));
  const kappa = quadraticKappaByHand(labels.map((l) => [classArgmax(verdicts.get(l.item.verdictId)!.distribution as Record<string, number>), CLASSES.indexOf(l.answer!)]));
  const bias = mean(ids.map((id) => panelValue(id) - mean(human(id))));
  // expected calibration error over ten equal bins of the panel's value
  const bins = new Map<number, Array<{ p: number; y: number }>>();
  for (const id of ids) {
    const p = panelValue(id);
    const b = Math.min(9, Math.floor(p * 10));
    bins.set(b, [...(bins.get(b) ?? []), { p, y: mean(human(id)) }]);
  }
  const ece = [...bins.values()].reduce((acc, xs) => acc + (xs.length / ids.length) * Math.abs(mean(xs.map((x) => x.y)) - mean(xs.map((x) => x.p))), 0);

  // an answer is stored at once and its figures follow it: wait until they rest on every label
  await expect.poll(() => storedLabels(`blueprint:${blueprintId}`), { timeout: 30_000 }).toBe(labels.length);
  await page.goto(`/blueprints/${encodeURIComponent(blueprintId)}`);
  const section = page.getByTestId('human-calibration');
  await expect(section).toBeVisible();
  await expect(section).toContainText(`Judges checked against ${LABELS_EACH * REVIEWERS.length} human labels: α ${fixed2(alpha)}`);
  // the panel's row: α, weighted κ, bias (judge − people, signed) and the expected calibration error
  const panel = section.getByTestId('human-agreement-row').first();
  await expect(panel).toHaveAttribute('data-kind', 'panel');
  const cells = panel.locator('td');
  await expect(cells.nth(0)).toHaveText(new RegExp(`^${ids.length}\\b`));
  await expect(cells.nth(1)).toHaveText(new RegExp(`^${labels.length}\\b`));
  await expect(cells.nth(2).getByTestId('human-alpha')).toHaveText(`α ${fixed2(alpha)}`);
  await expect(cells.nth(3)).toContainText(fixed2(kappa));
  // signed as the page writes it ("+0.06", "−0.03", "±0.00" when it rounds to nothing)
  await expect(cells.nth(4)).toContainText(formatSigned(bias));
  await expect(cells.nth(5)).toContainText(fixed2(ece));
  // people with each other: the ceiling
  await expect(section.getByTestId('human-agreement-people').getByTestId('human-alpha')).toHaveText(`α ${fixed2(humanAlpha)}`);
  // each model's judge-only and prediction-powered scores are both there, and labelled as such
  await expect(section.getByTestId('ppi-row')).toHaveCount(MODELS.length);
  await expect(section).toContainText('Prediction-powered');
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, info, 'review-3-blueprint-calibration');

  // the same figures, stored once, on the methodology page (every blueprint together: this one alone here)
  await page.goto('/methodology');
  await expect(page.getByTestId('human-calibration')).toContainText(`α ${fixed2(alpha)}`);

  // and in `assay run`'s report, now that people have labelled this blueprint
  const again = await runAgain();
  expect(again.code, again.out).toBe(0);
  expect(again.out).toContain(`people: judges checked against ${labels.length} human labels: α ${fixed2(alpha)}`);
});

test('people’s pairwise preferences make a ranking of their own beside the rubric board', async ({ page }, info) => {
  const live = await store.db.pairLabel.count({ where: { action: 'label', undoneAt: null, removedAt: null } });
  expect(live).toBe(PAIRS_EACH * REVIEWERS.length);
  await expect.poll(() => storedLabels('pairs'), { timeout: 30_000 }).toBe(live);
  await page.goto('/?board=people');
  const board = page.getByTestId('pairwise-board');
  await expect(board).toBeVisible();
  await expect(board.getByTestId('pairwise-row')).toHaveCount(MODELS.length);
  await expect(page.getByTestId('pairwise-counts')).toContainText(`${live} preferences from 2 reviewers`);
  await expect(page.getByTestId('pairwise-correlation')).toContainText(/Spearman ρ −?\d\.\d\d, Kendall τ −?\d\.\d\d on 4 models/);
  await screenshot(page, info, 'review-4-pairwise-board');
});

test('removing a reviewer’s labels recomputes the figures from the rest', async ({ page }) => {
  await adminSignIn(page);
  const section = page.locator('section[aria-labelledby="review"]');
  await section.getByTestId('admin-remove-login').fill('ravi');
  await section.getByTestId('admin-remove-confirm').check();
  await section.getByTestId('admin-remove-submit').click();
  await expect(page.getByText(/removed/i).first()).toBeVisible();
  await page.goto(`/blueprints/${encodeURIComponent(blueprintId)}`);
  await expect(page.getByTestId('human-calibration-headline')).toContainText(`Judges checked against ${LABELS_EACH} human labels`);
});
