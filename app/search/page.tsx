import type { Metadata } from 'next';
import { Suspense } from 'react';
import { getDb } from '@/lib/server/compose/database';
import { searchPrompts, searchReplies } from '@/lib/server/db/queries/search';
import { SEARCH_PAGE_SIZE, SearchParamsSchema, searchPageView, type SearchParams } from '@/lib/views/search-view';
import { SearchForm } from '@/components/search-form';
import { SearchResults } from '@/components/search-results';
import { SectionBoundary } from '@/components/section-boundary';
import { TableSkeleton } from '@/components/skeletons';
import { muted } from '@/components/ui';

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export const metadata: Metadata = { title: 'Search' };

async function Results({ params }: { params: SearchParams }) {
  const opts = { limit: SEARCH_PAGE_SIZE, offset: (params.page - 1) * SEARCH_PAGE_SIZE };
  const result = params.kind === 'prompts' ? await searchPrompts(getDb(), params.q, opts) : await searchReplies(getDb(), params.q, opts);
  return <SearchResults view={searchPageView(params, result)} />;
}

export default async function SearchPage({ searchParams }: Props) {
  const params = SearchParamsSchema.parse(await searchParams);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Search{params.q && <span className={`font-normal ${muted}`}>: {params.q}</span>}</h1>
      <SearchForm q={params.q} kind={params.kind} />
      {params.q.length < 2 ? (
        <p className={muted}>Search every prompt and reply: type at least two characters. Quotes match a phrase; a leading minus excludes a word.</p>
      ) : (
        <SectionBoundary name="search results">
          <Suspense key={`${params.kind}:${params.q}:${params.page}`} fallback={<TableSkeleton label="search results" />}>
            <Results params={params} />
          </Suspense>
        </SectionBoundary>
      )}
    </div>
  );
}
