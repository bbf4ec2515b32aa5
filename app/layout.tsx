import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { SearchForm } from '@/components/search-form';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Assay', template: '%s · Assay' },
  description: 'Open, hosted evaluations of language models from YAML blueprints.',
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // every page is rendered per request, so Next can put this request's CSP nonce (proxy.ts) on its scripts
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen bg-white text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:z-50 focus:bg-white focus:p-2 dark:focus:bg-zinc-900">
          Skip to content
        </a>
        <header className="border-b border-zinc-200 dark:border-zinc-800">
          <nav aria-label="Main" className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
            {/* {' '} between the links: a flex row draws none, but the page's text (copied, read aloud, searched) keeps them apart */}
            <Link href="/" className="text-lg font-semibold tracking-tight">
              Assay
            </Link>{' '}
            <Link href="/" className="text-sm text-zinc-600 hover:underline dark:text-zinc-400">
              Leaderboards
            </Link>{' '}
            <Link href="/#blueprints-h" className="text-sm text-zinc-600 hover:underline dark:text-zinc-400">
              Blueprints
            </Link>{' '}
            <Link href="/methodology" className="text-sm text-zinc-600 hover:underline dark:text-zinc-400">
              Methodology
            </Link>{' '}
            <Link href="/drift" className="text-sm text-zinc-600 hover:underline dark:text-zinc-400">
              Drift
            </Link>{' '}
            {/* not prefetched: every reader of every page would otherwise load the editor and run the admin area's session check */}
            <Link href="/author" prefetch={false} className="text-sm text-zinc-600 hover:underline dark:text-zinc-400">
              Write a blueprint
            </Link>{' '}
            <Link href="/review" prefetch={false} className="text-sm text-zinc-600 hover:underline dark:text-zinc-400">
              Review
            </Link>{' '}
            <Link href="/admin" prefetch={false} className="text-sm text-zinc-600 hover:underline dark:text-zinc-400">
              Admin
            </Link>{' '}
            <div className="ml-auto">
              <SearchForm compact />
            </div>
          </nav>
        </header>
        <main id="main" className="mx-auto max-w-6xl px-4 py-8">
          {children}
        </main>
      </body>
    </html>
  );
}
