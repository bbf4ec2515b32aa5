/**
 * Who may see a draft (try-it) run: its author and maintainers (and admins). Everyone
 * else is told it does not exist (404), on its pages and its API alike, so a draft's existence is
 * not disclosed either.
 */
import type { Role } from '@/generated/prisma/client';
import type { Db } from '../db/client';
import type { Principal } from '../auth/principal';

export interface Viewer {
  id: string;
  role: Role;
}

/** The viewer a request's principal is (the admin token counts as an admin); null for a reader who is not signed in. */
export function viewerOf(principal: Principal | null): Viewer | null {
  if (!principal) return null;
  return principal.kind === 'user' ? principal.user : { id: '~admin', role: 'admin' };
}

export function mayViewRun(run: { draft: boolean; createdById: string | null }, viewer: Viewer | null): boolean {
  if (!run.draft) return true;
  if (!viewer) return false;
  return viewer.role === 'maintainer' || viewer.role === 'admin' || (run.createdById !== null && run.createdById === viewer.id);
}

/** Whether the run exists and `viewer` may see it (false for an unknown run too). */
export async function runVisibleTo(db: Db, runId: string, viewer: Viewer | null): Promise<boolean> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { draft: true, createdById: true } });
  return run !== null && mayViewRun(run, viewer);
}

/** The source every author's draft blueprint belongs to (try-it, lib/server/authoring/try-draft.ts): never synced or listed. */
export const DRAFTS_SOURCE_KEY = 'drafts:authoring';

/**
 * Whether `viewer` may see a blueprint's pages: any blueprint but a draft, which only
 * maintainers and the author who ran it see (others: 404, as for its runs).
 */
export async function blueprintVisibleTo(db: Db, blueprintId: string, viewer: Viewer | null): Promise<boolean> {
  const bp = await db.blueprint.findUnique({ where: { id: blueprintId }, select: { source: { select: { key: true } } } });
  if (!bp || bp.source.key !== DRAFTS_SOURCE_KEY) return true;
  if (!viewer) return false;
  if (viewer.role === 'maintainer' || viewer.role === 'admin') return true;
  return (await db.run.count({ where: { blueprintId, createdById: viewer.id, draft: true } })) > 0;
}
