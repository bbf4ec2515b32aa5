/** A retrieval run's query: its text, each model's top-k with scores and relevance, the relevant documents missed, each metric for it. */
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { getDb } from '@/lib/server/compose/database';
import { getRetrievalQuery } from '@/lib/server/db/queries/retrieval-query';
import { QueryParams } from '@/lib/views/params';
import { retrievalQueryView } from '@/lib/views/retrieval-view';
import { runHeaderView } from '@/lib/views/run-view';
import { decodeSegment } from '@/lib/views/urls';
import { RetrievalQueryDetail } from '@/components/retrieval';
import { RunHeader } from '@/components/run-header';
import { loadRunHeader } from '../../load';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ runId: string; queryId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const loadQuery = cache(async (runId: string, queryId: string) => getRetrievalQuery(getDb(), runId, queryId));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { runId, queryId } = await params;
  const header = await loadRunHeader(runId);
  const data = header ? await loadQuery(header.id, decodeSegment(queryId)) : null;
  return { title: data ? `Query ${data.queryId}: ${header?.blueprint.title}` : 'Not found' };
}

export default async function RetrievalQueryPage({ params, searchParams }: Props) {
  const { runId, queryId } = await params;
  const header = await loadRunHeader(runId);
  if (!header) notFound();
  const data = await loadQuery(header.id, decodeSegment(queryId));
  if (!data) notFound();
  const { model } = QueryParams.parse(await searchParams);
  const view = retrievalQueryView(data, model ?? null);
  return (
    <div className="space-y-6">
      <RunHeader view={runHeaderView(header, 'other')} trail={[{ label: `Query ${view.queryId}` }]} />
      <h1 className="text-2xl font-semibold tracking-tight">Query {view.queryId}</h1>
      <RetrievalQueryDetail view={view} />
    </div>
  );
}
