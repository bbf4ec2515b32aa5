import type { Metadata } from 'next';
import { Suspense } from 'react';
import { getDb } from '@/lib/server/compose/database';
import { listDriftChecks } from '@/lib/server/db/queries/drift';
import { getModelNames } from '@/lib/server/db/queries/leaderboard';
import { DriftParams, driftPageView } from '@/lib/views/drift-view';
import { DriftChecks, DriftFilters } from '@/components/drift-page';
import { SectionBoundary } from '@/components/section-boundary';
import { TableSkeleton } from '@/components/skeletons';
import { muted } from '@/components/ui';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Drift' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

async function Checks({ params }: { params: ReturnType<typeof DriftParams.parse> }) {
  const db = getDb();
  const list = await listDriftChecks(db, { blueprintId: params.blueprint, modelId: params.model, all: params.all });
  const names = await getModelNames(db, list.models);
  const view = driftPageView(list, names, params);
  return (
    <div className="space-y-6">
      <DriftFilters view={view.filters} />
      <DriftChecks view={view} />
    </div>
  );
}

export default async function DriftPage({ searchParams }: Props) {
  const params = DriftParams.parse(await searchParams);
  return (
    <div className="space-y-6">
      <section className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">Drift between scheduled runs</h1>
        <p className={`max-w-3xl ${muted}`}>
          When a blueprint is re-run on schedule, each model’s scores are compared with its previous scheduled run of the same blueprint version, prompt by prompt. A drift is flagged when
          the 95% interval of the change excludes zero and reaches the blueprint’s minimum detectable effect (MDE): the smallest difference its prompts can tell apart from noise. When
          the provider reports a different model or fingerprint between the runs, the check says so.
        </p>
      </section>
      <SectionBoundary name="drift checks">
        <Suspense fallback={<TableSkeleton label="drift checks" rows={4} />}>
          <Checks params={params} />
        </Suspense>
      </SectionBoundary>
    </div>
  );
}
