/**
 * docs/architecture.md is a newcomer's map: a path it names that no longer exists, or a room of
 * lib/ it does not list, sends them the wrong way. Every backticked path on the page must name a
 * file or folder of the repository (from its root, or from inside a room as the page writes them:
 * `units/kinds.ts` in lib/server/runs), and every folder of lib/ must be a row of the rooms table.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const PAGE = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
const FILES = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);

/** Backticked words that look like paths: a folder separator or a file extension, no placeholder or glob. */
export function pathsNamed(markdown: string): string[] {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/`([^`\s]+)`/g)) {
    const word = m[1]!.replace(/[.,;:]$/, '');
    // placeholders, globs, links, npm packages (`@octokit/…`) and name fragments (`-forks.ts`) are not paths
    if (/[<>*{}]|^https?:|^\.\.?\/|^[@-]/.test(word)) continue;
    if (/\/|\.(tsx?|mjs|md|prisma|json)$/.test(word) && !/[()=]/.test(word)) out.add(word);
  }
  return [...out];
}

/** A file, or a folder holding files, at that path or ending with it (the page writes paths inside a room from the room). */
export function resolves(path: string, files: readonly string[]): boolean {
  const bare = path.replace(/\/$/, '');
  return files.some((f) => f === bare || f.startsWith(`${bare}/`) || f.endsWith(`/${bare}`) || f.includes(`/${bare}/`));
}

describe('docs/architecture.md', () => {
  it('names only paths that exist', () => {
    const named = pathsNamed(PAGE);
    expect(named.length).toBeGreaterThan(40);
    expect(named.filter((p) => !resolves(p, FILES))).toEqual([]);
  });

  it('lists every room of lib/ in its rooms table', () => {
    const rooms = readdirSync(join(ROOT, 'lib'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `lib/${e.name}/`);
    const table = PAGE.slice(PAGE.indexOf('## The rooms'), PAGE.indexOf('## Flow 1'));
    expect(rooms.filter((r) => !table.includes(`| \`${r}\``))).toEqual([]);
  });

  it('catches a path that does not exist and a bare name found nowhere (the checks can fail)', () => {
    expect(pathsNamed('see `lib/server/runs/gone.ts` and `nowhere.ts`, not `a <b>` or `x`')).toEqual(['lib/server/runs/gone.ts', 'nowhere.ts']);
    expect(resolves('lib/server/runs/gone.ts', FILES)).toBe(false);
    expect(resolves('nowhere-at-all.ts', FILES)).toBe(false);
    expect(resolves('units/kinds.ts', FILES)).toBe(true);
    expect(resolves('providers/', FILES)).toBe(true);
  });
});
