/**
 * The outside data's one place (outside-data.ts): a variable naming a folder that does not exist
 * means "absent", the list of suites that skip without the data is the list of files that do,
 * and no other file spells the `../shared` paths.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE_BESIDE, CORPUS_BESIDE, OUTSIDE_DATA_SUITES, outsideDataNotice, outsideDir } from './outside-data';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The repository's TypeScript and .mjs files under the folders that hold tests, kits, fakes and benches. */
function sourceFiles(): string[] {
  const roots = ['lib', 'testing', 'bench', 'e2e', 'scripts', 'components', 'app'];
  const files = roots.flatMap((root) =>
    readdirSync(join(ROOT, root), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && /\.(ts|tsx|mjs)$/.test(e.name))
      .map((e) => relative(ROOT, join(e.parentPath, e.name)).split('\\').join('/')),
  );
  return [...files, 'vitest.config.ts', 'playwright.config.ts'].sort();
}

describe('where the outside data is', () => {
  it('takes the variable\'s folder when it exists, and calls a missing one absent', () => {
    const dir = mkdtempSync(join(tmpdir(), 'assay-outside-'));
    expect(outsideDir('X_DATA', 'nowhere-beside', { X_DATA: dir })).toBe(dir);
    expect(outsideDir('X_DATA', 'nowhere-beside', { X_DATA: join(dir, 'missing') })).toBeNull();
    expect(outsideDir('X_DATA', 'nowhere-beside', {})).toBeNull();
    // a file is not a folder
    expect(outsideDir('X_DATA', 'nowhere-beside', { X_DATA: fileURLToPath(import.meta.url) })).toBeNull();
  });

  it('without the variable, takes the default path relative to the repository, when it exists', () => {
    expect(outsideDir('X_DATA', 'testing', {})).toBe(join(ROOT, 'testing'));
    expect(outsideDir('X_DATA', `../${basename(resolve(ROOT))}/testing`, {})).toBe(join(ROOT, 'testing'));
  });

  it('names every suite that skips without the data, once, in one line', () => {
    const notice = outsideDataNotice(null, null)!;
    expect(notice.split('\n')).toHaveLength(1);
    for (const { file } of OUTSIDE_DATA_SUITES) expect(notice).toContain(file);
    expect(notice).toMatch(/ASSAY_WEVAL_CORPUS/);
    expect(notice).toMatch(/ASSAY_WEVAL_CONFORMANCE/);
    const corpusOnly = outsideDataNotice(null, '/conformance')!;
    expect(corpusOnly).not.toMatch(/ASSAY_WEVAL_CONFORMANCE/);
    expect(corpusOnly).not.toContain('lib/core/points/weval-conformance.test.ts');
    expect(corpusOnly).toContain('lib/core/blueprint/conformance.test.ts');
    expect(outsideDataNotice('/corpus', '/conformance')).toBeNull();
  });
});

describe('the readers of the outside data', () => {
  const files = sourceFiles();
  const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');

  it('lists exactly the test files that skip without it', () => {
    const skipping = files.filter((f) => f.endsWith('.test.ts') && /\.skipIf\(\s*!WEVAL_(CORPUS|CONFORMANCE)/.test(text(f)));
    expect(skipping.length).toBeGreaterThan(5);
    expect(OUTSIDE_DATA_SUITES.map((s) => s.file).sort()).toEqual(skipping);
    for (const { file, needs } of OUTSIDE_DATA_SUITES) {
      if (needs.includes('corpus')) expect(text(file), file).toMatch(/\.skipIf\([^)]*!WEVAL_CORPUS/);
      if (needs.includes('conformance')) expect(text(file), file).toMatch(/\.skipIf\([^)]*!WEVAL_CONFORMANCE/);
    }
  });

  it('find it through outside-data.ts only: no other file spells the paths beside the repository', () => {
    const spelled = files.filter((f) => f !== 'testing/outside-data.ts' && f !== 'testing/outside-data.test.ts' && /shared\/(corpus|conformance)/.test(text(f)));
    expect(spelled).toEqual([]);
    expect(CORPUS_BESIDE).toBe('../shared/corpus/weval-configs');
    expect(CONFORMANCE_BESIDE).toBe('../shared/conformance/weval');
  });
});
