/**
 * What the review routes share: who is reviewing (a signed-in person: labels are a person's, so
 * the admin token cannot give them), answering a page's form post with a redirect back to the
 * page (with the reason when the answer was refused), and the admin routes' per-actor limit.
 */
import type { Db } from '../db/client';
import { actorName, type Principal } from '../auth/principal';
import type { SessionUser } from '../auth/sessions';
import { ADMIN_ACTION_LIMIT, enforceRateLimit } from '../auth/rate-limit';
import { AppError, ForbiddenError, UnauthorizedError } from '../http/errors';
import { redirect } from '../http/responses';

export function reviewerOf(principal: Principal | null): SessionUser {
  if (!principal) throw new UnauthorizedError('Sign in with GitHub to review: the review page (/review) has the sign-in link.');
  if (principal.kind !== 'user') throw new ForbiddenError('The admin token cannot review: labels are a person’s; sign in with GitHub.');
  return principal.user;
}

/** The blueprint of a review item or pair (for the page a form post goes back to), or null when there is none. */
export async function queueBlueprintOf(db: Db, kind: 'items' | 'pairs', id: string): Promise<string | null> {
  const row = kind === 'items' ? await db.reviewItem.findUnique({ where: { id }, select: { blueprintId: true } }) : await db.pairItem.findUnique({ where: { id }, select: { blueprintId: true } });
  return row?.blueprintId ?? null;
}

/**
 * A form post's answer: back to `page` (303) when `work` succeeds, back with `?error=` saying
 * why when it is refused, so the reviewer stays on their page either way.
 */
export async function formAnswer(page: string, work: () => Promise<unknown>): Promise<Response> {
  try {
    await work();
    return redirect(page);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    const sep = page.includes('?') ? '&' : '?';
    return redirect(`${page}${sep}error=${encodeURIComponent(e.message)}`);
  }
}

/** An admin review action: counted against the actor's admin limit; the actor's name for the record. */
export async function reviewAdminActor(db: Db, principal: Principal): Promise<string> {
  await enforceRateLimit(db, `admin:${principal.kind === 'user' ? principal.user.id : 'token'}`, ADMIN_ACTION_LIMIT);
  return actorName(principal);
}

/** Where an admin form post goes back to: the admin page's review section, with a notice. */
export function adminNotice(message: string): Response {
  return redirect(`/admin?notice=${encodeURIComponent(message)}#review`);
}
