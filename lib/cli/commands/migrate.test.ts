/**
 * `assay migrate` (what `npm run db:migrate` and the launcher's first start of a new data
 * directory run): the real command as a child process, on a new embedded data directory.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assay } from '../cli.testkit';

const dir = mkdtempSync(join(tmpdir(), 'assay-migrate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('assay migrate', () => {
  it('makes a new embedded data directory ready and stops; an existing one is opened as it is', async () => {
    const dataDir = join(dir, 'data');
    const env = { DATABASE_URL: undefined, ASSAY_DATA_DIR: dataDir };
    const first = await assay(['migrate'], undefined, env);
    expect(first.stderr).toBe('');
    expect(first).toMatchObject({ code: 0, stdout: `assay: database ready: embedded PGlite (${dataDir})\n` });
    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
    // the database is closed with the command: no lock file names a start that has ended
    expect(existsSync(`${dataDir}.lock.json`)).toBe(false);
    expect(await assay(['migrate'], undefined, env)).toMatchObject({ code: 0, stdout: first.stdout });
  }, 60_000);

  it('says what is wrong with the configuration, and changes nothing', async () => {
    const r = await assay(['migrate'], undefined, { DATABASE_URL: 'mysql://localhost/assay', ASSAY_DATA_DIR: join(dir, 'untouched') });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^assay migrate: Invalid configuration[^]*DATABASE_URL: must be a postgresql:\/\/ URL/);
    expect(existsSync(join(dir, 'untouched'))).toBe(false);
  });
});
