/** What both review pages of a blueprint need first: who is asking, whether they may review it, their count today. */
import { notFound } from 'next/navigation';
import type { SessionUser } from '@/lib/server/auth/sessions';
import { getDb } from '@/lib/server/compose/database';
import { mayReview, reviewableBlueprints } from '@/lib/server/human';
import { decodeSegment } from '@/lib/views/urls';
import { ReviewBlueprintIdSchema } from '@/lib/views/review-view';
import { currentUser } from '../../admin/session';

export type Reviewer =
  | { kind: 'signed-out' }
  | { kind: 'forbidden' }
  | { kind: 'reviewer'; user: SessionUser; blueprintId: string; title: string; answeredToday: number };

/** A malformed blueprint id in the path is a 404; an id this user may not review is `forbidden`, not an error. */
export async function loadReviewer(segment: string): Promise<Reviewer> {
  const parsed = ReviewBlueprintIdSchema.safeParse(decodeSegment(segment));
  if (!parsed.success) notFound();
  const blueprintId = parsed.data;
  const user = await currentUser();
  if (!user) return { kind: 'signed-out' };
  if (!(await mayReview(getDb(), user, blueprintId))) return { kind: 'forbidden' };
  const row = (await reviewableBlueprints(getDb(), user)).find((r) => r.blueprintId === blueprintId);
  return { kind: 'reviewer', user, blueprintId, title: row?.title ?? blueprintId, answeredToday: row?.answeredToday ?? 0 };
}
