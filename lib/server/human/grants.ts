/**
 * Who may review: a maintainer or admin always; anyone else once granted the role on a blueprint
 * or on every blueprint (`scope` '*'). A grant names a GitHub login, so a person can be granted
 * before their first sign-in: the user is made then (a reader), and signing in finds it.
 */
import { z } from 'zod';
import type { Role } from '@/generated/prisma/client';
import type { Db } from '../db/client';
import { BadRequestError, NotFoundError } from '../http/errors';
import { waitingCounts } from './waiting';
import { startOfUtcDay } from './limits';

/** Every blueprint. */
export const ALL_BLUEPRINTS = '*';

/** GitHub's rule for a login: letters, digits and single hyphens, at most 39 characters. */
export const GitHubLoginSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/, 'a GitHub login: letters, digits and single hyphens, at most 39 characters');

export interface ReviewUser {
  id: string;
  role: Role;
}

function mayAlwaysReview(user: ReviewUser): boolean {
  return user.role === 'maintainer' || user.role === 'admin';
}

function checkLogin(login: string): string {
  const parsed = GitHubLoginSchema.safeParse(login);
  if (!parsed.success) throw new BadRequestError(`"${login}" is not a GitHub login: ${parsed.error.issues[0]?.message ?? 'see details'}.`);
  return parsed.data;
}

/** GitHub logins ignore case: a login typed in another case is the same person. */
async function findUser(db: Db, login: string) {
  return db.user.findFirst({ where: { githubLogin: { equals: login, mode: 'insensitive' } }, select: { id: true, githubLogin: true }, orderBy: { createdAt: 'asc' } });
}

export async function grantReviewer(db: Db, input: { login: string; scope: string; by: string }): Promise<{ userId: string; login: string; scope: string }> {
  const login = checkLogin(input.login);
  if (input.scope !== ALL_BLUEPRINTS) {
    const blueprint = await db.blueprint.findUnique({ where: { id: input.scope }, select: { id: true } });
    if (!blueprint) throw new NotFoundError(`No blueprint ${input.scope}: grant a blueprint's id, or '*' for every blueprint.`);
  }
  const user = (await findUser(db, login)) ?? (await db.user.upsert({ where: { githubLogin: login }, create: { githubLogin: login, role: 'reader' }, update: {}, select: { id: true, githubLogin: true } }));
  await db.reviewerGrant.upsert({
    where: { userId_scope: { userId: user.id, scope: input.scope } },
    create: { userId: user.id, scope: input.scope, grantedBy: input.by },
    update: {},
  });
  return { userId: user.id, login: user.githubLogin, scope: input.scope };
}

/** Takes the grant away; the reviewer's labels stay (removeReviewerLabels removes those). */
export async function revokeReviewer(db: Db, input: { login: string; scope: string }): Promise<{ revoked: boolean }> {
  const user = await findUser(db, checkLogin(input.login));
  if (!user) throw new NotFoundError(`No user ${input.login}.`);
  const { count } = await db.reviewerGrant.deleteMany({ where: { userId: user.id, scope: input.scope } });
  return { revoked: count > 0 };
}

export async function mayReview(db: Db, user: ReviewUser, blueprintId: string): Promise<boolean> {
  if (mayAlwaysReview(user)) return true;
  const grant = await db.reviewerGrant.findFirst({ where: { userId: user.id, scope: { in: [blueprintId, ALL_BLUEPRINTS] } }, select: { scope: true } });
  return grant !== null;
}

export interface ReviewableBlueprint {
  blueprintId: string;
  title: string;
  /** Verdicts this user could be offered now. */
  itemsWaiting: number;
  /** Pairs this user could be offered now. */
  pairsWaiting: number;
  /** This user's answers on the blueprint since midnight UTC (undone and removed ones not counted). */
  answeredToday: number;
}

/**
 * The blueprints this user may review: those granted by id, and (for a '*' grant, a maintainer
 * or an admin) every blueprint with a review queue. By title.
 */
export async function reviewableBlueprints(db: Db, user: ReviewUser, now = new Date()): Promise<ReviewableBlueprint[]> {
  const grants = await db.reviewerGrant.findMany({ where: { userId: user.id }, select: { scope: true } });
  const everywhere = mayAlwaysReview(user) || grants.some((g) => g.scope === ALL_BLUEPRINTS);
  const named = grants.map((g) => g.scope).filter((s) => s !== ALL_BLUEPRINTS);
  const queued = everywhere
    ? [...new Set([...(await db.reviewItem.findMany({ distinct: ['blueprintId'], select: { blueprintId: true } })), ...(await db.pairItem.findMany({ distinct: ['blueprintId'], select: { blueprintId: true } }))].map((r) => r.blueprintId))]
    : [];
  const ids = [...new Set([...named, ...queued])];
  if (ids.length === 0) return [];
  const [blueprints, items, pairs, answered] = await Promise.all([
    db.blueprint.findMany({ where: { id: { in: ids } }, select: { id: true, title: true } }),
    waitingCounts(db, 'items', user.id, ids),
    waitingCounts(db, 'pairs', user.id, ids),
    answeredSince(db, user.id, startOfUtcDay(now)),
  ]);
  return blueprints
    .map((b) => ({ blueprintId: b.id, title: b.title, itemsWaiting: items.get(b.id) ?? 0, pairsWaiting: pairs.get(b.id) ?? 0, answeredToday: answered.get(b.id) ?? 0 }))
    .sort((a, b) => a.title.localeCompare(b.title) || a.blueprintId.localeCompare(b.blueprintId));
}

/** A user's live answers (verdicts and pairs) since `since`, per blueprint. */
async function answeredSince(db: Db, userId: string, since: Date): Promise<Map<string, number>> {
  const rows = await db.$queryRaw<{ blueprintId: string; n: number }[]>`
    SELECT blueprint_id AS "blueprintId", count(*)::int AS n FROM (
      SELECT i.blueprint_id FROM review_labels l JOIN review_items i ON i.id = l.item_id
      WHERE l.reviewer_id = ${userId} AND l.created_at >= ${since} AND l.undone_at IS NULL AND l.removed_at IS NULL
      UNION ALL
      SELECT p.blueprint_id FROM pair_labels l JOIN pair_items p ON p.id = l.pair_id
      WHERE l.reviewer_id = ${userId} AND l.created_at >= ${since} AND l.undone_at IS NULL AND l.removed_at IS NULL
    ) a GROUP BY blueprint_id`;
  return new Map(rows.map((r) => [r.blueprintId, Number(r.n)]));
}
