import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/server/compose/database';
import { nextReviewItem } from '@/lib/server/human';
import { NOT_A_REVIEWER, reviewHref, reviewItemPage, ReviewSearchParams } from '@/lib/views/review-view';
import { NotAReviewer } from '@/components/review/review-parts';
import { ReviewItemPage } from '@/components/review/review-item';
import { loadReviewer } from './load';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Review: label verdicts', robots: { index: false } };

type Props = { params: Promise<{ blueprintId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ReviewItemRoute({ params, searchParams }: Props) {
  const reviewer = await loadReviewer((await params).blueprintId);
  if (reviewer.kind === 'signed-out') redirect(reviewHref.home);
  if (reviewer.kind === 'forbidden') return <NotAReviewer message={NOT_A_REVIEWER} homeHref={reviewHref.home} />;
  const { error } = ReviewSearchParams.parse(await searchParams);
  const item = await nextReviewItem(getDb(), { user: reviewer.user, blueprintId: reviewer.blueprintId });
  const view = reviewItemPage({ blueprintId: reviewer.blueprintId, item, answeredToday: reviewer.answeredToday, fallbackTitle: reviewer.title });
  return <ReviewItemPage view={view} error={error ?? null} />;
}
