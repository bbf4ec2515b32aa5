/**
 * A soev project run as a soev user runs it, files unchanged: `assay run project.yml` in a child
 * process on a real database, the system under test the fake's soev threads API (an HTTP
 * system that answers with citations), the judge the fake LLM; then what the run stored, its
 * `--json` document with the scores per category and rule, and the sync of the same folder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { criterionKindNames, extractCitations } from '@/lib/core';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { SOEV_EXAMPLE_RULES } from '@/testing/fakes/soev-example-rules';
import { assay as runAssay, REPO_ROOT } from '@/lib/cli/cli.testkit';
import { freshDatabase, type TestDatabase } from '@/lib/server/db/db.testkit';
import { getRunGroups } from '@/lib/server/db/queries/run-groups';
import { localFolderReader } from '@/lib/server/blueprints/local-folder-reader';
import { syncSource } from '@/lib/server/blueprints/sync-source';

let dir: string;
let t: TestDatabase;
let fake: FakeLlm;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assay-soev-'));
  await cp(join(REPO_ROOT, 'blueprints/soev-example'), join(dir, 'soev-example'), { recursive: true });
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: SOEV_EXAMPLE_RULES });
});
afterAll(async () => {
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
  await t?.close();
});

const env = () => ({
  DATABASE_URL: t.url,
  ASSAY_LLM_BASE_URL: fake.url,
  SOEV_URL: `${fake.origin}/soev`,
  SOEV_TOKEN: 'tok-soev',
  SOEV_SUBJECT: 'tester',
  ASSAY_HTTP_MODEL_ORIGINS: fake.origin,
  ASSAY_HTTP_MODEL_ENV: `SOEV_TOKEN@${fake.origin},SOEV_SUBJECT@${fake.origin}`,
});

type Doc = { run: { id: string; blueprintId: string; status: string; scores: { model: string; score: number }[]; groups: { model: string; pass: { passed: number; attempts: number }; byCategory: { key: string; score: number; prompts: number; pass: { passed: number; attempts: number } }[]; byRule: { key: string; score: number; pass: { passed: number; attempts: number } }[] }[] } };

describe(`assay run of a soev project (${process.env.ASSAY_TEST_DB})`, () => {
  it('runs every suite against the soev system, grades every criterion kind, and reports per category and rule', { timeout: 120_000 }, async () => {
    const out = join(dir, 'out.json');
    const r = await runAssay(['run', join(dir, 'soev-example/project.yml'), '--judges', 'openai:judge', '--json', out, '--quiet'], undefined, env());
    expect(r.code, r.stderr).toBe(0);
    // two suites, two runs; runs.k = 2 attempts of each case
    expect(r.stdout.match(/replies: {2}\d+ of \d+ done/g)).toEqual(['replies:  6 of 6 done', 'replies:  4 of 4 done']);
    const huur = JSON.parse(await readFile(join(dir, 'out.suites__huur.json'), 'utf8')) as Doc;
    const grenzen = JSON.parse(await readFile(join(dir, 'out.suites__grenzen.json'), 'utf8')) as Doc;
    expect([huur.run.status, grenzen.run.status]).toEqual(['completed', 'completed']);
    // each suite's title and description from the project's `extensions.assay.suites`, as the blueprint list shows them
    const titles = await t.db.blueprint.findMany({ where: { id: { in: [huur.run.blueprintId, grenzen.run.blueprintId] } }, select: { id: true, title: true, description: true }, orderBy: { id: 'asc' } });
    expect(titles.map((b) => [b.title, b.description?.slice(0, 40)])).toEqual([
      ['What the rent assistant declines', 'A request outside rent law gets the fixe'],
      ['Rent questions, one rule each', 'Deposit and maintenance questions a tena'],
    ]);

    // Every kind of the registry left verdicts, stored under its name, with the statuses the
    // example is written for (testing/fakes/soev-example-rules.ts); each count is ×2 attempts.
    const counts = await t.db.verdict.groupBy({ by: ['fn', 'status'], where: { runId: { in: [huur.run.id, grenzen.run.id] }, fn: { in: [...criterionKindNames] } }, _count: { _all: true } });
    const byKind: Record<string, Record<string, number>> = {};
    for (const c of counts) (byKind[c.fn!] ??= {})[c.status] = c._count._all;
    expect(byKind).toEqual({
      'reply.max_length': { pass: 10 },
      'reply.language': { pass: 6 },
      'reply.contains': { pass: 2, fail: 2 },
      'reply.regex': { pass: 2 },
      'behaviour.expected': { pass: 6 },
      'behaviour.message': { pass: 2 },
      'refusal.code': { pass: 2, not_applicable: 2 },
      'nuggets.coverage': { fail: 2 },
      'rubric.judge': { pass: 4, error: 2 },
      'citations.required': { pass: 4 },
      'citations.forbidden': { pass: 2, not_applicable: 8 },
      'citations.unseen': { pass: 2, fail: 2 },
      'citations.mentions_in_corpus': { pass: 4, fail: 2 },
      'compare.substance': { fail: 2 },
      'compare.structured': { pass: 2 },
    });
    expect(Object.keys(byKind).sort()).toEqual(criterionKindNames);

    // R2-01 in order: the project's invariants, the suite's defaults, then the case's criteria
    const r201 = await t.db.verdict.findMany({ where: { runId: huur.run.id, promptKey: 'R2-01', reply: { attempt: 0 } }, orderBy: { pointIndex: 'asc' }, select: { fn: true, status: true, weight: true, gate: true, detail: true, data: true } });
    expect(r201.map((v) => [v.fn, v.status])).toEqual([
      ['reply.max_length', 'pass'],
      ['citations.forbidden', 'pass'],
      ['reply.language', 'pass'],
      ['citations.mentions_in_corpus', 'fail'],
      ['reply.contains', 'fail'],
      ['citations.unseen', 'fail'],
      ['compare.substance', 'fail'],
      ['compare.structured', 'pass'],
      ['rubric.judge', 'error'],
    ]);
    expect(r201[0]!.gate).toBe(true);
    // the citations came from the soev reply's body (replies.structured) through the project's mapping
    expect(r201[5]).toMatchObject({ detail: '1 cited source the case does not name: bw7/7 (at most 0 allowed)', data: { unseen: ['bw7/7'] } });
    expect(r201[3]).toMatchObject({ data: { mentioned: ['bw7/240', 'bw7/7'], missing: ['bw7/7'] } });
    expect(r201[8]!.detail).toMatch(/^the judge could not answer: .*HTTP 400: judge unavailable/);
    const nuggets = await t.db.verdict.findFirstOrThrow({ where: { runId: huur.run.id, promptKey: 'R1-01', fn: 'nuggets.coverage' }, select: { weight: true, detail: true } });
    expect(nuggets).toEqual({ weight: 2, detail: '1 of 2 vital nuggets covered (50%; needs 100%)' });

    // Worked numbers (soev scoring: weight passed / weight passed+failed over the non-gate
    // criteria; n/a and error left out): R1-01 passes 5 of weight 1 and fails nuggets (weight 2):
    // 5/7; R1-02 passes all: 1; R2-01 passes forbidden, language, structured (3), fails 4: 3/7.
    const model = huur.run.scores[0]!;
    expect(model.model).toBe('soev:huurwijzer');
    expect(model.score).toBeCloseTo((5 / 7 + 1 + 3 / 7) / 3, 6);
    const groups = huur.run.groups[0]!;
    // per attempt: only R1-02 has every criterion pass or n/a
    expect(groups.pass).toEqual({ passed: 2, attempts: 6, rate: 2 / 6 });
    expect(groups.byCategory.map((g) => [g.key, g.prompts, g.score])).toEqual([['deposit', 2, expect.closeTo((5 / 7 + 1) / 2, 6)], ['maintenance', 1, expect.closeTo(3 / 7, 6)]]);
    expect(groups.byRule.map((g) => [g.key, g.score, g.pass])).toEqual([['R1', expect.closeTo(6 / 7, 6), { passed: 2, attempts: 4, rate: 0.5 }], ['R2', expect.closeTo(3 / 7, 6), { passed: 0, attempts: 2, rate: 0 }]]);
    expect(grenzen.run.groups[0]!.byCategory.map((g) => [g.key, g.score, g.pass.passed])).toEqual([['out_of_scope', 1, 2], ['smalltalk', 1, 2]]);
    expect(await getRunGroups(t.db, huur.run.id)).toMatchObject({ models: [{ model: 'soev:huurwijzer', byRule: [{ key: 'R1' }, { key: 'R2' }] }] });

    // the variant ran on its own conversation, once per attempt, its body stored for compare.structured
    const variants = await t.db.variantReply.findMany({ where: { runId: huur.run.id }, orderBy: { attempt: 'asc' }, select: { promptKey: true, name: true, attempt: true, content: true, structured: true } });
    expect(variants.map((v) => [v.promptKey, v.name, v.attempt, v.content])).toEqual([
      ['R2-01', 'informeel', 0, 'Dat hangt af van het soort onderhoud aan de ketel.'],
      ['R2-01', 'informeel', 1, 'Dat hangt af van het soort onderhoud aan de ketel.'],
    ]);
    expect((variants[0]!.structured as { reply: { citations: { metadata: { unit_id: string } }[] } }).reply.citations.map((c) => c.metadata.unit_id)).toEqual(['bw7/240', 'bw7/7']);

    // the HTTP system's reply body is stored; the one citation mapping reads the cited ids from it
    const reply = await t.db.reply.findFirstOrThrow({ where: { runId: huur.run.id, promptKey: 'R1-02', attempt: 0 }, select: { content: true, structured: true, turns: true } });
    expect(reply.content).toBe('U kunt de te veel betaalde borg van de verhuurder terugvorderen.');
    expect(extractCitations({ text: reply.content, structured: reply.structured }, { mapping: { path: 'reply.citations.metadata.unit_id', regex: '^(bw7/\\d+(?:/\\d+)?)' }, pattern: null, match: 'hierarchical' }).map((c) => c.id)).toEqual(['bw7/261']);
    // two turns: the first reply (citing bw7/261/1) is in the conversation
    expect((reply.turns as { role: string; content: string }[]).map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    // every soev call carried the agent and its knowledge keys (the fake refuses one without the subject header)
    const soevCalls = fake.requests().filter((x) => x.dialect === 'soev');
    expect(soevCalls.length).toBeGreaterThanOrEqual(7);
    expect(soevCalls.every((x) => x.status === 200 && x.request.model === 'soev:huurwijzer')).toBe(true);
  });

  it('a sync of the folder stores each suite as a blueprint and the project file as none', async () => {
    const s = await syncSource({ db: t.db }, localFolderReader(join(dir, 'soev-example')), { trigger: 'test' });
    expect(s.errors).toEqual([]);
    expect(s.invalid).toBe(0);
    const stored = await t.db.blueprint.findMany({ where: { sourceId: s.sourceId }, select: { id: true }, orderBy: { id: 'asc' } });
    expect(stored.map((b) => b.id)).toEqual(['suites__grenzen', 'suites__huur']);
    // the same files as the run above: the same blueprints (ids by path), now at the synced version
    const latest = await t.db.blueprint.findUniqueOrThrow({ where: { id: 'suites__huur' }, select: { latestVersionId: true } });
    const prompts = await t.db.versionPrompt.findMany({ where: { versionId: latest.latestVersionId! }, select: { promptKey: true, category: true }, orderBy: { position: 'asc' } });
    expect(prompts).toEqual([{ promptKey: 'R1-01', category: 'deposit' }, { promptKey: 'R1-02', category: 'deposit' }, { promptKey: 'R2-01', category: 'maintenance' }]);
  });
});
