/**
 * `assay split` seals the test side, and nothing of it shows (issue 12): a 40-case blueprint is
 * split by lineage with the real command (12 cases, 6 lineages, sealed), run twice through the
 * real pipeline (`assay run` as a child process, the fake LLM server as the provider, whose
 * reply echoes each prompt's marker word) into a fresh PostgreSQL database, and `next start`
 * serves it. Then every page reachable by a link from the home page, every page and API route
 * that lists or shows prompts, replies or verdicts (run, model, diff, progress, search,
 * compare, drift, methodology, blueprint, source) is fetched, whole document with the data the
 * page hydrates from, and none may hold a sealed prompt's id or marker; the sealed prompts' own
 * addresses are 404s. The visible prompts' ids do show (the check can fail).
 */
import { expect, test } from '@playwright/test';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase, type TestDatabase } from '@/lib/server/db/db.testkit';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { fortyCaseBlueprint, sealedPattern } from '@/testing/split-suite';
import { runAssay as assay, startAppServer, type AppServer } from './app-server';

const PORT = Number(process.env.E2E_SPLIT_PORT ?? 3510);
const BASE = `http://127.0.0.1:${PORT}`;
const MODELS = ['openai:model-a', 'openai:model-b'];

let llm: FakeLlm;
let store: TestDatabase;
let app: AppServer;
let sealed: RegExp;
let sealedIds: string[];
let visibleIds: string[];
let blueprintId: string;
let runIds: string[];


test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  llm = await startFakeLlm({ rules: [], port: PORT + 1 });
  store = await freshDatabase('postgres');
  const dir = await mkdtemp(join(tmpdir(), 'assay-split-e2e-'));
  const file = join(dir, 'support-split.yml');
  await writeFile(file, fortyCaseBlueprint(MODELS));
  const split = await assay(['split', '--test-share', '0.25', '--seed', '7', '--min-per-side', '1', file]);
  expect(split.code, split.out).toBe(0);
  const text = await readFile(file, 'utf8');
  sealedIds = [...text.matchAll(/^- id: (\S+)\n {2}split: test$/gm)].map((m) => m[1]!);
  visibleIds = [...text.matchAll(/^- id: (\S+)\n {2}split: dev$/gm)].map((m) => m[1]!);
  expect([sealedIds.length, visibleIds.length]).toEqual([12, 28]);
  sealed = sealedPattern(sealedIds);

  const env = { DATABASE_URL: store.url, ASSAY_LLM_BASE_URL: llm.url, ASSAY_DATA_DIR: 'memory://', OPENAI_API_KEY: 'sk-test' };
  app = startAppServer({ port: PORT, env: { ...env, ASSAY_PUBLIC_URL: BASE } });
  // two runs (both models, then one) so there is a diff page too
  for (const models of [MODELS, MODELS.slice(0, 1)]) {
    const run = await assay(['run', file, '--models', models.join(','), '--quiet'], env);
    expect(run.code, run.out).toBe(0);
    expect(run.out).not.toMatch(sealed);
  }
  const runs = await store.db.run.findMany({ orderBy: { createdAt: 'asc' }, select: { id: true, blueprintId: true } });
  runIds = runs.map((r) => r.id);
  blueprintId = runs[0]!.blueprintId;
  expect(await store.db.versionPrompt.count({ where: { split: 'test' } })).toBe(12);
  await app.ready('/');
});

test.afterAll(async () => {
  await app?.stop();
  await Promise.all([llm?.close(), store?.close()]);
});

test.use({ baseURL: BASE });

/** Same-origin links of a page, without fragments; not the sign-in and admin pages (no session here). */
function links(html: string): string[] {
  const out = new Set<string>();
  for (const m of html.matchAll(/href="(\/[^"#]*)/g)) {
    const href = m[1]!.replace(/&amp;/g, '&');
    if (/^\/(_next|api\/auth|admin|favicon)/.test(href)) continue;
    out.add(href);
  }
  return [...out];
}

test('no page or API answer shows a sealed prompt of a split suite', async ({ request }) => {
  test.setTimeout(300_000);
  const [run, older] = runIds as [string, string];
  const model = encodeURIComponent(MODELS[0]!);
  const listed = [
    '/',
    '/search?q=kestrel',
    '/search?q=kestrel&kind=prompts',
    '/search?q=policy&kind=prompts',
    '/search?q=Fake+reply',
    '/search?q=support',
    '/methodology',
    '/drift',
    `/compare?a=${model}&b=${encodeURIComponent(MODELS[1]!)}`,
    `/blueprints/${blueprintId}`,
    `/blueprints/${blueprintId}/source`,
    ...runIds.flatMap((id) => [
      `/runs/${id}`,
      `/runs/${id}?view=models`,
      `/runs/${id}?view=points`,
      `/runs/${id}?sort=hardest`,
      `/runs/${id}/models/${model}`,
      `/runs/${id}/models/${model}?sort=position`,
      `/runs/${id}/progress`,
      `/api/runs/${id}/progress`,
    ]),
    `/runs/${older}/diff/${run}`,
    `/runs/${run}/diff/${older}`,
    `/models/${model}`,
    ...visibleIds.slice(0, 4).map((id) => `/runs/${run}/prompts/${id}?model=${model}`),
  ];
  // …and every page a link leads to, from those (breadth first, at most 400 pages)
  const seen = new Set<string>();
  const queue = [...listed];
  let visibleShown = 0;
  while (queue.length > 0 && seen.size < 400) {
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const res = await request.get(url);
    const body = await res.text();
    expect(res.status(), url).toBeLessThan(500);
    expect(body, url).not.toMatch(sealed);
    if (visibleIds.some((id) => body.includes(id))) visibleShown++;
    if ((res.headers()['content-type'] ?? '').includes('text/html')) for (const link of links(body)) if (!seen.has(link)) queue.push(link);
  }
  console.log(`split-sealed: fetched ${seen.size} pages and API answers; ${visibleShown} show a visible prompt's id`);
  // the crawl reached the prompt pages of the visible prompts, and they do show their ids
  expect([...seen].filter((u) => u.includes('/prompts/')).length).toBeGreaterThanOrEqual(28);
  expect(visibleShown).toBeGreaterThan(20);

  // the sealed prompts' own addresses do not exist, and echo nothing but the key typed in the URL
  for (const id of sealedIds.slice(0, 4)) {
    for (const url of [`/runs/${run}/prompts/${id}`, `/runs/${run}/prompts/${id}?model=${model}`, `/runs/${run}/prompts/${id}/points/0`]) {
      const res = await request.get(url);
      expect(res.status(), url).toBe(404);
      expect(await res.text(), url).not.toMatch(sealedPattern(sealedIds.filter((s) => s !== id)));
    }
  }
});
