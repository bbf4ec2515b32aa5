/** Non-JSON replies (redirects with cookies) and cookie helpers for route handlers, over the `cookie` package. */
// cookie 1.x: 2.x requires Node 22, and Assay runs on Node 20.
import { parse as parseCookie, serialize } from 'cookie';

export interface CookieOptions {
  maxAgeSeconds?: number;
  /** Strict for the admin session (never sent on cross-site requests); Lax where a cross-site redirect must carry it (OAuth state). */
  sameSite: 'Strict' | 'Lax';
  /** Set when the public URL is https. */
  secure: boolean;
  path?: string;
}

/** An httpOnly `Set-Cookie` value (the value percent-encoded). */
export function serializeCookie(name: string, value: string, o: CookieOptions): string {
  return serialize(name, value, {
    path: o.path ?? '/',
    httpOnly: true,
    sameSite: o.sameSite === 'Strict' ? 'strict' : 'lax',
    secure: o.secure,
    ...(o.maxAgeSeconds !== undefined ? { maxAge: Math.max(0, Math.floor(o.maxAgeSeconds)) } : {}),
  });
}

/** A cookie of the request by name, percent-decoded (a value that does not decode is returned as sent); null when absent. */
export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get('cookie');
  return header ? (parseCookie(header)[name] ?? null) : null;
}

/** A 303 (so a form POST becomes a GET) to `location`, setting the given cookies. */
export function redirect(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ Location: location });
  for (const c of cookies) headers.append('Set-Cookie', c);
  return new Response(null, { status: 303, headers });
}
