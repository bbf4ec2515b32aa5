/**
 * `assay validate` starts like a compiled program: it runs the command's bundle (bin/assay.mjs)
 * and loads no package from node_modules. The plain-JavaScript packages it needs (zod, yaml, …)
 * are bundled in (bundle-cache.mjs); the tokenizer, QuickJS and esbuild itself are imported only
 * by the code that uses them (a long retrieval text counted, a sandbox made, a stale bundle
 * made again). Each was a few hundred milliseconds of a one-file validation. A loader hook lists
 * every module the real command loads.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../cli.testkit';

// Runs in the loader's own thread: every URL loaded (ESM, and each CommonJS entry imported), appended to a file.
const HOOK = `
import { appendFileSync } from 'node:fs';
let out;
export function initialize(data) { out = data.out; }
export async function load(url, context, next) { appendFileSync(out, url + '\\n'); return next(url, context); }
`;
const REGISTER = (out: string) =>
  `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOK)}`)}, import.meta.url, { data: { out: ${JSON.stringify(out)} } });`)}`;

describe('assay validate', () => {
  const dir = mkdtempSync(join(tmpdir(), 'assay-validate-startup-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads its bundle and no package from node_modules', async () => {
    const validate = async (out: string) => {
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', REGISTER(out), 'bin/assay.mjs', 'validate', 'blueprints/examples/grounded-summary-questions.yml'], {
        cwd: REPO_ROOT,
        timeout: 90_000,
        env: { ...process.env, ASSAY_CLI_SOURCE: '' },
      });
      return { stdout, loaded: readFileSync(out, 'utf8').trim().split('\n') };
    };
    await validate(join(dir, 'first.txt')); // makes the bundle when a source changed since the last
    const { stdout, loaded } = await validate(join(dir, 'loaded.txt'));
    expect(stdout).toMatch(/grounded-summary-questions\.yml: ok/);
    // the hook saw the command's bundle, so the empty list below means something
    expect(loaded.some((url) => /node_modules\/\.cache\/assay-bundles\/assay-cli-[^/]+\/chunks\/validate-/.test(url))).toBe(true);
    const packages = [...new Set(loaded.filter((url) => url.includes('/node_modules/') && !url.includes('/node_modules/.cache/')).map((url) => url.replace(/.*\/node_modules\/((@[^/]+\/)?[^/]+).*/, '$1')))];
    expect(packages).toEqual([]);
  }, 120_000);
});
