/**
 * Translates a blueprint regex written in JavaScript syntax (already accepted by `new RegExp`)
 * into RE2 syntax with the same meaning, so it can run on a linear-time engine
 * (`^(\w+\s?)*$` took 54 s on V8's backtracking engine).
 *
 * Only a boolean "does it match anywhere" is ever asked, so capture numbering, laziness and
 * leftmost-first vs leftmost-longest make no difference; every group becomes `(?:…)`.
 * Where the two engines disagree the translation spells the JavaScript meaning out:
 * - `.` excludes \n \r U+2028 U+2029 in JS (RE2: only \n), so it becomes an explicit class;
 * - `\s`/`\S` are JS's Unicode white space (RE2: ASCII only), spelled as ranges;
 * - literals are written as `\x{…}` so RE2-only syntax (`[[:alpha:]]`, `\pN`, `\z`) never
 *   appears by accident;
 * - `[]` (matches nothing) and `[^]` (anything) have no RE2 spelling: explicit ranges.
 * What RE2 cannot express at all (lookaround, backreferences, repeat counts above 1000,
 * Unicode properties RE2 does not know) is refused with the reason; the caller then runs the
 * pattern in the JS engine inside the sandbox. A few differences depend on the text, not
 * the pattern (multiline anchors at \r, legacy-mode surrogates, `\b` next to ſ/K under `iu`):
 * `jsOnlyText` lists the characters whose presence sends that text to the sandbox.
 */

export interface JsFlags {
  unicode: boolean;
  ignoreCase: boolean;
  multiline: boolean;
  dotAll: boolean;
  /** Keep capture groups capturing, for callers that read a group (citation ids); default: every group `(?:…)`. */
  captures?: boolean;
}

export type Translation = { ok: true; source: string; jsOnlyText: RegExp | null } | { ok: false; reason: string };

/** JS white space and line terminators (ECMA-262 WhiteSpace + LineTerminator), as code point ranges. */
const SPACE: ReadonlyArray<readonly [number, number]> = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const LINE_TERMINATORS: ReadonlyArray<readonly [number, number]> = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];
const DIGIT: ReadonlyArray<readonly [number, number]> = [[0x30, 0x39]];
const MAX_CP = 0x10ffff;
/** RE2 refuses larger repeat counts. */
const MAX_REPEAT = 1000;

/** General categories RE2 knows by their short names (JS also accepts the long ones). */
const GENERAL_CATEGORIES: Record<string, string> = {
  L: 'L', Letter: 'L', Lu: 'Lu', Uppercase_Letter: 'Lu', Ll: 'Ll', Lowercase_Letter: 'Ll', Lt: 'Lt', Titlecase_Letter: 'Lt',
  Lm: 'Lm', Modifier_Letter: 'Lm', Lo: 'Lo', Other_Letter: 'Lo', M: 'M', Mark: 'M', Mn: 'Mn', Nonspacing_Mark: 'Mn',
  Mc: 'Mc', Spacing_Mark: 'Mc', Me: 'Me', Enclosing_Mark: 'Me', N: 'N', Number: 'N', Nd: 'Nd', Decimal_Number: 'Nd',
  Nl: 'Nl', Letter_Number: 'Nl', No: 'No', Other_Number: 'No', P: 'P', Punctuation: 'P', Pc: 'Pc', Connector_Punctuation: 'Pc',
  Pd: 'Pd', Dash_Punctuation: 'Pd', Ps: 'Ps', Open_Punctuation: 'Ps', Pe: 'Pe', Close_Punctuation: 'Pe', Pi: 'Pi',
  Initial_Punctuation: 'Pi', Pf: 'Pf', Final_Punctuation: 'Pf', Po: 'Po', Other_Punctuation: 'Po', S: 'S', Symbol: 'S',
  Sm: 'Sm', Math_Symbol: 'Sm', Sc: 'Sc', Currency_Symbol: 'Sc', Sk: 'Sk', Modifier_Symbol: 'Sk', So: 'So', Other_Symbol: 'So',
  Z: 'Z', Separator: 'Z', Zs: 'Zs', Space_Separator: 'Zs', Zl: 'Zl', Line_Separator: 'Zl', Zp: 'Zp', Paragraph_Separator: 'Zp',
  C: 'C', Other: 'C', Cc: 'Cc', Control: 'Cc', Cf: 'Cf', Format: 'Cf', Co: 'Co', Private_Use: 'Co', Cs: 'Cs', Surrogate: 'Cs',
};

class Refused extends Error {}

function hex(cp: number): string {
  return `\\x{${cp.toString(16)}}`;
}

/** A literal code point outside a class: letters and digits as themselves, the rest escaped. */
function literal(cp: number): string {
  return (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) ? String.fromCodePoint(cp) : hex(cp);
}

