/**
 * Every dynamic route segment is an id from a URL: it may be anything a client types. Before a
 * route or page sees it, the path must decode (no malformed percent-encoding such as `%E0%A4%A`
 * or a lone `%`), hold no control characters (`%00` cannot be stored or looked up in
 * PostgreSQL), and stay within sane lengths. Otherwise the answer is a 400 that says what is
 * wrong, never a 500 from deep inside a query.
 */

/** Longer than any blueprint id, run id, model id or prompt key Assay makes. */
export const MAX_SEGMENT_LENGTH = 512;
export const MAX_PATH_LENGTH = 4096;

export type PathProblem = { status: 400; message: string };

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Query values go into queries too (search): a NUL there is refused the same way. */
export function checkRequestQuery(search: string): PathProblem | null {
  if (!search.includes('%00') && !search.includes('\0')) return null;
  for (const [k, v] of new URLSearchParams(search)) {
    if (k.includes('\0') || v.includes('\0')) return { status: 400, message: `The query parameter ${JSON.stringify(k.replace(/\0/g, '\\0').slice(0, 40))} contains a NUL character (%00).` };
  }
  return null;
}

export function checkRequestPath(pathname: string): PathProblem | null {
  if (pathname.length > MAX_PATH_LENGTH) return { status: 400, message: `The address is longer than ${MAX_PATH_LENGTH} characters.` };
  const segments = pathname.split('/');
  for (let i = 0; i < segments.length; i++) {
    const raw = segments[i]!;
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      return { status: 400, message: `Path segment ${i} is not valid percent-encoding (UTF-8): ${JSON.stringify(raw.slice(0, 80))}.` };
    }
    if (CONTROL.test(decoded)) return { status: 400, message: `Path segment ${i} contains a control character (such as %00); ids never do.` };
    if (decoded.length > MAX_SEGMENT_LENGTH) return { status: 400, message: `Path segment ${i} is longer than ${MAX_SEGMENT_LENGTH} characters; no id is that long.` };
  }
  return null;
}
