/**
 * `assay run` tells the truth about a run, as a user sees it in a terminal (a real child
 * process, a real database, the fake provider): a run whose replies all failed exits 1 and
 * prints the provider's own message with its count; counts add up; scores are on the pages'
 * 0–100 scale with a warning when an interval rests on few prompts; the run's URL is printed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { assay as runAssay, CAPITAL_AND_KIND_RULES, capitalAndKind } from '@/lib/cli/cli.testkit';
import { freshDatabase, type TestDatabase } from '@/lib/server/db/db.testkit';

let dir: string;
let t: TestDatabase;
let fake: FakeLlm;

const assay = (args: string[], env: Record<string, string> = {}) => runAssay(args, undefined, { DATABASE_URL: t.url, ...env });

const BLUEPRINT = capitalAndKind('Honest CLI', ['openai:model-x', 'openai:model-y']);
const GOOD = CAPITAL_AND_KIND_RULES;
let file: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assay-honest-'));
  file = join(dir, 'honest-cli.yml');
  await writeFile(file, BLUEPRINT);
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: GOOD });
});
afterAll(async () => {
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
  await t?.close();
});

const runIdOf = (stderr: string) => /assay: run (\S+)/.exec(stderr)?.[1];

describe(`assay run, honestly (${process.env.ASSAY_TEST_DB})`, () => {
  it('against an unreachable provider: exits 1, says the run failed and prints the provider’s message with its count', { timeout: 180_000 }, async () => {
    const r = await assay(['run', file, '--judges', 'openai:judge', '--no-cache', '--quiet'], { ASSAY_LLM_BASE_URL: 'http://127.0.0.1:9/v1' });
    expect(r.code, r.stderr).toBe(1);
    const id = runIdOf(r.stderr)!;
    // the report on standard output; why the exit status is 1 on standard error, where it is seen
    expect(r.stdout).toContain(`assay: run ${id} failed: every reply failed (4)`);
    expect(r.stdout).toMatch(/replies: {2}4 of 4 done \(0 answered, 4 failed\)/);
    expect(r.stdout).toMatch(/failed replies:\n {2}4 × .*127\.0\.0\.1:9/);
    expect(r.stdout).toContain(`see http://localhost:3000/runs/${id}`);
    expect(r.stderr).toContain(`error: run ${id} ended failed: every reply failed (4)`);
    expect(r.stderr).toMatch(/error: every reply of openai:model-x failed/);
    expect((await t.db.run.findUniqueOrThrow({ where: { id } })).status).toBe('failed');
  });

  it('with no key for the provider: exits 1 and prints "set OPENAI_API_KEY" with its count', { timeout: 150_000 }, async () => {
    const r = await assay(['run', file, '--judges', 'openai:judge', '--no-cache', '--quiet'], { ASSAY_LLM_BASE_URL: '', OPENAI_API_KEY: '' });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/failed replies:\n {2}2 × openai:model-x needs an API key for openai: set OPENAI_API_KEY in the environment/);
    expect(r.stdout).not.toMatch(/completed/);
  });

  it('when the provider refuses the key (401): exits 1 with the provider’s message', { timeout: 150_000 }, async () => {
    fake.setRules([{ model: /model-/, error: { status: 401, message: 'Incorrect API key provided: sk-fake' } }, ...GOOD]);
    const r = await assay(['run', file, '--judges', 'openai:judge', '--no-cache', '--quiet'], { ASSAY_LLM_BASE_URL: fake.url });
    fake.reset();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/failed replies:\n {2}4 × .*Incorrect API key provided/);
  });

  it('when every reply of one model failed: exits 1 though the run completed, naming the model', { timeout: 150_000 }, async () => {
    fake.setRules([{ model: 'model-y', error: { status: 401, message: 'Incorrect API key provided' } }, ...GOOD]);
    const r = await assay(['run', file, '--judges', 'openai:judge', '--no-cache', '--quiet'], { ASSAY_LLM_BASE_URL: fake.url });
    fake.reset();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/assay: run \S+ completed/);
    expect(r.stdout).toMatch(/replies: {2}4 of 4 done \(2 answered, 2 failed\)/);
    expect(r.stdout).toMatch(/openai:model-y {2}\(score withheld: every reply failed \(2\)\)/);
    expect(r.stderr).toContain('error: every reply of openai:model-y failed');
  });

  it('a good run: exits 0, counts add up, 0–100 scores, a few-prompts warning and the run’s URL from ASSAY_PUBLIC_URL', { timeout: 150_000 }, async () => {
    const r = await assay(['run', file, '--judges', 'openai:judge', '--quiet'], { ASSAY_LLM_BASE_URL: fake.url, ASSAY_PUBLIC_URL: 'http://assay.example:8080/' });
    expect(r.code, r.stderr).toBe(0);
    const id = runIdOf(r.stderr)!;
    expect(r.stdout).toContain(`assay: run ${id} completed`);
    expect(r.stdout).toMatch(/replies: {2}4 of 4 done \(4 answered, 0 failed\)/);
    expect(r.stdout).toMatch(/verdicts: 6 of 6 made \(0 errors\)/);
    expect(r.stdout).toContain('scores (0–100, as on the pages; 95% interval over prompts):');
    // 2 of 2 prompts at 100: a pass rate, so a Wilson interval (2/2 → 34.2–100), not the zero-width 100–100 of a bootstrap
    expect(r.stdout).toMatch(/100\.0 {2}34\.2–100\.0 {3}openai:model-x {2}\[coverage: judged 1 of 1 \(100%\) · deterministic 2 of 2 \(100%\)\]/);
    expect(r.stdout).toContain('95% CI 34.2–100.0 · rough: only 2 prompts (under 5) · 2 prompts · Wilson score');
    expect(r.stderr).toContain("warning: openai:model-x's interval rests on 2 prompts (fewer than 5): read it as rough");
    expect(r.stdout).toContain(`see http://assay.example:8080/runs/${id}`);
    expect(r.stdout).not.toMatch(/failed replies:|error verdicts:/);
  });
});
