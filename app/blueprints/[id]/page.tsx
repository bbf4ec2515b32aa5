import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache, Suspense } from 'react';
import { getDb } from '@/lib/server/compose/database';
import { getBlueprintDetail } from '@/lib/server/db/queries/blueprint-detail';
import { getBlueprintRuns } from '@/lib/server/db/queries/blueprint-runs';
import { getBlueprintSource } from '@/lib/server/db/queries/blueprint-source';
import { getModelNames } from '@/lib/server/db/queries/leaderboard';
import { blueprintRunsView } from '@/lib/views/blueprint-runs-view';
import { blueprintPage } from '@/lib/views/blueprint-view';
import { sourceExcerpt } from '@/lib/views/source-view';
import { BLUEPRINT_PROMPTS_PAGE_SIZE, BlueprintParams } from '@/lib/views/params';
import { decodeSegment, href } from '@/lib/views/urls';
import { BlueprintHeader, PromptTable, SourceExcerpt, ValidationErrors } from '@/components/blueprint-page';
import { LatestRanking, RunHistory } from '@/components/blueprint-runs';
import { SectionBoundary } from '@/components/section-boundary';
import { ChartSkeleton, TableSkeleton, TextSkeleton } from '@/components/skeletons';
import { Section } from '@/components/ui';
import { ComparisonSection } from '../../compare/comparison-section';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const loadRuns = cache(async (id: string) => getBlueprintRuns(getDb(), id, { limit: 30 }));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const d = await getBlueprintDetail(getDb(), decodeSegment(id), { promptPageSize: 1 });
  return { title: d?.title ?? 'Blueprint' };
}

async function Runs({ id, part }: { id: string; part: 'ranking' | 'history' }) {
  const db = getDb();
  const runs = await loadRuns(id);
  const names = await getModelNames(db, [...new Set(runs.scores.map((s) => s.modelId))]);
  const view = blueprintRunsView(runs, names);
  return part === 'ranking' ? <LatestRanking view={view} /> : <RunHistory view={view} />;
}

async function Prompts({ detail }: { detail: NonNullable<Awaited<ReturnType<typeof getBlueprintDetail>>> }) {
  const { latestCompletedRunId } = await loadRuns(detail.id);
  return <PromptTable view={blueprintPage(detail, { latestRunId: latestCompletedRunId })} />;
}

async function Source({ id }: { id: string }) {
  const source = await getBlueprintSource(getDb(), id);
  if (!source) return null;
  const view = sourceExcerpt(source);
  return <SourceExcerpt text={view.text} truncated={view.truncated} rawHref={href.blueprintSource(id)} label={view.label} />;
}

export default async function BlueprintPage({ params, searchParams }: Props) {
  const { id: segment } = await params;
  const { page, a, b } = BlueprintParams.parse(await searchParams);
  const id = decodeSegment(segment);
  const db = getDb();
  // the page's first query is also its existence check: a 404 before anything streams
  const detail = await getBlueprintDetail(db, id, { promptPage: page, promptPageSize: BLUEPRINT_PROMPTS_PAGE_SIZE });
  if (!detail) notFound();
  const view = blueprintPage(detail);
  return (
    <div className="space-y-10">
      <BlueprintHeader view={view} />
      <ValidationErrors view={view} />
      <Section id="ranking-h" title="Latest results">
        <SectionBoundary name="latest results">
          <Suspense fallback={<TableSkeleton label="latest results" />}>
            <Runs id={id} part="ranking" />
          </Suspense>
        </SectionBoundary>
      </Section>
      <Section id="compare-h" title="Compare two models" description="On this blueprint's prompts, each model from the latest run in which it scored.">
        <SectionBoundary name="comparison">
          <Suspense fallback={<TableSkeleton label="comparison" rows={4} />}>
            <ComparisonSection scope={{ kind: 'blueprint', blueprintId: id }} a={a} b={b} form={{ action: `${href.blueprint(id)}#compare-h` }} />
          </Suspense>
        </SectionBoundary>
      </Section>
      <SectionBoundary name="run history">
        <Suspense fallback={<ChartSkeleton label="run history" />}>
          <Runs id={id} part="history" />
        </Suspense>
      </SectionBoundary>
      <SectionBoundary name="prompts">
        <Suspense fallback={<TableSkeleton label="prompts" rows={8} />}>
          <Prompts detail={detail} />
        </Suspense>
      </SectionBoundary>
      <SectionBoundary name="source file">
        <Suspense fallback={<TextSkeleton label="source file" />}>
          <Source id={id} />
        </Suspense>
      </SectionBoundary>
    </div>
  );
}
