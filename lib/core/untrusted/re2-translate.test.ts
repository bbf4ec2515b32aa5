/**
 * The RE2 translation means what the JavaScript pattern means: every pattern × text below is
 * matched through the compiler (RE2, or the sandbox where the compiler sends it) and by V8
 * directly, and the answers must agree. The texts hold the characters where the engines'
 * defaults differ (\r, U+2028, NBSP, ſ, K, astral letters, lone surrogates).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuickJsSandbox, type QuickJsSandbox } from '../points/sandbox/quickjs';
import { foldCase, nfc } from '../points/text/normalize';
import { compilePattern, testPattern } from './regex';
import { translateToRe2 } from './re2-translate';

const PATTERNS = [
  'a.c', '^a.c$', 'a.c', '\\s+', '\\S+x', '^\\s*$', '[\\s]', '[^\\s]', '[\\S\\d]', '\\d{2,3}', '\\D', '\\w+', '\\W', '\\bword\\b', '\\Bor',
  '[]', '[^]', 'a[]b|c', '[^]x', '[a-z]+', '[^a-z]', '[\\-x]', '[.]', '[$^]', '\\.', '\\$', '\\^', '\\/', '\\|', '\\\\', 'x\\ty', '\\n',
  '\\u00e9', '\\u{1F600}', '\\uD83D\\uDE00', '\\x41', '\\0', '\\cJ', '(?:ab)+', '(?<year>\\d{4})-\\d{2}', '(a|b)*c', 'colou?r', 'a{2}', 'a{2,}', 'a+?b',
  '\\p{Lu}', '\\p{L}+', '\\P{L}', '\\p{Script=Greek}', '\\p{sc=Han}', '\\p{General_Category=Decimal_Number}', '[\\p{L}\\p{N}]+', '\\p{Letter}',
  '[[:alpha:]]', '[a-\\d]', '\\:', 'a\\-b', '\\a', '{', 'x{', 'a{,2}', '}', ']', '😀', '^.$', '^..$', '[😀]', 'straße', 'σ', 'İstanbul', 'k',
  '^\\-?.$', '\\-[^a]', 'a\\-\\S', '\\-\\W', '(?i)\\-k',
  '^b', 'a$', '(?m)^b', '(?m)a$', '(?s)a.c', '(?i)ABC', '(?i)\\bk\\b', '(?i)\\w', '(?i)[^k]', '(?i)\\p{Lu}', '(?i)ſ', '(?im)^x$',
];
const TEXTS = [
  'abc', '-😀', 'a-😀', '-\ud83d', '-k', '-\u212a', 'a\nc', 'a\rc', 'a\u2028c', 'a\u00a0c', ' \t', '\u3000', 'x', 'a-b:c', 'word', 'a word here', 'sword', '1999-12', 'colour color',
  'aa', 'aab', 'ABC', 'É', 'é', 'e\u0301', '😀', 'a😀', '\ud83d', 'STRASSE', 'Straße', 'ς', 'Σ', 'istanbul', 'İSTANBUL', 'K', '\u212a', 'ſ', 's',
  'αβγ', '中文', '٣', '{', 'x{', 'a{,2}', ']', '}', '[', '$^', '.', '\\', '/', '|', 'x\ty', '\0', 'a\r\nb', 'a\nb', 'x\n', '\nx', '\u2028x\u2028', '',
];

/** V8's own answer, with the compiler's two tries (text, then case-folded text). */
function v8(pattern: string, text: string): boolean | 'invalid' {
  const compiled = compilePattern(pattern, false);
  if (!compiled.ok) return 'invalid';
  const re = new RegExp(compiled.source, compiled.flags);
  const t = nfc(text);
  return re.test(t) || (compiled.caseInsensitive && re.test(foldCase(t)));
}

let sandbox: QuickJsSandbox;
beforeAll(async () => {
  sandbox = await createQuickJsSandbox();
});
afterAll(() => sandbox.dispose());

describe('translateToRe2 keeps the JavaScript meaning', () => {
  it('agrees with V8 on every pattern × text', () => {
    const disagreements: string[] = [];
    let onRe2 = 0;
    for (const pattern of PATTERNS) {
      for (const text of TEXTS) {
        const expected = v8(pattern, text);
        if (expected === 'invalid') continue;
        const compiled = compilePattern(pattern, false);
        if (!compiled.ok) throw new Error(pattern);
        const got = testPattern(compiled, text, sandbox);
        if (!got.ok) disagreements.push(`${pattern} on ${JSON.stringify(text)}: ${got.message}`);
        else if (got.matched !== expected) disagreements.push(`${pattern} on ${JSON.stringify(text)}: ${got.engine} says ${got.matched}, V8 ${expected}`);
        if (got.ok && got.engine === 're2') onRe2++;
      }
    }
    expect(disagreements).toEqual([]);
    // Nearly all of it ran on RE2: the sandbox is the exception, not the rule.
    expect(onRe2).toBeGreaterThan(PATTERNS.length * TEXTS.length * 0.8);
  });

  it('refuses what RE2 cannot express, saying what', () => {
    const flags = { unicode: true, ignoreCase: false, multiline: false, dotAll: false };
    expect(translateToRe2('a(?=b)', flags)).toEqual({ ok: false, reason: 'lookaround' });
    expect(translateToRe2('(?<!a)b', flags)).toEqual({ ok: false, reason: 'lookaround' });
    expect(translateToRe2('(a)\\1', flags)).toEqual({ ok: false, reason: 'a backreference' });
    expect(translateToRe2('(?<x>a)\\k<x>', flags)).toEqual({ ok: false, reason: 'a named backreference' });
    expect(translateToRe2('a{1001}', flags)).toEqual({ ok: false, reason: 'a repeat count above 1000' });
    expect(translateToRe2('\\p{Emoji}', flags)).toEqual({ ok: false, reason: 'the Unicode property \\p{Emoji}' });
  });

  it('runs lookaround and backreferences in the sandbox, and says so', () => {
    const look = compilePattern('^(?=.*\\bcat\\b)(?!.*dog)', false);
    const back = compilePattern('(\\w)\\1', false);
    if (!look.ok || !back.ok) throw new Error('valid patterns');
    expect(testPattern(look, 'a cat sat', sandbox)).toEqual({ ok: true, matched: true, engine: 'sandbox' });
    expect(testPattern(look, 'a cat and a dog', sandbox)).toEqual({ ok: true, matched: false, engine: 'sandbox' });
    expect(testPattern(back, 'balloon', sandbox)).toEqual({ ok: true, matched: true, engine: 'sandbox' });
    expect(testPattern(back, 'balon')).toEqual({ ok: false, message: expect.stringMatching(/needs the JavaScript engine \(a backreference\).*none is configured/) });
  });
});
