import type { Metadata } from 'next';
import { getDb } from '@/lib/server/compose/database';
import { signInSettings } from '@/lib/server/compose/site';
import { reviewableBlueprints } from '@/lib/server/human';
import { reviewHomeRows, reviewSignInView, ReviewSearchParams } from '@/lib/views/review-view';
import { ReviewHome, ReviewSignIn } from '@/components/review/review-home';
import { currentUser } from '../admin/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Review', robots: { index: false } };

export default async function ReviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await currentUser();
  if (!user) return <ReviewSignIn view={reviewSignInView(signInSettings())} />;
  const { error } = ReviewSearchParams.parse(await searchParams);
  const rows = await reviewableBlueprints(getDb(), user);
  return <ReviewHome login={user.githubLogin} rows={reviewHomeRows(rows)} error={error ?? null} />;
}
