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
import { extractCitations } from '@/lib/core/criteria/citations';
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
  fake = await startFakeLlm({ rules: [...SOEV_EXAMPLE_RULES, { model: 'judge', judge: { labels: { E: 1 } } }] });
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

type Doc = { run: { id: string; blueprintId: string; status: string; scores: { model: string; score: number }[]; groups: { model: string; pass: { passed: number; attempts: number }; byCategory: { key: string; score: number; prompts: number }[]; byRule: { key: string; score: number; pass: { passed: number; attempts: number } }[] }[] } };

describe(`assay run of a soev project (${process.env.ASSAY_TEST_DB})`, () => {
  it('runs every suite against the soev system, stores its citations, and reports per category and rule', { timeout: 120_000 }, async () => {
    const out = join(dir, 'out.json');
    const r = await runAssay(['run', join(dir, 'soev-example/project.yml'), '--judges', 'openai:judge', '--json', out, '--quiet'], undefined, env());
    expect(r.code, r.stderr).toBe(0);
    // two suites, two runs; runs.k = 2 attempts of each case
    expect(r.stderr.match(/replies: {2}\d+ of \d+ done/g)).toEqual(['replies:  6 of 6 done', 'replies:  4 of 4 done']);
    const huur = JSON.parse(await readFile(join(dir, 'out.huur.json'), 'utf8')) as Doc;
    expect(huur.run.status).toBe('completed');
    // R1-01 and R1-02 pass all four points; R2-01 misses "huurcommissie": 3 of 4 → 0.75
    const model = huur.run.scores[0]!;
    expect(model.model).toBe('soev:huurwijzer');
    expect(model.score).toBeCloseTo((1 + 1 + 0.75) / 3, 6);
    const groups = huur.run.groups[0]!;
    expect(groups.pass).toEqual({ passed: 4, attempts: 6, rate: 4 / 6 });
    expect(groups.byCategory.map((g) => [g.key, g.prompts, g.score])).toEqual([['deposit', 2, 1], ['maintenance', 1, 0.75]]);
    expect(groups.byRule.map((g) => [g.key, g.score, g.pass])).toEqual([['R1', 1, { passed: 4, attempts: 4, rate: 1 }], ['R2', 0.75, { passed: 0, attempts: 2, rate: 0 }]]);
    expect(await getRunGroups(t.db, huur.run.id)).toMatchObject({ models: [{ model: 'soev:huurwijzer', byRule: [{ key: 'R1' }, { key: 'R2' }] }] });

    // the project's invariant comes first on every case, before the suite default and the case's criteria
    const verdicts = await t.db.verdict.findMany({ where: { runId: huur.run.id, promptKey: 'R2-01' }, orderBy: [{ replyId: 'asc' }, { pointIndex: 'asc' }], select: { pointText: true, status: true } });
    expect(verdicts.slice(0, 4)).toEqual([
      { pointText: 'not_contains("As an AI language model")', status: 'pass' },
      { pointText: 'word_count_between([1,300])', status: 'pass' },
      { pointText: 'contains("verhuurder")', status: 'pass' },
      { pointText: 'contains("huurcommissie")', status: 'fail' },
    ]);
    // the HTTP system's reply body is stored; the project's citation mapping reads the cited ids from it
    const reply = await t.db.reply.findFirstOrThrow({ where: { runId: huur.run.id, promptKey: 'R1-02', attempt: 0 }, select: { content: true, structured: true, turns: true } });
    expect(reply.content).toBe('U kunt de te veel betaalde borg terugvorderen.');
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
    const prompts = await t.db.versionPrompt.findMany({ where: { version: { blueprint: { id: 'suites__huur', sourceId: s.sourceId } } }, select: { promptKey: true, category: true }, orderBy: { position: 'asc' } });
    expect(prompts).toEqual([{ promptKey: 'R1-01', category: 'deposit' }, { promptKey: 'R1-02', category: 'deposit' }, { promptKey: 'R2-01', category: 'maintenance' }]);
  });
});
