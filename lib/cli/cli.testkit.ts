/** Runs the real `assay` command as a child process, as a user or CI would, for the CLI tests. */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `node bin/assay.mjs …args` from the repository root, with `stdin` written and closed, and
 * `env` over this process's environment (the database tests pass DATABASE_URL, the fake's URL, keys;
 * an undefined value takes the variable out).
 */
export function assay(args: string[], stdin?: string, env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/assay.mjs', ...args], { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

/** A fresh temporary folder holding `files` (relative path → content); returns its path. */
export async function tempFiles(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'assay-cli-'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

/** stdout as lines, without the final empty one. */
export function lines(text: string): string[] {
  return text.split('\n').filter((line, i, all) => line !== '' || i < all.length - 1);
}

/**
 * The two-prompt blueprint several CLI tests run: a capital question (a point function and a
 * judged point) and a kind reply (a word count), under `title` for `models`.
 */
export function capitalAndKind(title: string, models: string[]): string {
  return `title: ${title}
models: [${models.join(', ')}]
---
- id: capital
  prompt: What is the capital of France?
  should:
    - $icontains: paris
    - Names Paris as the capital
- id: kind
  prompt: Say something kind.
  should:
    - $word_count_between: [1, 50]
`;
}

/** The fake's rules under which every model answers capitalAndKind well: the judge says fully met (E), the capital is Paris. */
export const CAPITAL_AND_KIND_RULES = [
  { model: 'judge', judge: { labels: { E: 1 } } },
  { lastUser: 'capital of France', reply: 'Paris is the capital of France.' },
];
