/**
 * The admin page's review section: per blueprint with a review queue, how far its verdicts and
 * pairs are labelled; per reviewer (granted, or with answers), what they answered, when, and how
 * often another reviewer gave the same label on the same item. Live answers only (neither undone
 * nor removed), except `removed`, which counts what a maintainer removed.
 */
import type { Db } from '../client';
import { notSealed } from './sealed';

export type ReviewOverview = {
  blueprints: Array<{
    blueprintId: string;
    title: string;
    /** Verdicts drawn for review. */
    items: number;
    /** Items with as many live labels as reviewers wanted. */
    itemsComplete: number;
    labels: number;
    flags: number;
    pairs: number;
    pairsComplete: number;
    pairLabels: number;
    /** Judged verdicts (outside sealed prompts) of the runs drawn from: what the items were drawn out of. */
    judgedVerdicts: number;
  }>;
  reviewers: Array<{
    login: string;
    /** Blueprint ids granted, '*' for every blueprint. */
    scopes: string[];
    labels: number;
    pairLabels: number;
    /** Live answers of any kind since midnight UTC, and over the last 7 days. */
    today: number;
    last7Days: number;
    /** The latest answer given (undone ones too), or null. */
    lastAt: Date | null;
    /** Of this reviewer's labels on items another reviewer also labelled, the share another reviewer matched; null with none. */
    agreement: number | null;
    /** Answers (labels, skips, flags, pair answers) a maintainer removed. */
    removed: number;
  }>;
};

const DAY_MS = 24 * 60 * 60 * 1000;

export async function reviewOverview(db: Db, now: Date): Promise<ReviewOverview> {
  const blueprints = await db.$queryRaw<ReviewOverview['blueprints']>`
    SELECT b.id AS "blueprintId", b.title,
      (SELECT count(*)::int FROM review_items i WHERE i.blueprint_id = b.id) AS items,
      (SELECT count(*)::int FROM review_items i WHERE i.blueprint_id = b.id
         AND (SELECT count(*) FROM review_labels l WHERE l.item_id = i.id AND l.action = 'label' AND l.undone_at IS NULL AND l.removed_at IS NULL) >= i.reviewers_wanted) AS "itemsComplete",
      (SELECT count(*)::int FROM review_labels l JOIN review_items i ON i.id = l.item_id
         WHERE i.blueprint_id = b.id AND l.action = 'label' AND l.undone_at IS NULL AND l.removed_at IS NULL) AS labels,
      (SELECT count(*)::int FROM review_labels l JOIN review_items i ON i.id = l.item_id
         WHERE i.blueprint_id = b.id AND l.action = 'flag' AND l.undone_at IS NULL AND l.removed_at IS NULL) AS flags,
      (SELECT count(*)::int FROM pair_items p WHERE p.blueprint_id = b.id) AS pairs,
      (SELECT count(*)::int FROM pair_items p WHERE p.blueprint_id = b.id
         AND (SELECT count(*) FROM pair_labels l WHERE l.pair_id = p.id AND l.action = 'label' AND l.undone_at IS NULL AND l.removed_at IS NULL) >= p.reviewers_wanted) AS "pairsComplete",
      (SELECT count(*)::int FROM pair_labels l JOIN pair_items p ON p.id = l.pair_id
         WHERE p.blueprint_id = b.id AND l.action = 'label' AND l.undone_at IS NULL AND l.removed_at IS NULL) AS "pairLabels",
      (SELECT count(*)::int FROM verdicts v JOIN runs r ON r.id = v.run_id
         WHERE v.run_id IN (SELECT DISTINCT i.run_id FROM review_items i WHERE i.blueprint_id = b.id)
           AND v.kind IN ('text', 'question') AND v.status IN ('pass', 'fail') AND v.distribution IS NOT NULL
           AND ${notSealed('r.version_id', 'v.prompt_key')}) AS "judgedVerdicts"
    FROM blueprints b
    WHERE b.id IN (SELECT blueprint_id FROM review_items UNION SELECT blueprint_id FROM pair_items)
    ORDER BY b.title, b.id`;

  const today = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  const weekAgo = new Date(now.getTime() - 7 * DAY_MS);
  const [people, grants, agreement] = await Promise.all([
    db.$queryRaw<Array<Omit<ReviewOverview['reviewers'][number], 'scopes' | 'agreement'> & { userId: string }>>`
      WITH answers AS (
        SELECT reviewer_id, 'item' AS kind, action, created_at, undone_at, removed_at FROM review_labels
        UNION ALL
        SELECT reviewer_id, 'pair' AS kind, action, created_at, undone_at, removed_at FROM pair_labels
      )
      SELECT u.id AS "userId", u.github_login AS login,
        count(a.reviewer_id) FILTER (WHERE a.kind = 'item' AND a.action = 'label' AND a.undone_at IS NULL AND a.removed_at IS NULL)::int AS labels,
        count(a.reviewer_id) FILTER (WHERE a.kind = 'pair' AND a.action = 'label' AND a.undone_at IS NULL AND a.removed_at IS NULL)::int AS "pairLabels",
        count(a.reviewer_id) FILTER (WHERE a.created_at >= ${today} AND a.undone_at IS NULL AND a.removed_at IS NULL)::int AS today,
        count(a.reviewer_id) FILTER (WHERE a.created_at >= ${weekAgo} AND a.undone_at IS NULL AND a.removed_at IS NULL)::int AS "last7Days",
        max(a.created_at) AS "lastAt",
        count(a.reviewer_id) FILTER (WHERE a.removed_at IS NOT NULL)::int AS removed
      FROM users u LEFT JOIN answers a ON a.reviewer_id = u.id
      WHERE EXISTS (SELECT 1 FROM reviewer_grants g WHERE g.user_id = u.id) OR a.reviewer_id IS NOT NULL
      GROUP BY u.id, u.github_login
      ORDER BY u.github_login`,
    db.reviewerGrant.findMany({ select: { userId: true, scope: true }, orderBy: { scope: 'asc' } }),
    db.$queryRaw<{ userId: string; compared: number; matched: number }[]>`
      SELECT l.reviewer_id AS "userId", count(*)::int AS compared,
        count(*) FILTER (WHERE EXISTS (
          SELECT 1 FROM review_labels o WHERE o.item_id = l.item_id AND o.reviewer_id <> l.reviewer_id AND o.action = 'label'
            AND o.undone_at IS NULL AND o.removed_at IS NULL AND o.answer = l.answer))::int AS matched
      FROM review_labels l
      WHERE l.action = 'label' AND l.undone_at IS NULL AND l.removed_at IS NULL
        AND EXISTS (SELECT 1 FROM review_labels o WHERE o.item_id = l.item_id AND o.reviewer_id <> l.reviewer_id AND o.action = 'label' AND o.undone_at IS NULL AND o.removed_at IS NULL)
      GROUP BY l.reviewer_id`,
  ]);
  const scopes = new Map<string, string[]>();
  for (const g of grants) (scopes.get(g.userId) ?? scopes.set(g.userId, []).get(g.userId)!).push(g.scope);
  const agreed = new Map(agreement.map((a) => [a.userId, a.compared > 0 ? a.matched / a.compared : null]));
  return {
    blueprints: blueprints.map((b) => ({ ...b })),
    reviewers: people.map(({ userId, ...p }) => ({ ...p, scopes: scopes.get(userId) ?? [], agreement: agreed.get(userId) ?? null })),
  };
}
