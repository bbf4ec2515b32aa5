/**
 * `assay rescore` as a user runs it (a real child process, a real database, the fake
 * provider): it re-grades a stored run with another judge panel and a changed rubric, makes
 * no model call (counted at the fake), and yields a new run linked both ways on the run page's
 * header.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { assay as runAssay } from '@/lib/cli/cli.testkit';
import { freshDatabase, type TestDatabase } from '@/lib/server/db/db.testkit';
import { getRunHeader } from '@/lib/server/db/queries/run-header';
import { runHeaderView } from '@/lib/views/run-view';

let dir: string;
let t: TestDatabase;
let fake: FakeLlm;

const assay = (args: string[], env: Record<string, string> = {}) => runAssay(args, undefined, { DATABASE_URL: t.url, ASSAY_LLM_BASE_URL: fake.url, ...env });

const V1 = `title: Rescore from the CLI
models: [openai:model-x, openai:model-y]
---
- id: capital
  prompt: What is the capital of France?
  should:
    - $icontains: paris
    - Names Paris as the capital
- id: kind
  prompt: Say something kind.
  should:
    - Is kind
`;
// The changed rubric: the same prompt ids, one point added.
const V2 = V1.replace('    - Is kind\n', '    - Is kind\n    - $word_count_between: [1, 50]\n');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assay-rescore-'));
  await writeFile(join(dir, 'rescore-cli.yml'), V1);
  await writeFile(join(dir, 'rescore-cli-v2.yml'), V2);
  t = await freshDatabase();
  fake = await startFakeLlm({
    keepRequests: 10_000,
    rules: [
      { model: 'judge-a', judge: { labels: { E: 1 } } },
      { model: 'judge-c', judge: { labels: { C: 1 } } },
      { lastUser: 'capital of France', reply: 'Paris is the capital of France.' },
    ],
  });
});
afterAll(async () => {
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
  await t?.close();
});

const isModel = (m: string) => /^model-/.test(m);

describe(`assay rescore (${process.env.ASSAY_TEST_DB})`, () => {
  it('re-grades a stored run with another judge and a changed rubric: no model call, a linked run', { timeout: 180_000 }, async () => {
    const first = await assay(['run', join(dir, 'rescore-cli.yml'), '--judges', 'openai:judge-a', '--quiet']);
    expect(first.code, first.stderr).toBe(0);
    const parentId = /assay: run (\S+)/.exec(first.stderr)![1]!;
    expect(fake.requests().filter((r) => isModel(r.request.model))).toHaveLength(4); // the models were called once each per prompt

    fake.reset(); // the fake's per-request counters start again from 0
    const r = await assay(['rescore', parentId, '--judges', 'openai:judge-c', '--blueprint', join(dir, 'rescore-cli-v2.yml')]);
    expect(r.code, r.stderr).toBe(0);
    const childId = /assay: rescore (\S+) of run/.exec(r.stderr)![1]!;
    // Counted at the fake: every request went to the new judge, none to a model.
    const models = fake.requests().map((q) => q.request.model);
    expect(models.filter(isModel)).toEqual([]);
    expect(models.length).toBeGreaterThan(0);
    expect(fake.calls()).toBe(models.filter((m) => m === 'judge-c').length);
    expect(r.stdout).toContain(`stored replies of run ${parentId} re-graded, no model called (4 answered, 0 failed)`);
    expect(r.stdout).toContain(`see http://localhost:3000/runs/${childId}`);

    const child = await t.db.run.findUniqueOrThrow({ where: { id: childId } });
    expect(child).toMatchObject({ trigger: 'rescore', parentRunId: parentId, status: 'completed' });
    expect(await t.db.reply.count({ where: { runId: childId } })).toBe(0);
    // 2 models × (capital: 2 points + kind: 2 points under the changed rubric)
    expect(await t.db.verdict.count({ where: { runId: childId } })).toBe(8);
    // the changed rubric was stored as a version of the run's blueprint, not made its latest
    const bp = await t.db.blueprint.findUniqueOrThrow({ where: { id: child.blueprintId }, select: { latestVersionId: true } });
    expect(bp.latestVersionId).not.toBe(child.versionId);

    // Linked both ways in the run header.
    const childHeader = runHeaderView((await getRunHeader(t.db, childId))!, 'prompts');
    expect(childHeader.parent).toEqual({ label: expect.stringMatching(/^Rescore of the run of /), href: `/runs/${parentId}` });
    expect(childHeader.judges).toEqual([{ label: 'openai:judge-c (standard)', alsoGraded: false, method: 'log-probabilities' }]);
    const parentHeader = runHeaderView((await getRunHeader(t.db, parentId))!, 'prompts');
    expect(parentHeader.rescores).toEqual([{ label: expect.stringMatching(/\(completed\)$/), href: `/runs/${childId}` }]);
  });

  it('says what is wrong with a run id or a rubric, and exits 1', { timeout: 150_000 }, async () => {
    const none = await assay(['rescore', 'no-such-run']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('assay rescore: no run with id no-such-run');
    expect((await assay(['rescore'])).code).toBe(2);
    await writeFile(join(dir, 'broken-rubric.yml'), 'title: Broken\n---\n- id: capital\n  prompt: hi\n  should:\n    - $contians: x\n');
    const parent = await t.db.run.findFirstOrThrow({ where: { trigger: 'cli' }, select: { id: true } });
    const before = await t.db.run.count();
    const broken = await assay(['rescore', parent.id, '--blueprint', join(dir, 'broken-rubric.yml')]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/broken-rubric\.yml:6:\d+: .*contians/);
    expect(await t.db.run.count()).toBe(before); // nothing was requested
  });
});
