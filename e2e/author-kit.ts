/**
 * What the /author specs (editor, try-it, pull request, the journey) share: signing in through
 * the fake GitHub's consent page, screenshots of a step, and reading the CodeMirror editor's
 * DOM as an author sees it (where an underline is, how long it took to appear).
 */
import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** Signs `login` in with GitHub: Assay's OAuth start, the fake's consent form, back to Assay. */
export async function signIn(page: Page, githubUrl: string, login: string) {
  await page.goto('/api/auth/github');
  await page.getByLabel('Username').fill(login);
  await page.getByRole('button', { name: 'Authorize' }).click();
  // The callback page sets the session and moves on by a meta refresh: wait for the page it moves
  // to, or a navigation the caller starts next would race that refresh (and be cut short by it).
  await page.waitForURL((u) => !u.href.startsWith(githubUrl) && !u.pathname.startsWith('/api/auth/github/callback'));
}

/** A full-page screenshot function writing `<name>.png` into each of `dirs` (made if missing). */
export function shooter(...dirs: string[]) {
  for (const d of dirs) mkdirSync(d, { recursive: true });
  return async (page: Page, name: string) => {
    for (const d of dirs) await page.screenshot({ path: join(d, `${name}.png`), fullPage: true });
  };
}

/** The 1-based line and column where the first `selector` element starts, read from the editor's own DOM and gutter. */
export async function placeOf(page: Page, selector: string) {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel)!;
    const line = el.closest('.cm-line')!;
    const range = document.createRange();
    range.setStart(line, 0);
    range.setEndBefore(el);
    const top = line.getBoundingClientRect().top;
    const gutter = [...document.querySelectorAll('.cm-lineNumbers .cm-gutterElement')].find((g) => Math.abs(g.getBoundingClientRect().top - top) < 2);
    return { line: Number(gutter?.textContent), col: range.toString().length + 1, text: el.textContent };
  }, selector);
}

/**
 * Starts a clock in the page at the next keydown and stops it when an element matching
 * `selector` appears in the editor; `await` the returned function for the milliseconds.
 */
export async function timeUntilAfterKey(page: Page, selector: string): Promise<() => Promise<number>> {
  await page.evaluate((sel) => {
    const w = window as unknown as { untilMs: Promise<number> };
    w.untilMs = new Promise((resolve) => {
      let t0: number | undefined;
      document.addEventListener('keydown', () => (t0 ??= performance.now()), { capture: true });
      const watch = new MutationObserver(() => {
        if (t0 !== undefined && document.querySelector(sel)) {
          watch.disconnect();
          resolve(performance.now() - t0);
        }
      });
      watch.observe(document.querySelector('.cm-editor')!, { subtree: true, childList: true, attributes: true });
    });
  }, selector);
  return () => page.evaluate(() => (window as unknown as { untilMs: Promise<number> }).untilMs);
}

/** The lines that differ between two texts of the same number of lines (1-based). */
export function changedLines(before: string, after: string): { line: number; before: string; after: string }[] {
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.length !== b.length) throw new Error(`the texts have ${a.length} and ${b.length} lines`);
  return a.flatMap((l, i) => (l === b[i] ? [] : [{ line: i + 1, before: l, after: b[i]! }]));
}
