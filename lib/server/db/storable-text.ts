/**
 * Text PostgreSQL refuses, made storable, in one place (docs/runs.md, "Text PostgreSQL refuses").
 * `text` columns reject U+0000 ("invalid byte sequence for encoding UTF8: 0x00"), `jsonb` rejects
 * `\u0000` and lone surrogates ("unsupported Unicode escape sequence"). A model may return either
 * in its content, its reasoning or a tool call's arguments, and one such reply used to fail the
 * whole run. We escape rather than reject, so the rest of the reply is kept and graded:
 *
 *   U+0000              → U+2400 SYMBOL FOR NULL ("␀": visible, and says what was there)
 *   a lone surrogate    → U+FFFD REPLACEMENT CHARACTER (what a UTF-8 encoder writes anyway)
 *
 * Every write of provider text goes through `storable` (the gateway before the cache and the
 * caller see a response; replies, verdicts and run errors before their INSERT/UPDATE), so what
 * is graded is exactly what is stored, on the first run and on a resume.
 */

import { unstorableOffset } from '@/lib/core';

// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export const NUL_REPLACEMENT = '\u2400';

export function storableText(s: string): string {
  // the usual answer from native scans (the look-arounds below cost ~10× more on clean text)
  if (unstorableOffset(s) < 0) return s;
  return s.replace(UNSTORABLE, (c) => (c === '\u0000' ? NUL_REPLACEMENT : '\uFFFD'));
}

/** The same for any JSON-like value: every string and every object key, at any depth. */
export function storable<T>(value: T): T {
  return clean(value, 0) as T;
}

function clean(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return storableText(value);
  if (value === null || typeof value !== 'object' || depth > 200) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    value.forEach((item, i) => {
      const c = clean(item, depth + 1);
      if (c !== item) (out ??= [...value])[i] = c;
    });
    return out ?? value;
  }
  if (value instanceof Date) return value;
  // A copy is made only once something changes (every verdict row goes through here, and almost none changes).
  const entries = Object.entries(value);
  let out: Record<string, unknown> | null = null;
  for (let i = 0; i < entries.length; i++) {
    const [k, v] = entries[i]!;
    const key = storableText(k);
    const c = clean(v, depth + 1);
    if (!out && (key !== k || c !== v)) {
      out = {};
      for (let j = 0; j < i; j++) out[entries[j]![0]] = entries[j]![1];
    }
    if (out) out[key] = c;
  }
  return out ?? value;
}

/**
 * A database refusing a value (SQLSTATE class 22 "data exception", 54 "program limit
 * exceeded"), as opposed to a lost connection: retrying the same row cannot help, so the
 * caller stores an error in its place.
 */
export function isDataRefusal(e: unknown): boolean {
  for (let cur: unknown = e, i = 0; cur && typeof cur === 'object' && i < 5; cur = (cur as { cause?: unknown }).cause, i++) {
    const o = cur as { code?: unknown; originalCode?: unknown; meta?: { code?: unknown } };
    for (const code of [o.originalCode, o.meta?.code, o.code]) if (typeof code === 'string' && /^(22|54)[0-9A-Z]{3}$/.test(code)) return true;
    const msg = (cur as { message?: unknown }).message;
    if (typeof msg === 'string' && /invalid byte sequence|unsupported Unicode escape|invalid input syntax for type json|too large|exceeds the maximum/i.test(msg)) return true;
  }
  return false;
}