function rangesBody(ranges: ReadonlyArray<readonly [number, number]>): string {
  return ranges.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join('');
}

function complement(ranges: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [a, b] of [...ranges].sort((x, y) => x[0] - y[0])) {
    if (a > next) out.push([next, a - 1]);
    next = Math.max(next, b + 1);
  }
  if (next <= MAX_CP) out.push([next, MAX_CP]);
  return out;
}

function property(body: string, negated: boolean): string {
  const eq = body.indexOf('=');
  const [key, value] = eq === -1 ? [null, body] : [body.slice(0, eq), body.slice(eq + 1)];
  let name: string | undefined;
  if (key === null || key === 'General_Category' || key === 'gc') name = GENERAL_CATEGORIES[value];
  // RE2 knows scripts by their long names (Greek, Latin, Han), as JS's `Script=` does.
  else if ((key === 'Script' || key === 'sc') && /^[A-Z][A-Za-z_]*$/.test(value)) name = value;
  if (!name) throw new Refused(`the Unicode property \\p{${body}}`);
  return `\\${negated ? 'P' : 'p'}{${name}}`;
}

/** A pattern scanner over code points (Unicode mode) or code units (legacy mode). */
class Scanner {
  readonly units: number[];
  i = 0;
  constructor(source: string, unicode: boolean) {
    this.units = unicode ? [...source].map((c) => c.codePointAt(0)!) : [...Array(source.length).keys()].map((k) => source.charCodeAt(k));
  }
  get done(): boolean {
    return this.i >= this.units.length;
  }
  peek(offset = 0): number | undefined {
    return this.units[this.i + offset];
  }
  ch(offset = 0): string {
    const u = this.peek(offset);
    return u === undefined ? '' : String.fromCodePoint(u);
  }
  next(): number {
    return this.units[this.i++]!;
  }
  /** Reads exactly `count` hex digits, or nothing (undefined) if they are not there. */
  hexDigits(count: number): number | undefined {
    let text = '';
    for (let k = 0; k < count; k++) text += this.ch(k);
    if (!/^[0-9a-fA-F]+$/.test(text) || text.length !== count) return undefined;
    this.i += count;
    return parseInt(text, 16);
  }
}

interface Ctx {
  flags: JsFlags;
  /** Characters whose presence in the text sends it to the sandbox. */
  jsOnly: Set<string>;
  /** Something in the pattern can match one half of a surrogate pair (legacy mode matches UTF-16 units). */
  unitSensitive: boolean;
}

/** A set atom: known `ranges` (\d \D \s \S), or RE2 text only (\w, \p{…}). */
type Atom = { kind: 'char'; cp: number } | { kind: 'set'; inClass: string; outside: string; ranges?: ReadonlyArray<readonly [number, number]> };

function set(ranges: ReadonlyArray<readonly [number, number]>): Atom {
  const body = rangesBody(ranges);
  return { kind: 'set', inClass: body, outside: `[${body}]`, ranges };
}

/** \\D and \\S: written negated outside a class (`[^0-9]`), far cheaper for RE2 to case-fold. */
function negatedSet(ranges: ReadonlyArray<readonly [number, number]>): Atom {
  return { kind: 'set', inClass: rangesBody(complement(ranges)), outside: `[^${rangesBody(ranges)}]`, ranges: complement(ranges) };
}

