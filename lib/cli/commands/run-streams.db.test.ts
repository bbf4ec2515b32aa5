/**
 * Where `assay run` writes what (a real child process, a real database, the fake provider): the
 * report on standard output, so `assay run … > report.txt` keeps it; the run's id, the progress
 * bar, warnings and errors on standard error, for the person at the terminal. With `--json -`
 * standard output is the JSON document alone and the report moves to standard error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { assay as runAssay, CAPITAL_AND_KIND_RULES, capitalAndKind, lines, REPO_ROOT } from '@/lib/cli/cli.testkit';
import { freshDatabase, type TestDatabase } from '@/lib/server/db/db.testkit';

let dir: string;
let t: TestDatabase;
let fake: FakeLlm;

const env = () => ({ DATABASE_URL: t.url, ASSAY_LLM_BASE_URL: fake.url, ASSAY_PUBLIC_URL: 'http://assay.streams' });
const assay = (args: string[]) => runAssay(args, undefined, env());

// Two prompts: every score rests on fewer than 5, so the report comes with a warning.
const BLUEPRINT = capitalAndKind('Streams', ['openai:model-x']);
const WARNING = "warning: openai:model-x's interval rests on 2 prompts (fewer than 5): read it as rough";
const SCORE_ROW = /^ +100\.0 {2}34\.2–100\.0 {3}openai:model-x {2}\[coverage: /m;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assay-streams-'));
  await writeFile(join(dir, 'streams.yml'), BLUEPRINT);
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: CAPITAL_AND_KIND_RULES });
});
afterAll(async () => {
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
  await t?.close();
});

describe(`assay run: the report on stdout, the rest on stderr (${process.env.ASSAY_TEST_DB})`, () => {
  it('prints the report table on stdout, and the run id and warnings on stderr only', { timeout: 120_000 }, async () => {
    const r = await assay(['run', join(dir, 'streams.yml'), '--judges', 'openai:judge']);
    expect(r.code, r.stderr).toBe(0);
    // stderr: the run's id as the run starts (no bar: stderr is a pipe here), then the warning
    const [started, ...rest] = lines(r.stderr);
    const id = /^assay: run (\S+)$/.exec(started ?? '')?.[1];
    expect(id, r.stderr).toBeDefined();
    expect(rest).toEqual([WARNING]);
    // stdout: the report, from its status line to the run's page, and nothing else
    const out = lines(r.stdout);
    expect(out[0]).toBe(`assay: run ${id} completed`);
    expect(out).toContain('  replies:  2 of 2 done (2 answered, 0 failed)');
    expect(out).toContain('scores (0–100, as on the pages; 95% interval over prompts):');
    expect(r.stdout).toMatch(SCORE_ROW);
    expect(out.at(-1)).toBe(`see http://assay.streams/runs/${id}`);
    expect(out).not.toContain(`assay: run ${id}`);
    expect(r.stdout).not.toMatch(/warning|error:|replies \|/);
  });

  it('with --json -, stdout is the JSON document alone and the report goes to stderr', { timeout: 120_000 }, async () => {
    const r = await assay(['run', join(dir, 'streams.yml'), '--judges', 'openai:judge', '--json', '-']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { run: { id: string; status: string } };
    expect(doc.run.status).toBe('completed');
    expect(r.stderr).toContain(`assay: run ${doc.run.id} completed`);
    expect(r.stderr).toMatch(SCORE_ROW);
    expect(r.stderr).toContain(WARNING);
  });

  // `script` (util-linux) gives the command a terminal, as a user's shell does: the case where a
  // progress bar is drawn, on the terminal, while `> report.txt` takes the report.
  const hasScript = process.platform === 'linux' && spawnSync('script', ['--version']).status === 0;
  it.skipIf(!hasScript)('on a terminal, draws the progress bar on stderr and keeps it out of the redirected report', { timeout: 120_000 }, async () => {
    const report = join(dir, 'report.txt');
    const command = `'${process.execPath}' bin/assay.mjs run '${join(dir, 'streams.yml')}' --judges openai:judge > '${report}'`;
    const terminal = await new Promise<{ code: number | null; text: string }>((resolve, reject) => {
      const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: '1', ...env() } });
      let text = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, text }));
      child.stdin.end();
    });
    expect(terminal.code, terminal.text).toBe(0);
    // what the terminal showed: the run's id, the bar at its end (2 of 2 replies), the warning
    expect(terminal.text).toMatch(/assay: run \S+\r?\n/);
    expect(terminal.text).toMatch(/2\/2 replies \| \d+\/\d+ verdicts \| 0 errors \| \$/);
    expect(terminal.text).toContain(WARNING);
    expect(terminal.text).not.toContain('scores (0–100');
    // what the file got: the report alone
    const text = await readFile(report, 'utf8');
    expect(text).toMatch(/^assay: run \S+ completed\n/);
    expect(text).toMatch(SCORE_ROW);
    expect(text).not.toMatch(/replies \||warning/);
  });
});
