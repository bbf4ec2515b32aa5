/**
 * Issue 11, finding 8 (the CLI's half): what `assay run` prints passes through the secret
 * redactor, as the app's logs do. A provider that echoes the key it was sent in its error (a
 * real child process against the fake LLM) is printed with the key replaced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { assay as runAssay } from '@/lib/cli/cli.testkit';
import { freshDatabase, type TestDatabase } from '@/lib/server/db/db.testkit';

const KEY = 'sk-assay-test-key-0123456789abcdefXYZ';

let dir: string;
let t: TestDatabase;
let fake: FakeLlm;
let file: string;

const assay = (args: string[], env: Record<string, string> = {}) => runAssay(args, undefined, { DATABASE_URL: t.url, ...env });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assay-redacted-'));
  file = join(dir, 'echoes-key.yml');
  await writeFile(file, 'title: Echoes the key\nmodels: [openai:model-x]\n---\n- id: hi\n  prompt: Say hi\n  should:\n    - $icontains: hi\n');
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: [{ model: 'model-x', error: { status: 401, message: `Incorrect API key provided: ${KEY}` } }] });
});
afterAll(async () => {
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
  await t?.close();
});

const runIdOf = (stderr: string) => /assay: run (\S+)/.exec(stderr)?.[1];

describe(`assay run prints no known secret (${process.env.ASSAY_TEST_DB})`, () => {
  let runId: string;

  it('a provider error echoing the key is printed with the key redacted', { timeout: 150_000 }, async () => {
    const r = await assay(['run', file, '--no-cache', '--quiet', '--json', '-'], { ASSAY_LLM_BASE_URL: fake.url, OPENAI_API_KEY: KEY });
    expect(r.code, r.stderr).toBe(1);
    runId = runIdOf(r.stderr)!;
    expect(fake.calls()).toBeGreaterThan(0);
    expect(r.stderr).toMatch(/1 × openai: HTTP 401: Incorrect API key provided: \[redacted\]/);
    expect(r.stderr + r.stdout).not.toContain(KEY);
  });

  it('a stored error that still holds the key (a row from before redaction) is printed redacted, on the console and in --json', { timeout: 150_000 }, async () => {
    const leaked = `openai: HTTP 401: Incorrect API key provided: ${KEY}`;
    expect(await t.db.reply.updateMany({ where: { runId, error: { not: null } }, data: { error: leaked } })).toEqual({ count: 1 });
    await t.db.run.update({ where: { id: runId }, data: { error: `every reply failed (1): 1 × ${leaked}` } });
    const r = await assay(['run', '--resume', runId, '--quiet', '--json', '-'], { ASSAY_LLM_BASE_URL: fake.url, OPENAI_API_KEY: KEY });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/failed replies:\n {2}1 × openai: HTTP 401: Incorrect API key provided: \[redacted\]/);
    expect(r.stderr + r.stdout).not.toContain(KEY);
    const json = JSON.parse(r.stdout) as { run: { error: string } };
    expect(json.run.error).toBe('every reply failed (1): 1 × openai: HTTP 401: Incorrect API key provided: [redacted]');
  });
});
