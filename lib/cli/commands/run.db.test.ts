/**
 * `assay run` as a user runs it: a child process on a real database, with fixed replies from
 * a Weval fixtures file (no provider at all) or the fake LLM server as judge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALPHA_MIN_UNITS } from '@/lib/core';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { assay as runAssay } from '@/lib/cli/cli.testkit';
import { freshDatabase, type TestDatabase } from '@/lib/server/db/db.testkit';
import { storeBlueprint } from '@/lib/server/runs/runs.testkit';

let dir: string;
let t: TestDatabase;
let fake: FakeLlm;

const assay = (args: string[], env: Record<string, string> = {}) => runAssay(args, undefined, { DATABASE_URL: t.url, ...env });

const BLUEPRINT = `title: Fixture run
models: [openai:alpha, openai:beta]
---
- id: remember
  messages:
    - user: "My order is 48213."
    - assistant: null
    - user: "Which order was it?"
  should:
    - $contains: "48213"
    - Confirms the order number
- id: greet
  prompt: Say hello.
  should:
    - $icontains: hello
`;

const FIXTURES = {
  responses: {
    remember: { default: { turns: ['Noted: order 48213.', 'It was order 48213.'] }, byModel: { 'openai:beta': { turns: ['Noted.', 'I do not remember.'] } } },
    greet: { default: 'Hello there!' },
  },
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assay-run-'));
  await writeFile(join(dir, 'fixture-run.yml'), BLUEPRINT);
  await writeFile(join(dir, 'fixtures.json'), JSON.stringify(FIXTURES));
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: [{ model: 'judge', judge: { labels: { E: 1 } } }] });
});
afterAll(async () => {
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
  await t?.close();
});

describe(`assay run (${process.env.ASSAY_TEST_DB})`, () => {
  it('runs from fixtures with no provider, fills generated turns in order, and writes the --json document', { timeout: 60_000 }, async () => {
    const out = join(dir, 'out.json');
    const r = await assay(['run', join(dir, 'fixture-run.yml'), '--fixtures', join(dir, 'fixtures.json'), '--judges', 'openai:judge', '--json', out, '--quiet'], {
      ASSAY_LLM_BASE_URL: fake.url,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/run \S+ completed\n {2}replies: {2}4 of 4 done \(4 answered, 0 failed\)/);
    const doc = JSON.parse(await readFile(out, 'utf8')) as {
      run: { status: string; scores: { model: string; score: number }[] };
      results: { prompt: string; model: string; attempt: number; reply: string; score: number; verdicts: { point: string; status: string; score: number; detail: string }[] }[];
    };
    expect(doc.run.status).toBe('completed');
    expect(doc.results).toHaveLength(4);
    const alpha = doc.results.find((x) => x.prompt === 'remember' && x.model === 'openai:alpha')!;
    expect(alpha).toMatchObject({ attempt: 0, reply: 'It was order 48213.', score: 1 });
    expect(alpha.verdicts).toEqual([
      { point: 'contains("48213")', status: 'pass', score: 1, detail: expect.any(String) },
      { point: 'Confirms the order number', status: 'pass', score: 1, detail: expect.any(String) },
    ]);
    const beta = doc.results.find((x) => x.prompt === 'remember' && x.model === 'openai:beta')!;
    expect(beta.reply).toBe('I do not remember.');
    expect(beta.verdicts[0]).toMatchObject({ status: 'fail', score: 0 });
    // No model was called (fixtures); only the judge was.
    expect(new Set(fake.requests().map((q) => q.request.model))).toEqual(new Set(['judge']));
  });

  it('reports how far two judges agreed (pooled α, disagreement, coverage) on stderr and in --json', { timeout: 60_000 }, async () => {
    // judge-a finds the order confirmed (E = 1), judge-b finds it absent (A = 0), on both replies:
    // values (1, 0) twice, both flagged as disagreement. Two verdicts are too few for α (the formula
    // would say −0.5 over them): the report says so, with no number
    fake.setRules([{ model: '^judge-b$', judge: { labels: { A: 1 } } }, { model: 'judge', judge: { labels: { E: 1 } } }]);
    try {
      const r = await assay(['run', join(dir, 'fixture-run.yml'), '--fixtures', join(dir, 'fixtures.json'), '--judges', 'openai:judge-a,openai:judge-b', '--json', '-', '--quiet'], { ASSAY_LLM_BASE_URL: fake.url });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('judges: too few verdicts to tell (2 units); 2 judged verdicts (2 with ≥ 2 judges, 100% flagged as disagreement); openai:judge-a#standard 2, openai:judge-b#prompt-aware 2 assessments');
      expect(r.stderr).not.toContain('self-judging'); // ids of an OpenAI-compatible endpoint tell no maker
      const doc = JSON.parse(r.stdout) as { run: { judgeReliability: { run: { alpha: unknown; pairable: number; disagreementShare: number; judges: { id: string; assessments: number; meanAbsDeviation: number }[] }; byModel: { modelId: string; reliability: { verdicts: number } }[] } } };
      const j = doc.run.judgeReliability;
      expect(j.run.alpha).toEqual({ kind: 'not-enough', minUnits: ALPHA_MIN_UNITS, units: 2, values: 4, pairs: 2 });
      expect(j.run).toMatchObject({ pairable: 2, disagreementShare: 1 });
      expect(j.run.judges).toEqual([expect.objectContaining({ id: 'openai:judge-a#standard', assessments: 2, meanAbsDeviation: 1 }), expect.objectContaining({ id: 'openai:judge-b#prompt-aware', assessments: 2, meanAbsDeviation: 1 })]);
      expect(j.byModel.map((m) => [m.modelId, m.reliability.verdicts])).toEqual([['openai:alpha', 1], ['openai:beta', 1]]);
    } finally {
      fake.setRules([{ model: 'judge', judge: { labels: { E: 1 } } }]);
    }
  });

  it('without a reachable judge, judged points are error verdicts (not zeros): the run completes, but no score rests on the function points alone (exit 1)', { timeout: 60_000 }, async () => {
    const r = await assay(['run', join(dir, 'fixture-run.yml'), '--fixtures', join(dir, 'fixtures.json'), '--judges', 'anthropic:claude-x', '--json', '-', '--quiet'], {
      ASSAY_LLM_BASE_URL: '',
      ANTHROPIC_API_KEY: '',
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/run \S+ completed/);
    expect(r.stderr).toMatch(/openai:alpha {2}\(score withheld: only 0 of 1 judged verdicts got a result \(under half\)\)/);
    expect(r.stderr).toMatch(/error verdicts:\n {2}2 × .*ANTHROPIC_API_KEY/);
    expect(r.stderr).toContain('error: no model has a score');
    const doc = JSON.parse(r.stdout) as { results: { prompt: string; model: string; score: number | null; verdicts: { point: string; status: string; score: number | null; detail: string }[] }[] };
    const judged = doc.results.flatMap((x) => x.verdicts).filter((v) => v.point === 'Confirms the order number');
    expect(judged.length).toBe(2);
    for (const v of judged) {
      expect(v.status).toBe('error');
      expect(v.score).toBeNull();
      expect(v.detail).toMatch(/ANTHROPIC_API_KEY/);
    }
    const alpha = doc.results.find((x) => x.prompt === 'remember' && x.model === 'openai:alpha')!;
    expect(alpha.score).toBe(1); // the attempt's score rests on the function point alone: shown per reply, never published as the model's
  });

  it('--judge-mode batched asks each reply\'s judged points in one call per judge; a bad mode is a usage error (exit 2)', { timeout: 60_000 }, async () => {
    fake.reset();
    const bad = await assay(['run', join(dir, 'fixture-run.yml'), '--judge-mode', 'batch', '--quiet']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--judge-mode must be per-point or batched, not "batch"');
    const r = await assay(['run', join(dir, 'fixture-run.yml'), '--fixtures', join(dir, 'fixtures.json'), '--judges', 'openai:judge-a', '--judge-mode', 'batched', '--json', '-', '--quiet'], { ASSAY_LLM_BASE_URL: fake.url });
    expect(r.code, r.stderr).toBe(0);
    // one judged point on each of the two replies of `remember`: two batched calls, one question each
    const judged = fake.requests().filter((q) => q.request.model === 'judge-a');
    expect(judged.map((q) => (q.request.messages.at(-1)!.content.match(/<QUESTION id="/g) ?? []).length)).toEqual([1, 1]);
    const runId = /assay: run (\S+)/.exec(r.stderr)![1]!;
    const v = await t.db.verdict.findFirstOrThrow({ where: { runId, kind: 'text' } });
    expect(v.detail).toContain('(batched: question A of 1 in one call per judge)');
  });

  it('runs the version of the file it was given, even when another writer makes another version the latest', { timeout: 120_000 }, async () => {
    // A dev server's sync storing the same blueprint id beside the CLI made `assay run` grade the
    // sync's version (the blueprint's latest), e.g. a soev suite without its project's models.
    const file = join(dir, 'raced.yml');
    const args = ['run', file, '--fixtures', join(dir, 'fixtures.json'), '--judges', 'openai:judge', '--quiet'];
    const env = { ASSAY_LLM_BASE_URL: fake.url };
    await writeFile(file, BLUEPRINT.replace('Fixture run', 'Raced run'));
    expect((await assay(args, env)).code).toBe(0); // stores the blueprint: its id and path, for the other writer
    const bp = await t.db.blueprint.findFirstOrThrow({ where: { path: { endsWith: 'raced.yml' } }, select: { id: true, path: true } });
    const given = `${BLUEPRINT.replace('Fixture run', 'Raced run')}# the second run's text\n`;
    await storeBlueprint(t.db, bp.path, given.replace('models: [openai:alpha, openai:beta]', 'models: [openai:gamma]'));
    const { latestVersionId: otherVersion } = await t.db.blueprint.findUniqueOrThrow({ where: { id: bp.id }, select: { latestVersionId: true } });
    // The other writer, played by the database: whenever a version becomes the latest, it makes
    // its own the latest again in the same transaction, so it has always won the race by the
    // time the CLI reads the blueprint back.
    await t.db.$executeRawUnsafe(`CREATE FUNCTION other_writer() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.latest_version_id <> '${otherVersion}' THEN UPDATE blueprints SET latest_version_id = '${otherVersion}' WHERE id = NEW.id; END IF;
        RETURN NEW;
      END $$`);
    await t.db.$executeRawUnsafe(`CREATE TRIGGER other_writer AFTER UPDATE OF latest_version_id ON blueprints FOR EACH ROW WHEN (NEW.id = '${bp.id}') EXECUTE FUNCTION other_writer()`);
    try {
      await writeFile(file, given);
      const r = await assay(args, env);
      expect(r.code, r.stderr).toBe(0);
    } finally {
      await t.db.$executeRawUnsafe('DROP TRIGGER other_writer ON blueprints');
      await t.db.$executeRawUnsafe('DROP FUNCTION other_writer()');
    }
    expect((await t.db.blueprint.findUniqueOrThrow({ where: { id: bp.id }, select: { latestVersionId: true } })).latestVersionId).toBe(otherVersion);
    const run = await t.db.run.findFirstOrThrow({ where: { blueprintId: bp.id }, orderBy: { createdAt: 'desc' }, select: { models: true, version: { select: { rawText: true } } } });
    expect(run.version.rawText).toBe(given);
    expect(JSON.stringify(run.models)).not.toContain('gamma');
  });

  it('reports a broken blueprint with file:line:col and exits 1, storing nothing', async () => {
    await writeFile(join(dir, 'broken.yml'), 'title: Broken\n---\n- id: a\n  prompt: hi\n  should:\n    - $contians: x\n');
    const r = await assay(['run', join(dir, 'broken.yml'), '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/broken\.yml:6:\d+: .*contians/);
    expect(await t.db.blueprint.count({ where: { id: 'broken' } })).toBe(0);
  });
});