function normalize(ranges: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [a, b] of [...ranges].sort((x, y) => x[0] - y[0])) {
    const last = out[out.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/** At most this many code points are checked one by one for having no case. */
const SMALL_SET = 256;

/** Every code point of `ranges` has no case mapping, so case folding leaves it (and only it) alone. */
function caseless(ranges: ReadonlyArray<readonly [number, number]>): boolean {
  let size = 0;
  for (const [a, b] of ranges) size += b - a + 1;
  if (size > SMALL_SET) return false;
  for (const [a, b] of ranges) {
    for (let cp = a; cp <= b; cp++) {
      const ch = String.fromCodePoint(cp);
      if (ch.toLowerCase() !== ch || ch.toUpperCase() !== ch) return false;
    }
  }
  return true;
}

/** An escape after `\`, in or out of a class; `\b` means backspace in a class. */
function escape(s: Scanner, ctx: Ctx, inClass: boolean): Atom | string {
  const { unicode, ignoreCase } = ctx.flags;
  const c = s.ch();
  s.next();
  switch (c) {
    case 'd':
      return set(DIGIT);
    case 'D':
      ctx.unitSensitive = true;
      return negatedSet(DIGIT);
    case 's':
      return set(SPACE);
    case 'S':
      ctx.unitSensitive = true;
      return negatedSet(SPACE);
    case 'w':
    case 'W':
      // Under (?i) RE2 folds \w to include ſ (U+017F) and K (U+212A), as JS does with `iu` only.
      if (ignoreCase && !unicode) ctx.jsOnly.add('\u017f').add('\u212a');
      if (c === 'W') ctx.unitSensitive = true;
      return { kind: 'set', inClass: `\\${c}`, outside: `\\${c}` };
    case 'b':
      if (inClass) return { kind: 'char', cp: 0x08 };
      if (ignoreCase && unicode) ctx.jsOnly.add('\u017f').add('\u212a');
      return '\\b';
    case 'B':
      if (inClass && !unicode) return { kind: 'char', cp: 0x42 };
      if (ignoreCase && unicode) ctx.jsOnly.add('\u017f').add('\u212a');
      return '\\B';
    case 't':
      return { kind: 'char', cp: 0x09 };
    case 'n':
      return { kind: 'char', cp: 0x0a };
    case 'v':
      return { kind: 'char', cp: 0x0b };
    case 'f':
      return { kind: 'char', cp: 0x0c };
    case 'r':
      return { kind: 'char', cp: 0x0d };
    case '0':
      if (/[0-9]/.test(s.ch())) throw new Refused('an octal escape');
      return { kind: 'char', cp: 0 };
    case 'c': {
      const letter = s.ch();
      if (/[A-Za-z]/.test(letter)) {
        s.next();
        return { kind: 'char', cp: letter.charCodeAt(0) % 32 };
      }
      throw new Refused('a \\c escape without a letter');
    }
    case 'x': {
      const cp = s.hexDigits(2);
      return { kind: 'char', cp: cp ?? 0x78 };
    }
    case 'u': {
      if (unicode && s.ch() === '{') {
        const end = s.units.indexOf(0x7d, s.i);
        const cp = parseInt(String.fromCodePoint(...s.units.slice(s.i + 1, end)), 16);
        s.i = end + 1;
        return { kind: 'char', cp };
      }
      const cp = s.hexDigits(4);
      if (cp === undefined) return { kind: 'char', cp: 0x75 };
      if (cp >= 0xd800 && cp <= 0xdbff && unicode && s.ch() === '\\' && s.ch(1) === 'u') {
        const save = s.i;
        s.i += 2;
        const low = s.hexDigits(4);
        if (low !== undefined && low >= 0xdc00 && low <= 0xdfff) return { kind: 'char', cp: 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00) };
        s.i = save;
      }
      if (cp >= 0xd800 && cp <= 0xdfff) throw new Refused('a surrogate escape');
      return { kind: 'char', cp };
    }
    case 'p':
    case 'P': {
      if (!unicode) return { kind: 'char', cp: c.charCodeAt(0) };
      const end = s.units.indexOf(0x7d, s.i);
      const body = String.fromCodePoint(...s.units.slice(s.i + 1, end));
      s.i = end + 1;
      const text = property(body, c === 'P');
      return { kind: 'set', inClass: text, outside: text };
    }
    case 'k':
      throw new Refused('a named backreference');
    default:
      if (/[1-9]/.test(c)) throw new Refused('a backreference');
      // An identity escape (`\.`, `\-`, `\/`, or in legacy mode any letter): the character itself.
      return { kind: 'char', cp: s.units[s.i - 1]! };
  }
}

function classAtom(s: Scanner, ctx: Ctx): Atom {
  const u = s.next();
  if (u === 0x5c) {
    const atom = escape(s, ctx, true);
    if (typeof atom === 'string') throw new Refused(`${atom} in a class`);
    return atom;
  }
  return { kind: 'char', cp: u };
}

/**
 * A class. Under (?i) RE2 case-folds every range of a class, which for a class covering most of
 * Unicode (`[\s\S]`, `[^x]`-like sets) takes 100 ms per compile; when what the class leaves
 * out is a few characters without case, the complement is written instead (same meaning:
 * folding cannot reach a character that has no case).
 */
function characterClass(s: Scanner, ctx: Ctx): string {
  const negated = s.ch() === '^';
  if (negated) s.next();
  const known: Array<readonly [number, number]> = [];
  const opaque: string[] = [];
  while (!s.done && s.ch() !== ']') {
    const first = classAtom(s, ctx);
    if (first.kind === 'char' && s.ch() === '-' && s.ch(1) !== ']' && s.peek(1) !== undefined) {
      const save = s.i;
      s.next();
      const last = classAtom(s, ctx);
      if (last.kind === 'char') {
        known.push([first.cp, last.cp]);
        continue;
      }
      s.i = save; // legacy `[a-\d]`: the `-` is a literal
    }
    if (first.kind === 'char') known.push([first.cp, first.cp]);
    else if (first.ranges) known.push(...first.ranges);
    else opaque.push(first.inClass);
  }
  s.next(); // the closing `]`
  const union = normalize(known);
  if (negated || opaque.length > 0 || union.some(([, b]) => b >= 0xd800)) ctx.unitSensitive = true;
  if (opaque.length === 0) {
    const left = complement(union);
    const all = `[${rangesBody([[0, MAX_CP]])}]`;
    const none = `[^${rangesBody([[0, MAX_CP]])}]`;
    if (left.length === 0) return negated ? none : all;
    if (union.length === 0) return negated ? all : none;
    if (ctx.flags.ignoreCase && caseless(left)) return negated ? `[${rangesBody(left)}]` : `[^${rangesBody(left)}]`;
  }
  return `[${negated ? '^' : ''}${rangesBody(union)}${opaque.join('')}]`;
}

/** `{n}`, `{n,}` or `{n,m}` at the scanner, or null (then a legacy-mode literal brace). */
function quantifier(s: Scanner): string | null {
  let k = 1;
  let text = '';
  while (s.peek(k) !== undefined && s.ch(k) !== '}') text += s.ch(k++);
  const m = /^(\d+)(,(\d*))?$/.exec(text);
  if (!m || s.ch(k) !== '}') return null;
  const counts = [m[1], m[3]].filter((x): x is string => x !== undefined && x !== '').map(Number);
  if (counts.some((n) => n > MAX_REPEAT)) throw new Refused(`a repeat count above ${MAX_REPEAT}`);
  s.i += k + 1;
  return `{${text}}`;
}

export function translateToRe2(source: string, flags: JsFlags): Translation {
  const ctx: Ctx = { flags, jsOnly: new Set(), unitSensitive: false };
  // Legacy mode works on UTF-16 units (`.` matches half of an emoji); RE2 on code points.
  if (!flags.unicode && /[\ud800-\udfff]/.test(source)) return { ok: false, reason: 'a non-BMP character in a pattern that is not Unicode-mode' };
  const s = new Scanner(source, flags.unicode);
  let out = '';
  try {
    while (!s.done) {
      const c = s.ch();
      switch (c) {
        case '\\': {
          s.next();
          const atom = escape(s, ctx, false);
          out += typeof atom === 'string' ? atom : atom.kind === 'char' ? literal(atom.cp) : atom.outside;
          break;
        }
        case '[':
          s.next();
          out += characterClass(s, ctx);
          break;
        case '(':
          s.next();
          if (s.ch() === '?') {
            const kind = s.ch(1);
            if (kind === ':') s.i += 2;
            else if (kind === '=' || kind === '!' || (kind === '<' && (s.ch(2) === '=' || s.ch(2) === '!'))) throw new Refused('lookaround');
            else if (kind === '<') s.i = s.units.indexOf(0x3e, s.i) + 1; // a named group: its name does not matter here
            else throw new Refused(`the group syntax (?${kind}`);
            out += '(?:';
          } else out += flags.captures ? '(' : '(?:';
          break;
        case '.':
          s.next();
          ctx.unitSensitive = true;
          out += `[${flags.dotAll ? '' : '^'}${rangesBody(flags.dotAll ? [[0, MAX_CP]] : LINE_TERMINATORS)}]`;
          break;
        case '^':
        case '$':
          s.next();
          if (flags.multiline) for (const t of '\r\u2028\u2029') ctx.jsOnly.add(t);
          out += c;
          break;
        case '|':
        case ')':
        case '*':
        case '+':
        case '?':
          s.next();
          out += c;
          break;
        case '{': {
          const q = quantifier(s);
          if (q !== null) out += q;
          else out += literal(s.next());
          break;
        }
        default:
          out += literal(s.next());
      }
    }
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.message };
    throw error;
  }
  // Only a pattern that can match half of a surrogate pair tells legacy mode from RE2 on astral text.
  if (!flags.unicode && ctx.unitSensitive) ctx.jsOnly.add('\ud800');
  const jsOnlyText = ctx.jsOnly.size === 0 ? null : jsOnlyClass(ctx.jsOnly);
  return { ok: true, source: out, jsOnlyText };
}

/** A one-class test over BMP characters (legacy mode adds every surrogate, paired or lone). */
function jsOnlyClass(chars: Set<string>): RegExp {
  const parts = [...chars].map((ch) => {
    const cp = ch.charCodeAt(0);
    return cp >= 0xd800 && cp <= 0xdfff ? '\\ud800-\\udfff' : `\\u${cp.toString(16).padStart(4, '0')}`;
  });
  return new RegExp(`[${[...new Set(parts)].join('')}]`);
}
