/**
 * Nothing of a sealed prompt and nothing of a draft run leaves through `/api/v1`. For every
 * spelling of `split: test` the parser accepts, a blueprint is stored and run against the fake LLM
 * (whose replies echo the prompt, so a sealed prompt's reply carries "SECRET" too); one blueprint
 * also gets a draft (try-it) run with a model of its own. Then every endpoint is called, every
 * list walked to its end, and no answer may hold "SECRET", the draft run's id or its model's results;
 * the draft run answers 404 exactly like an unknown id. An author's draft blueprint (in the drafts
 * source, with its own draft run) is not listed and answers 404 too.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { SEALED_SPELLINGS } from '../blueprints/sealed-spellings.testkit';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { executeRun } from '../runs/engine/execute-run';
import { requestRun } from '../runs/request-run';
import { DRAFTS_SOURCE_KEY } from '../runs/draft-visibility';
import { fakeDeps, noDispatch, storeBlueprint } from '../runs/runs.testkit';
import { contractOf, getV1, type V1Answer } from './api-v1.testkit';

let t: TestDatabase;
let fake: FakeLlm;
let check: (a: V1Answer) => string[];
const MODEL = 'openai:model-1';
const DRAFT_MODEL = 'openai:draft-only';
const runs: { name: string; blueprintId: string; runId: string }[] = [];
let draftRunId = '';
let secondRunId = '';
/** An author's draft blueprint (try it), as try-draft.ts keeps it: in the drafts source, hidden, with a draft run. */
let draftBlueprint = { id: '', runId: '' };

const DEFAULTS = { judges: [], defaultCollection: 'CORE', judgeSamples: 1 };

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm();
  const deps = await fakeDeps(t.db, fake.url, { sandbox: false });
  for (const s of SEALED_SPELLINGS) {
    const { blueprintId } = await storeBlueprint(t.db, s.file, s.text);
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', models: [MODEL] }, noDispatch, DEFAULTS);
    expect(await executeRun(deps, runId), s.name).toBe('completed');
    runs.push({ name: s.name, blueprintId, runId });
  }
  // a second public run of the first blueprint (another model set, so another run), for the comparison
  const second = await requestRun(t.db, { blueprintId: runs[0]!.blueprintId, trigger: 'cli', models: [MODEL, 'openai:model-2'] }, noDispatch, DEFAULTS);
  expect(await executeRun(deps, second.runId)).toBe('completed');
  secondRunId = second.runId;
  // a draft run on a public blueprint: the hardest place to leave it out (its blueprint is listed)
  const { runId } = await requestRun(t.db, { blueprintId: runs[0]!.blueprintId, trigger: 'try', models: [DRAFT_MODEL], draft: true }, noDispatch, DEFAULTS);
  expect(await executeRun(deps, runId)).toBe('completed');
  draftRunId = runId;
  const drafted = await storeBlueprint(t.db, 'my-draft.yml', 'title: DRAFTTITLE\nmodels: [openai:model-1]\n---\n- id: DRAFTPROMPT\n  prompt: DRAFTTEXT?\n  should: ["$icontains: DRAFT"]\n');
  const drafts = await t.db.blueprintSource.upsert({ where: { key: DRAFTS_SOURCE_KEY }, create: { key: DRAFTS_SOURCE_KEY, kind: 'local' }, update: {} });
  await t.db.blueprint.update({ where: { id: drafted.blueprintId }, data: { sourceId: drafts.id, removedAt: new Date() } });
  const draftRun = await requestRun(t.db, { blueprintId: drafted.blueprintId, trigger: 'try', models: [MODEL], draft: true }, noDispatch, DEFAULTS);
  expect(await executeRun(deps, draftRun.runId)).toBe('completed');
  draftBlueprint = { id: drafted.blueprintId, runId: draftRun.runId };
  process.env.DATABASE_URL = t.url;
  check = contractOf((await getV1('/api/v1/openapi.json')).body as Parameters<typeof contractOf>[0]);
}, 240_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});
// every request here comes from one client (no peer address in tests): each test starts a fresh window
// of the rate limit, which rate-limit.db.test.ts tests on its own
beforeEach(async () => {
  await t.db.rateLimit.deleteMany({});
});

