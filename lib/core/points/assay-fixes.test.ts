/**
 * Vectors for the Weval defects Assay fixes (conformance README items 10, 11, 12). Weval's
 * recorded vectors contain none of these inputs, so each entry states what Weval's code
 * returns (read from its source at commit 51dc4d3) and what Assay returns instead.
 * The "Point functions" section of docs/compatibility.md lists the same names with the reasons.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluatePoint } from './evaluate';
import { resolvePointFunction } from './registry';
import { createQuickJsSandbox, type QuickJsSandbox } from './sandbox/quickjs';
import type { FnOutcome, PointContext } from './types';

type Expected = { score: number } | { error: RegExp };

interface Fix {
  name: string;
  item: 10 | 11 | 12;
  fn: string;
  args: unknown;
  response: string;
  ctx?: Omit<PointContext, 'sandbox'>;
  /** Whether the sandbox is supplied (true unless the vector is about its absence). */
  sandbox?: boolean;
  weval: string;
  assay: Expected;
}

const NFD_ACCENT = '\u0301';
const calls = (args: unknown) => ({ toolCalls: [{ name: 'run', arguments: args }] });

export const ASSAY_FIXES: Fix[] = [
  { name: 'icontains-dotted-capital-i', item: 11, fn: 'icontains', args: 'istanbul', response: "İstanbul'da hava güzel", weval: 'false (toLowerCase gives i + U+0307)', assay: { score: 1 } },
  { name: 'icontains-sharp-s', item: 11, fn: 'icontains', args: 'STRASSE', response: 'Die Straße ist lang', weval: 'false', assay: { score: 1 } },
  { name: 'icontains-sharp-s-reverse', item: 11, fn: 'icontains', args: 'straße', response: 'DIE STRASSE', weval: 'false', assay: { score: 1 } },
  { name: 'contains-nfd-response', item: 11, fn: 'contains', args: 'café', response: `un cafe${NFD_ACCENT} noir`, weval: 'false (raw code units differ)', assay: { score: 1 } },
  { name: 'contains-word-nfd-accent-is-not-a-boundary', item: 11, fn: 'contains_word', args: 'Parana', response: `The Parana${NFD_ACCENT} River`, weval: 'true (U+0301 is not in [\\p{L}\\p{N}_])', assay: { score: 0 } },
  { name: 'contains-word-nfc-vs-nfd', item: 11, fn: 'contains_word', args: 'Paraná', response: `The Parana${NFD_ACCENT} River`, weval: 'false', assay: { score: 1 } },
  { name: 'icontains-word-sharp-s', item: 11, fn: 'icontains_word', args: 'straße', response: 'IN DER STRASSE', weval: 'false', assay: { score: 1 } },
  { name: 'istarts-with-dotted-capital-i', item: 11, fn: 'istarts_with', args: 'istanbul', response: 'İSTANBUL is large', weval: 'false', assay: { score: 1 } },
  { name: 'imatches-dotted-capital-i', item: 11, fn: 'imatches', args: '^istanbul', response: 'İSTANBUL', weval: 'false (the i flag uses simple case mapping)', assay: { score: 1 } },
  { name: 'matches-inline-i-flag', item: 11, fn: 'matches', args: '(?i)^hello', response: 'HELLO there', weval: '{error: invalid regex} (JS has no (?i))', assay: { score: 1 } },
  { name: 'not-matches-inline-i-flag', item: 11, fn: 'not_matches', args: '(?i)error', response: 'ERROR: disk full', weval: '{error: invalid regex}', assay: { score: 0 } },
  { name: 'is-json-fenced-block', item: 11, fn: 'is_json', args: true, response: '```json\n{"answer": 42}\n```', weval: 'false', assay: { score: 1 } },
  { name: 'is-json-fenced-block-without-language', item: 11, fn: 'is_json', args: null, response: '```\n[1, 2]\n```\n', weval: 'false', assay: { score: 1 } },
  { name: 'is-json-fence-inside-prose-still-fails', item: 11, fn: 'is_json', args: true, response: 'Here it is:\n```json\n{"a": 1}\n```', weval: 'false', assay: { score: 0 } },
  { name: 'js-nan', item: 10, fn: 'js', args: '0 / 0', response: 'x', weval: 'NaN (survives clamping, makes the prompt score NaN)', assay: { error: /NaN/ } },
  { name: 'js-nan-in-score-object', item: 10, fn: 'js', args: 'return { score: Number("x") }', response: 'x', weval: '{score: NaN}', assay: { error: /invalid score/ } },
  { name: 'js-nan-from-parse', item: 10, fn: 'js', args: 'parseFloat(r) / 10', response: 'no number here', weval: 'NaN', assay: { error: /NaN/ } },
  {
    name: 'tool-args-expression-cannot-see-the-host',
    item: 12,
    fn: 'tool_args_match',
    args: { name: 'run', where: "typeof process !== 'undefined' && typeof require !== 'undefined'" },
    response: '',
    ctx: calls({ cmd: 'ls' }),
    weval: 'true (new Function in the server process sees process and require)',
    assay: { score: 0 },
  },
  {
    name: 'tool-args-expression-endless-loop',
    item: 12,
    fn: 'tool_args_match',
    args: { name: 'run', where: '(() => { while (true) {} })()' },
    response: '',
    ctx: calls({ cmd: 'ls' }),
    weval: 'never returns (no time limit: the scoring worker hangs)',
    assay: { error: /time limit/ },
  },
  {
    name: 'tool-args-expression-still-works',
    item: 12,
    fn: 'tool_args_match',
    args: { name: 'run', where: "args.cmd.startsWith('l')" },
    response: '',
    ctx: calls({ cmd: 'ls' }),
    weval: 'true',
    assay: { score: 1 },
  },
  {
    name: 'tool-args-expression-without-sandbox',
    item: 12,
    fn: 'tool_args_match',
    args: { name: 'run', where: 'args.cmd === "ls"' },
    response: '',
    ctx: calls({ cmd: 'ls' }),
    sandbox: false,
    weval: 'true (evaluated in the host)',
    assay: { error: /needs a sandbox/ },
  },
  {
    name: 'tool-args-partial-object-vs-primitive',
    item: 12,
    fn: 'tool_args_match',
    args: { name: 'run', where: { options: { force: true } } },
    response: '',
    ctx: calls({ options: 'force' }),
    weval: "throws TypeError (`'force' in \"force\"`), failing the whole evaluation call",
    assay: { score: 0 },
  },
];

let sandbox: QuickJsSandbox;
beforeAll(async () => {
  sandbox = await createQuickJsSandbox();
});

function kindOf(outcome: FnOutcome): { score: number } | { error: string } {
  return 'error' in outcome ? { error: outcome.error } : { score: outcome.score };
}

describe('defects Assay fixes', () => {
  it('has unique names', () => {
    expect(new Set(ASSAY_FIXES.map((f) => f.name)).size).toBe(ASSAY_FIXES.length);
  });

  it.each(ASSAY_FIXES)('item $item: $name', async ({ fn, args, response, ctx, sandbox: withSandbox, assay }) => {
    const resolved = resolvePointFunction(fn);
    if (!resolved.ok) throw new Error(resolved.message);
    const outcome = kindOf(await evaluatePoint(resolved, response, args, { ...ctx, sandbox: withSandbox === false ? undefined : sandbox }));
    if ('error' in assay) {
      expect(outcome).toHaveProperty('error');
      expect((outcome as { error: string }).error).toMatch(assay.error);
    } else {
      expect(outcome).toEqual(assay);
    }
  });
});
