/** The run page of a retrieval run: per model every metric with its interval, the ladder and the cost; then its queries. */
import { Suspense } from 'react';
import { getDb } from '@/lib/server/compose/database';
import { getRetrievalRunResults } from '@/lib/server/db/queries/retrieval-results';
import { retrievalResultsView } from '@/lib/views/retrieval-view';
import { RetrievalQueries, RetrievalResults } from '@/components/retrieval';
import { SectionBoundary } from '@/components/section-boundary';
import { TableSkeleton } from '@/components/skeletons';
import { Section } from '@/components/ui';

async function Results({ runId }: { runId: string }) {
  const results = await getRetrievalRunResults(getDb(), runId);
  if (!results) return null;
  const view = retrievalResultsView(results);
  return (
    <>
      <Section id="retrieval-h" title="Embedding models" description={`Ranked by ${view.primaryMetric}, the blueprint’s primary metric.`}>
        <RetrievalResults view={view} />
      </Section>
      <Section id="queries-h" title="Queries">
        <RetrievalQueries view={view} />
      </Section>
    </>
  );
}

export function RetrievalRunSections({ runId }: { runId: string }) {
  return (
    <SectionBoundary name="retrieval results">
      <Suspense fallback={<TableSkeleton label="retrieval results" />}>
        <Results runId={runId} />
      </Suspense>
    </SectionBoundary>
  );
}
