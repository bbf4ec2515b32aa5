/**
 * Comments and messages stand alone: the source files cite no document a newcomer cannot open.
 * "issue N", "seed 00N" and "SPEC §N" named planning documents that are not in this repository,
 * as did "STYLE habit N" / "STYLE.md" (a style guide kept elsewhere) and "README item N" /
 * "conformance README" (the notes that came with the Weval conformance vectors, whose defects
 * are numbered in docs/compatibility.md); a comment states the rule itself, or points at the doc
 * here that states it (docs/*.md, README.md). A link to a public issue elsewhere is written as
 * its URL (https://github.com/owner/repo/issues/N), which this check lets through.
 * The docs themselves (docs/*.md, README.md) are held to the first kinds too.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const CITATION = /\bissue \d+|\bseed 00\d|SPEC §/i;
/** Documents outside the repository that source comments used to cite by item. */
const OUTSIDE_DOC = /STYLE(\.md)? habit|\bSTYLE\.md\b|README item \d|conformance README/;
/** What the docs must not cite: the planning documents, by number or by path. */
const DOC_CITATION = /\bissue \d+|\bseed 00\d|SPEC §|shared\/SPEC/i;

/** The non-test source files (test kits included) under the checked folders: tracked, and new ones not yet added. */
function sourceFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', 'lib', 'app', 'components', 'scripts', 'testing', 'prisma/schema.prisma'], { cwd: REPO_ROOT, encoding: 'utf8' });
  return [...new Set(listed.split('\0'))]
    .filter((p) => /\.(ts|tsx|mjs)$/.test(p) || p === 'prisma/schema.prisma')
    .filter((p) => !/\.test\./.test(p))
    .filter((p) => existsSync(join(REPO_ROOT, p)))
    .sort();
}

/** README.md and every page of docs/: tracked, and new ones not yet added. */
function docFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', 'README.md', 'docs'], { cwd: REPO_ROOT, encoding: 'utf8' });
  return [...new Set(listed.split('\0'))]
    .filter((p) => p === 'README.md' || /^docs\/[^/]+\.md$/.test(p))
    .filter((p) => existsSync(join(REPO_ROOT, p)))
    .sort();
}

/** `file:line: text` for each line of `text` that matches one of `patterns` (by default, what a source comment must not cite). */
function citationsIn(file: string, text: string, patterns: readonly RegExp[] = [CITATION, OUTSIDE_DOC]): string[] {
  return text.split('\n').flatMap((line, i) => (patterns.some((p) => p.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
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

  it('finds each kind of citation of the style guide and the conformance notes, and lets README.md and plain words through', () => {
    const text = [
      ' * how to fix it (STYLE habit 11).',
      ' * real fake server (STYLE.md habit 8).',
      ' * database test file (STYLE.md §12).',
      '// NaN would poison every average (README item 10).',
      ' * (conformance README, defect 1: 89 points)',
      ' * see README.md, "Test it"; defect 10 in docs/compatibility.md',
      ' * in the style of the value it replaces',
    ].join('\n');
    expect(citationsIn('lib/y.ts', text)).toEqual([
      'lib/y.ts:1: * how to fix it (STYLE habit 11).',
      'lib/y.ts:2: * real fake server (STYLE.md habit 8).',
      'lib/y.ts:3: * database test file (STYLE.md §12).',
      'lib/y.ts:4: // NaN would poison every average (README item 10).',
      'lib/y.ts:5: * (conformance README, defect 1: 89 points)',
    ]);
  });

  it('no non-test source file under lib/, app/, components/, scripts/, testing/ (nor prisma/schema.prisma) has one', () => {
    const files = sourceFiles();
    // The listing itself works: it holds files of every folder, and no test file.
    for (const known of ['lib/core/index.ts', 'scripts/check-architecture.ts', 'prisma/schema.prisma', 'lib/server/db/db.testkit.ts']) expect(files).toContain(known);
    expect(files.some((f) => f.startsWith('app/'))).toBe(true);
    expect(files.some((f) => f.startsWith('components/'))).toBe(true);
    expect(files.some((f) => f.startsWith('testing/'))).toBe(true);
    expect(files).not.toContain('scripts/standalone-comments.test.ts');

    const found = files.flatMap((f) => citationsIn(f, readFileSync(join(REPO_ROOT, f), 'utf8')));
    expect(found, 'state the rule in plain words or point at docs/*.md / README.md instead').toEqual([]);
  });
});

describe('the docs cite nothing outside the repository', () => {
  it('finds issue numbers, seeds and SPEC sections or paths in a page, and lets a public issue URL through', () => {
    const text = [
      '# Security measures (issue 11, part d)',
      "Issue 16's \"Must show\" in one test",
      "soev's kinds (seed 003) and Seed 002's single `model:`",
      'As for any HTTP system (SPEC §10)',
      'the full text is in [../shared/SPEC.md](../shared/SPEC.md)',
      'as reported in https://github.com/actions/github-script/issues/118',
      '`assay split --seed 7`; the issues page lists 3 open',
    ].join('\n');
    expect(citationsIn('docs/x.md', text, [DOC_CITATION])).toEqual([
      'docs/x.md:1: # Security measures (issue 11, part d)',
      'docs/x.md:2: Issue 16\'s "Must show" in one test',
      "docs/x.md:3: soev's kinds (seed 003) and Seed 002's single `model:`",
      'docs/x.md:4: As for any HTTP system (SPEC §10)',
      'docs/x.md:5: the full text is in [../shared/SPEC.md](../shared/SPEC.md)',
    ]);
  });

  it('no page of docs/ nor README.md has one', () => {
    const files = docFiles();
    // The listing itself works: README.md and the docs pages, nothing else.
    for (const known of ['README.md', 'docs/compatibility.md', 'docs/architecture.md']) expect(files).toContain(known);
    expect(files.every((f) => f === 'README.md' || (f.startsWith('docs/') && f.endsWith('.md')))).toBe(true);

    const found = files.flatMap((f) => citationsIn(f, readFileSync(join(REPO_ROOT, f), 'utf8'), [DOC_CITATION]));
    expect(found, 'state the rule in plain words or link to the doc in this repository instead').toEqual([]);
  });
});
