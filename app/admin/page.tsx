import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/server/compose/database';
import { mayAct } from '@/lib/server/auth/principal';
import { adminOverview } from '@/lib/server/db/queries/admin-overview';
import { adminView } from '@/lib/views/admin-view';
import { currentUser } from './session';
import { readTrySettings } from '@/lib/server/authoring/try-settings';
import { tryDeps } from '@/lib/server/platform';
import { TrySettings } from '@/components/admin/try-settings';
import { Banner, PostButton } from '@/components/ui';
import { Costs, Jobs, PullRequests, RescoreRun, SyncStatus, TriggerRun } from '@/components/admin/sections';
import { reviewOverview } from '@/lib/server/db/queries/review-overview';
import { adminReviewView } from '@/lib/views/human-figures-view';
import { AdminReview } from '@/components/human/admin-review';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Admin', robots: { index: false } };

export default async function AdminPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await currentUser();
  if (!user) redirect('/admin/sign-in');
  const params = await searchParams;
  const notice = typeof params.notice === 'string' ? params.notice : null;
  const error = typeof params.error === 'string' ? params.error : null;
  const header = (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-semibold tracking-tight">Admin</h1>
      <div className="flex items-center gap-3 text-sm">
        <span data-testid="signed-in-as">
          Signed in as <strong>{user.githubLogin}</strong> ({user.role})
        </span>
        <PostButton action="/api/auth/sign-out" label="Sign out" />
      </div>
    </div>
  );
  if (!mayAct({ kind: 'user', user })) {
    return (
      <div className="space-y-6">
        {header}
        <Banner kind="error">The admin area needs the maintainer or admin role; yours is {user.role}. Ask an admin to change it.</Banner>
      </div>
    );
  }
  const view = adminView(await adminOverview(getDb()), new Date());
  const tryIt = await readTrySettings(getDb(), tryDeps().defaults);
  const review = adminReviewView(await reviewOverview(getDb(), new Date()), new Date());
  return (
    <div className="space-y-10">
      {header}
      {notice && <Banner kind="notice">{notice}</Banner>}
      {error && <Banner kind="error">{error}</Banner>}
      <SyncStatus view={view} />
      <PullRequests view={view} />
      <TriggerRun view={view} />
      <RescoreRun view={view} />
      <TrySettings view={tryIt} />
      <AdminReview view={review} />
      <Jobs view={view} />
      <Costs view={view} />
    </div>
  );
}
