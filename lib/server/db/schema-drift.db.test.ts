/**
 * prisma/schema.prisma and prisma/migrations must describe the same database: a schema edit
 * without its migration (or the reverse) fails here, not in production. Uses Prisma's own
 * differ (wasm schema engine, shadow database on the PostgreSQL server); the PGlite run of
 * this file has nothing to add, since the migrations themselves run on PGlite in every db test.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';

describe.runIf(process.env.ASSAY_TEST_DB !== 'pglite')('schema and migrations', () => {
  it('have no difference', { timeout: 120_000 }, async () => {
    const out = await new Promise<{ code: number; text: string }>((resolve) => {
      const child = spawn(process.execPath, ['node_modules/prisma/build/index.js', 'migrate', 'diff', '--from-migrations', 'prisma/migrations', '--to-schema-datamodel', 'prisma/schema.prisma', '--exit-code'], {
        env: { ...process.env, DATABASE_URL: process.env.ASSAY_TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (d: Buffer) => (text += d.toString()));
      child.stderr.on('data', (d: Buffer) => (text += d.toString()));
      child.on('exit', (code) => resolve({ code: code ?? -1, text }));
    });
    // --exit-code: 0 = no difference, 2 = a difference, 1 = an error.
    expect(out.code, out.text).toBe(0);
  });
});
