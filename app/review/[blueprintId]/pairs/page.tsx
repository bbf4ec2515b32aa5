import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/server/compose/database';
import { nextPair } from '@/lib/server/human';
import { NOT_A_REVIEWER, reviewHref, reviewPairPage, ReviewSearchParams } from '@/lib/views/review-view';
import { NotAReviewer } from '@/components/review/review-parts';
import { ReviewPairPage } from '@/components/review/review-pair';
import { loadReviewer } from '../load';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Review: compare replies', robots: { index: false } };

type Props = { params: Promise<{ blueprintId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ReviewPairRoute({ params, searchParams }: Props) {
  const reviewer = await loadReviewer((await params).blueprintId);
  if (reviewer.kind === 'signed-out') redirect(reviewHref.home);
  if (reviewer.kind === 'forbidden') return <NotAReviewer message={NOT_A_REVIEWER} homeHref={reviewHref.home} />;
  const { error } = ReviewSearchParams.parse(await searchParams);
  const pair = await nextPair(getDb(), { user: reviewer.user, blueprintId: reviewer.blueprintId });
  const view = reviewPairPage({ blueprintId: reviewer.blueprintId, pair, answeredToday: reviewer.answeredToday, fallbackTitle: reviewer.title });
  return <ReviewPairPage view={view} error={error ?? null} />;
}
