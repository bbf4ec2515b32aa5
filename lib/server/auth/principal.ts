/**
 * Who is asking: the admin token (`Authorization: Bearer …`, for scripts and CI), or a
 * signed-in user (the session cookie). Acting — anything that changes state or spends
 * money — needs the token or a user whose role is maintainer or admin.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/client';
import { ForbiddenError, UnauthorizedError } from '../http/errors';
import { readCookie } from '../http/responses';
import { SESSION_COOKIE, sessionUser, type SessionUser } from './sessions';

export type Principal = { kind: 'admin-token' } | { kind: 'user'; user: SessionUser };

/** Compares digests, so the time taken says nothing about how much of the token matched. */
export function isAdminToken(presented: string | null | undefined, configured: string | undefined): boolean {
  if (!presented || !configured) return false;
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(configured).digest();
  return timingSafeEqual(a, b);
}

export function mayAct(p: Principal | null): boolean {
  return p !== null && (p.kind === 'admin-token' || p.user.role === 'maintainer' || p.user.role === 'admin');
}

/** The login recorded as the actor of an approval or a run. */
export function actorName(p: Principal): string {
  return p.kind === 'admin-token' ? '~admin' : p.user.githubLogin;
}

/**
 * The bearer admin token, else the session cookie. A cookie-authenticated request that
 * changes state must come from one of our own pages: besides SameSite=Strict, its Origin
 * (when the browser sends one) must be this site's or `publicUrl`'s.
 */
export async function principalOf(db: Db, adminToken: string | undefined, request: Request, publicUrl?: string): Promise<Principal | null> {
  const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
  if (bearer) {
    if (isAdminToken(bearer, adminToken)) return { kind: 'admin-token' };
    throw new UnauthorizedError('The bearer token is not the admin token (ASSAY_ADMIN_TOKEN).');
  }
  const token = readCookie(request, SESSION_COOKIE);
  if (!token) return null;
  if (request.method !== 'GET' && request.method !== 'HEAD') requireSameOrigin(request, publicUrl);
  const user = await sessionUser(db, token);
  return user ? { kind: 'user', user } : null;
}

/**
 * A state-changing request made with this site's cookies must come from this site: its Origin
 * (every current browser sends one on a POST) must be ours, and without an Origin the browser's
 * Sec-Fetch-Site must not say cross-site. Requests with neither (curl, scripts) carry no
 * ambient cookie a third party could ride on, so they pass.
 */
export function requireSameOrigin(request: Request, publicUrl?: string): void {
  const origin = request.headers.get('origin');
  if (origin) {
    const ours = [new URL(request.url).origin, ...(publicUrl ? [new URL(publicUrl).origin] : [])];
    // the Host the browser addressed (a page cannot forge it): Next's request.url may name another host
    const host = request.headers.get('host');
    const sameHost = host !== null && URL.canParse(origin) && new URL(origin).host === host;
    if (!ours.includes(origin) && !sameHost) throw new ForbiddenError(`A request from ${origin} cannot act with this site's session.`);
    return;
  }
  const site = request.headers.get('sec-fetch-site');
  if (site === 'cross-site' || site === 'same-site') throw new ForbiddenError(`A ${site} request cannot act with this site's session.`);
}

/** The principal, if it may act; otherwise 401 (nobody) or 403 (a reader or author). */
export function requireActor(p: Principal | null): Principal {
  if (!p) throw new UnauthorizedError();
  if (!mayAct(p)) throw new ForbiddenError(`${actorName(p)} is signed in as ${p.kind === 'user' ? p.user.role : '?'}; this needs a maintainer or admin (an admin can change roles).`);
  return p;
}
