/**
 * Comments and messages stand alone: the source files cite no document a newcomer cannot open.
 * "issue N", "seed 00N" and "SPEC §N" named planning documents that are not in this repository;
 * a comment states the rule itself, or points at the doc here that states it (docs/*.md,
 * README.md). A link to a public issue elsewhere is written as its URL
 * (https://github.com/owner/repo/issues/N), which this check lets through.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const CITATION = /\bissue \d+|\bseed 00\d|SPEC §/i;

/** The non-test source files under the checked folders: tracked, and new ones not yet added. */
function sourceFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', 'lib', 'app', 'components', 'scripts', 'testing', 'prisma/schema.prisma'], { cwd: REPO_ROOT, encoding: 'utf8' });
  return [...new Set(listed.split('\0'))]
    .filter((p) => /\.(ts|tsx|mjs)$/.test(p) || p === 'prisma/schema.prisma')
    .filter((p) => !/\.test\.|\.testkit\./.test(p))
    .filter((p) => existsSync(join(REPO_ROOT, p)))
    .sort();
}

/** `file:line: text` for each line of `text` that cites a document outside the repository. */
function citationsIn(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => (CITATION.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

describe('comments cite nothing outside the repository', () => {
  it('finds each kind of citation, with its file and line, and lets a public issue URL through', () => {
    const text = ['// fine', ' * "Try it" (issue 16): …', '// (Issue 11, finding 4)', ' * soev (seed 003)', ' * Sealed prompts (SPEC §2.5)', '// https://github.com/actions/github-script/issues/118', "issues.warn(loc, 'x')"].join('\n');
    expect(citationsIn('lib/x.ts', text)).toEqual([
      'lib/x.ts:2: * "Try it" (issue 16): …',
      'lib/x.ts:3: // (Issue 11, finding 4)',
      'lib/x.ts:4: * soev (seed 003)',
      'lib/x.ts:5: * Sealed prompts (SPEC §2.5)',
    ]);
  });

  it('no non-test source file under lib/, app/, components/, scripts/, testing/ (nor prisma/schema.prisma) has one', () => {
    const files = sourceFiles();
    // The listing itself works: it holds files of every folder, and no test file.
    for (const known of ['lib/core/index.ts', 'scripts/check-architecture.ts', 'prisma/schema.prisma']) expect(files).toContain(known);
    expect(files.some((f) => f.startsWith('app/'))).toBe(true);
    expect(files.some((f) => f.startsWith('components/'))).toBe(true);
    expect(files.some((f) => f.startsWith('testing/'))).toBe(true);
    expect(files).not.toContain('scripts/standalone-comments.test.ts');

    const found = files.flatMap((f) => citationsIn(f, readFileSync(join(REPO_ROOT, f), 'utf8')));
    expect(found, 'state the rule in plain words or point at docs/*.md / README.md instead').toEqual([]);
  });
});