/** Every page of a list, each answer checked against the document. */
async function walk(path: string): Promise<V1Answer[]> {
  const pages: V1Answer[] = [];
  let cursor: string | null = null;
  do {
    const a = await getV1(`${path}${path.includes('?') ? '&' : '?'}limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(check(a), path).toEqual([]);
    expect(a.status, path).toBe(200);
    pages.push(a);
    cursor = (a.body as { next_cursor: string | null }).next_cursor;
  } while (cursor && pages.length < 200);
  return pages;
}

async function one(path: string): Promise<V1Answer> {
  const a = await getV1(path);
  expect(check(a), path).toEqual([]);
  return a;
}

describe(`/api/v1 leaves out sealed prompts and draft runs (${process.env.ASSAY_TEST_DB})`, () => {
  it('the sealed prompts and the draft run are really there (so leaving them out is a real test)', async () => {
    const sealedReplies = await t.db.reply.findMany({ where: { runId: { in: runs.map((r) => r.runId) }, content: { contains: 'SECRET' } }, select: { id: true } });
    expect(sealedReplies.length).toBeGreaterThanOrEqual(SEALED_SPELLINGS.length);
    const draft = await t.db.runModelSummary.findMany({ where: { runId: draftRunId } });
    expect(draft.map((d) => d.modelId)).toEqual([DRAFT_MODEL]);
  });

  it('the draft run answers 404 in the same words as an unknown id', async () => {
    for (const suffix of ['', '/prompts', `/compare/${runs[0]!.runId}`]) {
      const draft = await one(`/api/v1/runs/${draftRunId}${suffix}`);
      const unknown = await one(`/api/v1/runs/no-such-run${suffix}`);
      expect(draft.status).toBe(404);
      expect(JSON.stringify(draft.body).replace(draftRunId, 'ID')).toBe(JSON.stringify(unknown.body).replace('no-such-run', 'ID'));
    }
  });

  it.each(SEALED_SPELLINGS.map((s) => s.name))('%s: no answer holds a sealed prompt or the draft run', async (name) => {
    const r = runs.find((x) => x.name === name)!;
    const answers: V1Answer[] = [
      await one(`/api/v1/runs/${r.runId}`),
      await one(`/api/v1/runs/${r.runId}/compare/${runs.find((x) => x !== r)!.runId}`),
      ...(await walk(`/api/v1/runs/${r.runId}/prompts`)),
      await one(`/api/v1/blueprints/${encodeURIComponent(r.blueprintId)}`),
      ...(await walk('/api/v1/blueprints')),
      await one('/api/v1/leaderboard'),
      await one(`/api/v1/models/${MODEL}`),
    ];
    // runs of different blueprints do not compare: the second answer is a 404, every other a 200
    expect(answers.map((a) => a.status)).toEqual(answers.map((_, i) => (i === 1 ? 404 : 200)));
    const text = answers.map((a) => JSON.stringify(a.body)).join('\n');
    // the views work: the visible prompt is listed, the sealed ones counted
    expect(text).toContain('OPEN-1');
    const prompts = answers[2]!.body as { total: number; sealed_count: number };
    expect(prompts).toMatchObject({ total: 1, sealed_count: SEALED_SPELLINGS.find((s) => s.name === name)!.sealed });
    expect(text).not.toMatch(/SECRET/);
    expect(text).not.toContain(draftRunId);
    expect(text).not.toContain(DRAFT_MODEL);
    expect(text).not.toMatch(/DRAFT(TITLE|PROMPT|TEXT)/);
    expect(text).not.toContain(draftBlueprint.runId);
    expect(text).not.toContain(`"${draftBlueprint.id}"`);
  });

  it('a comparison of two public runs holds no sealed prompt and no draft run', async () => {
    const a = await one(`/api/v1/runs/${runs[0]!.runId}/compare/${secondRunId}`);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ models: [{ model_id: MODEL }], models_only_in_newer: 1 });
    const text = JSON.stringify(a.body);
    expect(text).not.toMatch(/SECRET/);
    expect(text).not.toContain(draftRunId);
  });

  it('an author’s draft blueprint and its draft run answer 404 like unknown ones', async () => {
    for (const path of [`/api/v1/blueprints/${encodeURIComponent(draftBlueprint.id)}`, `/api/v1/runs/${draftBlueprint.runId}`, `/api/v1/runs/${draftBlueprint.runId}/prompts`]) {
      const a = await one(path);
      expect(a.status, path).toBe(404);
      expect(JSON.stringify(a.body), path).not.toMatch(/DRAFT(TITLE|PROMPT|TEXT)/);
    }
  });

  it('the draft run’s model has no public results', async () => {
    const a = await one(`/api/v1/models/${DRAFT_MODEL}`);
    if (a.status === 200) {
      expect(a.body).toMatchObject({ boards: [], blueprints: [], history: [] });
    } else {
      expect(a.status).toBe(404);
    }
    expect(JSON.stringify(a.body)).not.toContain(draftRunId);
  });
});
