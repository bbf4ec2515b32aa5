/**
 * The public API on the demo (the whole pipeline against the fake provider: several blueprints,
 * repeated runs, a live run, judges, sealed prompts, tool calls): every answer of every endpoint,
 * every list walked to its end, is valid against the OpenAPI document; the leaderboard's figures
 * are the stored board's; the sealed prompts' keys never appear.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { seedDemo, type DemoProvider, type SeededDemo } from '../db/seed/seed-demo';
import { contractOf, getV1, type V1Answer } from './api-v1.testkit';

let t: TestDatabase;
let fake: FakeLlm;
let demo: SeededDemo;
let check: (a: V1Answer) => string[];
const seen: V1Answer[] = [];

/** One call, checked against the document; the demo makes more calls than one client's limit allows, so the window is reset first. */
async function get(path: string): Promise<V1Answer> {
  await t.db.rateLimit.deleteMany({});
  const a = await getV1(path);
  expect(check(a), path).toEqual([]);
  seen.push(a);
  return a;
}

async function walk<T>(path: string, limit: number): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const a = await get(`${path}${path.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(a.status, path).toBe(200);
    const page = a.body as { items: T[]; next_cursor: string | null };
    items.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor && ++pages < 500);
  return items;
}

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm();
  const provider: DemoProvider = { url: fake.url, setRules: (rules) => fake.setRules(rules) };
  demo = await seedDemo(t.db, provider, { now: new Date('2026-11-30T12:00:00Z') });
  process.env.DATABASE_URL = t.url;
  check = contractOf((await getV1('/api/v1/openapi.json')).body as Parameters<typeof contractOf>[0]);
}, 300_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

describe(`/api/v1 on the demo (${process.env.ASSAY_TEST_DB})`, () => {
  it('answers every endpoint within its document, with the stored board’s figures and no sealed prompt', { timeout: 240_000 }, async () => {
    const board = (await get('/api/v1/leaderboard')).body as { ranked: { model_id: string; score: number | null; ci_low: number | null; rank: number | null; band: unknown }[]; unranked: { model_id: string; score: number | null }[] };
    const stored = (await t.db.boardSnapshot.findUniqueOrThrow({ where: { key: 'all' } })).body as { ranked: { modelId: string; score: number | null; ciLow: number | null; rank: number | null; band: unknown }[] };
    expect(board.ranked.length).toBeGreaterThan(1);
    expect(board.ranked.map((r) => [r.model_id, r.score, r.ci_low, r.rank, r.band])).toEqual(stored.ranked.map((r) => [r.modelId, r.score, r.ciLow, r.rank, r.band]));

    const blueprints = await walk<{ id: string; tags: string[] }>('/api/v1/blueprints', 2);
    expect(blueprints.map((b) => b.id)).toEqual(expect.arrayContaining(Object.values(demo).map((d) => d.blueprintId)));
    expect(new Set(blueprints.map((b) => b.id)).size).toBe(blueprints.length);
    for (const tag of [...new Set(blueprints.flatMap((b) => b.tags))]) expect((await get(`/api/v1/leaderboard?tag=${encodeURIComponent(tag)}`)).status).toBe(200);

    const runIds = new Set<string>();
    for (const b of blueprints) {
      const detail = (await get(`/api/v1/blueprints/${encodeURIComponent(b.id)}`)).body as { runs: { id: string }[] };
      for (const r of detail.runs) runIds.add(r.id);
    }
    for (const d of Object.values(demo)) for (const id of d.runIds) expect(runIds.has(id)).toBe(true);
    // each pair of consecutive completed runs of a blueprint, as its history compares them
    for (const d of Object.values(demo)) {
      for (let i = 1; i < d.runIds.length; i++) expect((await get(`/api/v1/runs/${d.runIds[i - 1]}/compare/${d.runIds[i]}`)).status).toBe(200);
    }
    for (const runId of runIds) {
      const run = await get(`/api/v1/runs/${encodeURIComponent(runId)}`);
      expect(run.status).toBe(200);
      const prompts = await walk<{ prompt_key: string }>(`/api/v1/runs/${encodeURIComponent(runId)}/prompts`, 7);
      expect(new Set(prompts.map((p) => p.prompt_key)).size).toBe(prompts.length);
    }

    // each model's place on the overall board is the board's own entry for it
    for (const m of [...board.ranked.map((r) => ({ ...r, ranked: true })), ...board.unranked.map((r) => ({ ...r, ranked: false, rank: null }))]) {
      const model = await get(`/api/v1/models/${m.model_id}`);
      expect(model.status).toBe(200);
      const place = (model.body as { boards: { tag: string | null; ranked: boolean; rank: number | null; score: number | null }[] }).boards.find((p) => p.tag === null);
      expect(place, m.model_id).toMatchObject({ ranked: m.ranked, rank: m.rank, score: (m as { score: number | null }).score });
    }

    // the drift checks, every one and the flagged ones, with the stored figures, in the page's order
    const checks = await walk<{ id: string; flagged: boolean; difference: number | null; ci_low: number | null; mde: number | null; moved: { prompt_key: string }[] }>('/api/v1/drift?all=true', 2);
    const storedChecks = await t.db.driftCheck.findMany({ select: { id: true, flagged: true, difference: true, ciLow: true, mde: true } });
    expect(storedChecks.length, 'the demo has drift checks').toBeGreaterThan(0);
    expect(new Map(checks.map((c) => [c.id, [c.flagged, c.difference, c.ci_low, c.mde]]))).toEqual(new Map(storedChecks.map((c) => [c.id, [c.flagged, c.difference, c.ciLow, c.mde]])));
    expect(checks).toHaveLength(storedChecks.length);
    const flagged = await walk<{ id: string }>('/api/v1/drift', 1);
    expect(flagged.map((c) => c.id).sort()).toEqual(storedChecks.filter((c) => c.flagged).map((c) => c.id).sort());

    const everything = seen.map((a) => JSON.stringify(a.body)).join('\n');
    for (const key of Object.values(demo).flatMap((d) => d.sealedKeys)) expect(everything).not.toContain(`"${key}"`);
  });
});
