import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import type { RunModelSort } from '@/lib/core';
import { getDb } from '@/lib/server/compose/database';
import { getModelJudgeReliability } from '@/lib/server/db/queries/judge-reliability';
import { getModelNames } from '@/lib/server/db/queries/leaderboard';
import { getRunModelErrors, getRunModelPrompts, getRunModelSummary, type RunModelSummaryDetail } from '@/lib/server/db/queries/run-model';
import { pageReadings } from '@/lib/views/how-to-read';
import { reliabilityLine } from '@/lib/views/judge-reliability-view';
import { RUN_MODEL_PAGE_SIZE, RunModelParams } from '@/lib/views/params';
import { runModelPageView } from '@/lib/views/run-model-view';
import { runHeaderView } from '@/lib/views/run-view';
import { href, modelIdFromSegments } from '@/lib/views/urls';
import { HowToRead } from '@/components/how-to-read';
import { JudgeReliabilityLine } from '@/components/judge-reliability';
import { RunHeader } from '@/components/run-header';
import { RunModelErrors, RunModelPrompts, RunModelSummary } from '@/components/run-model-page';
import { SectionBoundary } from '@/components/section-boundary';
import { TableSkeleton } from '@/components/skeletons';
import { loadRunHeader } from '../../load';
import { link } from '@/components/ui';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ runId: string; modelId: string[] }>; searchParams: Promise<Record<string, string | string[] | undefined>> };
type Run = { id: string; versionId: string };
type Opts = { page: number; pageSize: number; sort: RunModelSort };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `${modelIdFromSegments((await params).modelId)} in a run` };
}

async function Details({ run, summary, opts }: { run: Run; summary: RunModelSummaryDetail; opts: Opts }) {
  const db = getDb();
  const [prompts, errors] = await Promise.all([getRunModelPrompts(db, run, summary.modelId, opts), getRunModelErrors(db, run, summary.modelId)]);
  const view = runModelPageView(run.id, summary, prompts, errors, opts);
  return (
    <div className="space-y-8">
      <RunModelPrompts view={view} />
      <RunModelErrors view={view} />
    </div>
  );
}

/** How far the judges agreed on this model's judged points in this run. */
async function Judges({ runId, modelId }: { runId: string; modelId: string }) {
  const db = getDb();
  const r = await getModelJudgeReliability(db, runId, modelId);
  return <JudgeReliabilityLine view={reliabilityLine(r, { run: runId, model: modelId }, await getModelNames(db, [modelId]))} label="Judges of this score" />;
}

export default async function RunModelPage({ params, searchParams }: Props) {
  const { runId, modelId: segments } = await params;
  const header = await loadRunHeader(runId);
  if (!header) notFound();
  const modelId = modelIdFromSegments(segments);
  const summary = await getRunModelSummary(getDb(), header.id, modelId);
  if (!summary) {
    // a model of a run still working has no summary yet: say so, never a dead end
    const models = Array.isArray(header.models) ? (header.models as unknown[]) : [];
    const working = header.status === 'queued' || header.status === 'running' || header.status === 'summarising';
    if (!working || !models.some((m) => (typeof m === 'string' ? m : (m as { id?: string } | null)?.id) === modelId)) notFound();
    return (
      <div className="space-y-8">
        <RunHeader view={runHeaderView(header, 'other')} trail={[{ label: modelId }]} />
        <p className="text-sm" data-testid="run-model-pending">
          {modelId}’s score in this run is made when the run finishes grading; the run is {header.status} now.{' '}
          <a href={href.progress(header.id)} className={link}>
            See its progress
          </a>
          .
        </p>
      </div>
    );
  }
  const q = RunModelParams.parse(await searchParams);
  const run = { id: header.id, versionId: header.versionId };
  const opts = { page: q.page, pageSize: RUN_MODEL_PAGE_SIZE, sort: q.sort };
  const headline = runModelPageView(run.id, summary, { rows: [], total: 0, sealed: { count: 0, mean: null } }, [], opts, header.unpricedModels);
  return (
    <div className="space-y-8">
      <RunHeader view={runHeaderView(header, 'other')} trail={[{ label: headline.label }]} />
      <RunModelSummary view={headline} />
      <SectionBoundary name="judge reliability">
        <Suspense fallback={null}>
          <Judges runId={run.id} modelId={summary.modelId} />
        </Suspense>
      </SectionBoundary>
      <HowToRead items={pageReadings('runModel')} />
      <SectionBoundary name="prompts and errors">
        <Suspense fallback={<TableSkeleton label="prompts" rows={10} />}>
          <Details run={run} summary={summary} opts={opts} />
        </Suspense>
      </SectionBoundary>
    </div>
  );
}
