import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { signInSettings } from '@/lib/server/compose/site';
import { adminSignInView } from '@/lib/views/sign-in-view';
import { currentUser } from '../session';
import { Banner } from '@/components/ui';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Sign in', robots: { index: false } };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await currentUser()) redirect('/admin');
  const params = await searchParams;
  const error = typeof params.error === 'string' ? params.error : null;
  const offered = adminSignInView(signInSettings());
  return (
    <div className="mx-auto max-w-md space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Sign in to the admin area</h1>
      {error && <Banner kind="error">{error}</Banner>}
      {offered.unavailable && (
        <p className="rounded border border-zinc-200 p-4 text-sm dark:border-zinc-800" data-testid="sign-in-unavailable">
          {offered.unavailable}
        </p>
      )}
      {offered.github && (
        <a href="/api/auth/github" className="block rounded bg-zinc-900 px-3 py-2 text-center text-sm font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900">
          Sign in with GitHub
        </a>
      )}
      {offered.token && (
        <form method="post" action="/api/auth/sign-in" className="space-y-3 rounded border border-zinc-200 p-4 dark:border-zinc-800">
          <label className="block text-sm">
            Admin token
            <input name="token" type="password" required autoComplete="current-password" className="mt-1 block w-full rounded border border-zinc-300 bg-white px-2 py-1.5 dark:border-zinc-700 dark:bg-zinc-900" />
          </label>
          <button type="submit" className="rounded bg-zinc-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900">
            Sign in
          </button>
          <p className="text-xs text-zinc-600 dark:text-zinc-400">The token is ASSAY_ADMIN_TOKEN from the server&apos;s configuration.</p>
        </form>
      )}
      {offered.alsoPossible && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="sign-in-also">
          {offered.alsoPossible}
        </p>
      )}
    </div>
  );
}
