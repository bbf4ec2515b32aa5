/**
 * `assay plan` as a user runs it: a child process on a real database, after `assay sync` (no
 * run yet: a clear error) and `assay run` with fixed replies (no provider), whose prompt scores
 * are chosen so that the plan can be computed by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assay as runAssay } from '@/lib/cli/cli.testkit';
import { freshDatabase, type TestDatabase } from '@/lib/server/db/db.testkit';

let dir: string;
let t: TestDatabase;
const assay = (args: string[]) => runAssay(args, undefined, { DATABASE_URL: t.url });

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
// Each prompt scores k/5 for a reply holding k of the five words.
const BLUEPRINT = `title: Plan probe
models: [openai:model-a, openai:model-b]
---
${[0, 1, 2, 3].map((i) => `- id: q${i}\n  prompt: Question ${i}.\n  should:\n${WORDS.map((w) => `    - $icontains: ${w}\n`).join('')}`).join('')}`;
/** A = 0.2, 0.4, 0.6, 0.8; B = 0, 0.6, 0.4, 1: differences ±0.2, so ω² = 4 · 0.04 / 3. */
const A = [1, 2, 3, 4];
const B = [0, 3, 2, 5];
const reply = (k: number) => (k === 0 ? 'nothing' : WORDS.slice(0, k).join(' '));
const FIXTURES = {
  responses: Object.fromEntries([0, 1, 2, 3].map((i) => [`q${i}`, { default: reply(A[i]!), byModel: { 'openai:model-b': reply(B[i]!) } }])),
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assay-plan-'));
  await writeFile(join(dir, 'plan-probe.yml'), BLUEPRINT);
  await writeFile(join(dir, 'fixtures.json'), JSON.stringify(FIXTURES));
  t = await freshDatabase();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await t?.close();
});

describe(`assay plan (${process.env.ASSAY_TEST_DB})`, () => {
  it('says so when the blueprint is unknown, or has no completed run yet', { timeout: 60_000 }, async () => {
    const unknown = await assay(['plan', 'no-such-blueprint']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('assay plan: no blueprint with id "no-such-blueprint"');
    expect((await assay(['sync', '--dir', dir])).code).toBe(0);
    const early = await assay(['plan', 'plan-probe']);
    expect(early.code).toBe(1);
    expect(early.stderr).toContain('assay plan: blueprint "plan-probe" has no completed run yet: run it first');
  });

  it('plans from the latest run: MDE and prompts needed, as computed by hand', { timeout: 60_000 }, async () => {
    const ran = await assay(['run', join(dir, 'plan-probe.yml'), '--fixtures', join(dir, 'fixtures.json'), '--quiet']);
    expect(ran.code, ran.stderr).toBe(0);

    // ω = √(0.16/3) = 0.231; MDE = 2.801585 · √(0.053333/4) = 0.3235; n(0.1) = 7.84888 · 0.053333 / 0.01 = 41.9 → 42
    const text = await assay(['plan', join(dir, 'plan-probe.yml'), '--delta', '0.1']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Plan probe \(plan-probe\), from run \S+: 2 models, 4 scored prompts$/m);
    expect(text.stdout).toContain('spread of prompt scores     σ = 0.337 (mean over models)');
    expect(text.stdout).toContain('correlation between models  ρ = 0.87 (mean over 1 pair)');
    expect(text.stdout).toContain('spread of paired difference ω = 0.231');
    expect(text.stdout).toContain('minimum detectable difference at 80% power, α = 0.05: 0.323 (32.3 points)');
    expect(text.stdout).toContain('prompts needed to detect 0.1: 42 (the blueprint has 4)');

    // (2.575829 + 1.281552)² · 0.053333 / 0.01 = 79.4 → 80
    const json = await assay(['plan', 'plan-probe', '--delta', '0.1', '--power', '0.9', '--alpha', '0.01', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout) as { blueprint: string; run: string; plan: { mde: number; promptsNeeded: number; omega: number; alpha: number; power: number } };
    expect(doc).toMatchObject({ blueprint: 'plan-probe', plan: { alpha: 0.01, power: 0.9, promptsNeeded: 80 } });
    expect(doc.plan.omega).toBeCloseTo(Math.sqrt(0.16 / 3), 10);
    expect(doc.plan.mde).toBeCloseTo((2.5758293035489004 + 1.2815515655446004) * Math.sqrt(0.16 / 3 / 4), 10);
  });

  it('refuses bad options with what was wrong', { timeout: 60_000 }, async () => {
    const notNumber = await assay(['plan', 'plan-probe', '--delta', 'small']);
    expect(notNumber.code).toBe(2);
    expect(notNumber.stderr).toContain('assay plan: --delta: expected a number, got "small"');
    const power = await assay(['plan', 'plan-probe', '--power', '1.5']);
    expect(power.code).toBe(2);
    expect(power.stderr).toContain('assay plan: --power: power must be below 1');
    expect((await assay(['plan'])).stderr).toContain('assay plan: name one blueprint');
  });
});
