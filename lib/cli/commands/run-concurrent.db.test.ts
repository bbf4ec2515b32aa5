/**
 * Two `assay run` processes started at once on a fresh database (a CI matrix, two terminals):
 * both store the same blueprint source, blueprint and version rows at the same moment. The
 * writes are idempotent under that race, so both runs complete and share one set of rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '@/lib/server/db/db.testkit';

let dir: string;
let fake: FakeLlm;
let file: string;

interface Exit {
  code: number;
  stderr: string;
}

function assay(url: string, args: string[]): { exited: Promise<Exit>; done: () => boolean } {
  let finished = false;
  const exited = new Promise<Exit>((resolve) => {
    const child = spawn(process.execPath, ['bin/assay.mjs', ...args], {
      env: { ...process.env, DATABASE_URL: url, ASSAY_LLM_BASE_URL: fake.url },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => {
      finished = true;
      resolve({ code: code ?? -1, stderr });
    });
  });
  return { exited, done: () => finished };
}

/**
 * Two processes racing at start-up rarely reach the same insert in the same millisecond, so on
 * PostgreSQL the test makes them: it holds `blueprint_sources` locked against writes (reads
 * still pass, so both see no row) until both processes wait on that lock, then lets them go
 * together. PGlite serves one connection at a time, so there the two just start at once.
 */
async function startTogether(url: string, args: string[]): Promise<[Exit, Exit]> {
  if (process.env.ASSAY_TEST_DB !== 'postgres') {
    const [a, b] = [assay(url, args), assay(url, args)];
    return Promise.all([a.exited, b.exited]);
  }
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  const watcher = new pg.Client({ connectionString: url });
  await watcher.connect();
  try {
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE blueprint_sources IN EXCLUSIVE MODE');
    const procs = [assay(url, args), assay(url, args)];
    const until = Date.now() + 120_000;
    for (;;) {
      const { rows } = await watcher.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE NOT l.granted AND c.relname = 'blueprint_sources'`,
      );
      if (rows[0]!.n >= 2) break;
      if (procs.some((p) => p.done()) || Date.now() > until) throw new Error(`the two processes never both waited to write blueprint_sources (${rows[0]!.n} waiting)`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await holder.query('COMMIT');
    return await Promise.all([procs[0]!.exited, procs[1]!.exited]);
  } finally {
    await holder.end();
    await watcher.end();
  }
}

const BLUEPRINT = `title: Two at once
models: [openai:model-x]
---
- id: capital
  prompt: What is the capital of France?
  should:
    - $icontains: paris
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assay-concurrent-'));
  file = join(dir, 'two-at-once.yml');
  await writeFile(file, BLUEPRINT);
  fake = await startFakeLlm({ rules: [{ lastUser: 'capital of France', reply: 'Paris.' }] });
});
afterAll(async () => {
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
});

describe(`two assay run at once on a fresh database (${process.env.ASSAY_TEST_DB})`, () => {
  it('both exit 0, with one source, one blueprint and one version between them', { timeout: 300_000 }, async () => {
    {
      const t: TestDatabase = await freshDatabase();
      try {
        const [a, b] = await startTogether(t.url, ['run', file, '--quiet']);
        expect(a.code, a.stderr).toBe(0);
        expect(b.code, b.stderr).toBe(0);
        expect(await t.db.blueprintSource.count()).toBe(1);
        expect(await t.db.blueprint.count()).toBe(1);
        expect(await t.db.blueprintVersion.count()).toBe(1);
        expect(await t.db.versionPrompt.count()).toBe(1);
        const runs = await t.db.run.findMany({ select: { status: true } });
        expect(runs.map((r) => r.status)).toEqual(['completed', 'completed']);
      } finally {
        await t.close();
      }
    }
  });
});
