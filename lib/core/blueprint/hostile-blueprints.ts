/**
 * Hostile blueprints from a red-team pass (see docs/limits.md), shared by the security tests, the
 * fuzz run and the loader bench. Each is built here rather than kept as a file so its size
 * and shape are visible; the two alias bombs are padded to the sizes the pass used.
 */

/** Nested anchors and aliases: nine levels of nine aliases of the level below (9⁹ ≈ 387 million scalars). */
export const ALIAS_BOMB_469 = padTo(
  469,
  [
    'title: Laughs',
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
    ...['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
    'prompts:',
    '  - prompt: *i',
  ],
);

/** Merge keys: each level a mapping merging the level below and holding it under five keys (5¹⁰ ≈ 10 million mappings). */
export const MERGE_BOMB_631 = padTo(
  631,
  [
    'title: Merges',
    'm0: &m0 {a: lol, b: lol, c: lol, d: lol, e: lol}',
    ...Array.from({ length: 9 }, (_, i) => `m${i + 1}: &m${i + 1} {<<: *m${i}, ${['a', 'b', 'c', 'd', 'e'].map((k) => `${k}: *m${i}`).join(', ')}}`),
    'prompts:',
    '  - prompt: hi',
    '    should: [*m9]',
  ],
);

/** `[[[[…1…]]]]` `depth` deep, as JSON. */
export function deepJson(depth: number): string {
  return '{"prompts":[{"prompt":"hi","should":[' + '['.repeat(depth) + '"x"' + ']'.repeat(depth) + ']}]}';
}

/** A YAML block list nested `depth` deep on one line (`- - - … x`): composing it ran the process out of memory. */
export function deepYaml(depth: number): string {
  return 'prompts:\n  - prompt: hi\n    should:\n      ' + '- '.repeat(depth) + 'x\n';
}

/** One prompt with `n` points, written compactly (`[x,x,…]`: 200,000 fit in 400 KB). */
export function manyPoints(n: number): string {
  return 'prompts:\n  - prompt: hi\n    should: [' + Array(n).fill('x').join(',') + ']\n';
}

/** A header and `n` empty documents (200,000 fit in 800 KB). */
export function manyDocuments(n: number): string {
  return 'title: Many\n' + '---\n'.repeat(n);
}

function padTo(bytes: number, lines: string[]): string {
  const text = lines.join('\n') + '\n';
  const pad = bytes - text.length - 3;
  if (pad < 0) throw new Error(`the bomb is ${text.length} bytes, over ${bytes}`);
  return `${text}# ${'x'.repeat(pad)}\n`;
}
