import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache, Suspense } from 'react';
import { getDb } from '@/lib/server/compose/database';
import { leaderboardMinCoverage } from '@/lib/server/compose/site';
import { getPooledJudgeReliability } from '@/lib/server/db/queries/judge-reliability';
import { getLeaderboardRows, getModelNames } from '@/lib/server/db/queries/leaderboard';
import { boardsFor, type BoardKey } from '@/lib/server/db/commands/board-snapshots';
import { getModelProfile } from '@/lib/server/db/queries/model-profile';
import { pageReadings } from '@/lib/views/how-to-read';
import { pooledReliabilityRows } from '@/lib/views/judge-reliability-view';
import { modelPageView } from '@/lib/views/model-view';
import { HowToRead } from '@/components/how-to-read';
import { JudgeReliabilityLine } from '@/components/judge-reliability';
import { ModelParams } from '@/lib/views/params';
import { href, modelIdFromSegments } from '@/lib/views/urls';
import { ScoreLineChart } from '@/components/line-chart';
import { AreaTable, HistoryTable, ModelSummary, StrengthsWeaknesses } from '@/components/model-page';
import { SectionBoundary } from '@/components/section-boundary';
import { ChartSkeleton, TableSkeleton } from '@/components/skeletons';
import { Section, link, muted } from '@/components/ui';
import { ComparisonSection } from '../../compare/comparison-section';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ modelId: string[] }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const loadProfile = cache(async (modelId: string) => getModelProfile(getDb(), modelId));

/** The stored boards the model's rows sit on (overall, its tags, its blueprints): the leaderboards' own figures. */
const loadBoards = cache(async (profile: NonNullable<Awaited<ReturnType<typeof getModelProfile>>>) => {
  const mine = profile.scores.filter((r) => r.modelId === profile.modelId);
  const keys: BoardKey[] = [
    { kind: 'all' },
    ...[...new Set(mine.flatMap((r) => r.tags))].map((tag) => ({ kind: 'tag', tag }) as const),
    ...[...new Set(mine.map((r) => r.blueprintId))].map((blueprintId) => ({ kind: 'blueprint', blueprintId }) as const),
  ];
  return boardsFor(getDb(), keys, profile.scores, { minCoverage: leaderboardMinCoverage() });
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const modelId = modelIdFromSegments((await params).modelId);
  return { title: (await loadProfile(modelId)) ? modelId : 'Not found' };
}

/** How far the judges agreed behind the model's judged scores, pooled over the runs the leaderboard ranks it on. */
async function Judges({ modelId }: { modelId: string }) {
  const db = getDb();
  const rows = await getLeaderboardRows(db, { modelId });
  const pooled = await getPooledJudgeReliability(db, rows.map((r) => ({ runId: r.runId, modelId: r.modelId })));
  const row = pooledReliabilityRows(pooled, await getModelNames(db, [modelId]))[0];
  return row ? <JudgeReliabilityLine view={row.line} label="Judges behind these scores" /> : null;
}

async function History({ modelId }: { modelId: string }) {
  const profile = await loadProfile(modelId);
  if (!profile) return null;
  const view = modelPageView(profile, { boards: await loadBoards(profile) });
  return (
    <Section id="history-h" title="History" description="The model’s score on each run, by blueprint.">
      {view.history ? <ScoreLineChart data={view.history} testId="history-chart" /> : <p className={`text-sm ${muted}`}>The chart appears after two completed runs.</p>}
      <HistoryTable rows={view.historyTable} />
    </Section>
  );
}

export default async function ModelPage({ params, searchParams }: Props) {
  const modelId = modelIdFromSegments((await params).modelId);
  const { vs } = ModelParams.parse(await searchParams);
  const profile = await loadProfile(modelId);
  if (!profile) notFound();
  const view = modelPageView(profile, { boards: await loadBoards(profile) });
  return (
    <div className="space-y-10">
      <ModelSummary view={view} />
      {profile.retrievalRuns.length > 0 && (
        <Section id="retrieval-h" title="Retrieval runs" description="An embedding model: scored on retrieval blueprints, each run’s page has its metrics and status.">
          <ul className="space-y-1 text-sm" data-testid="model-retrieval-runs">
            {profile.retrievalRuns.map((r) => (
              <li key={r.runId}>
                <a href={href.run(r.runId)} className={link}>
                  {r.run.blueprint.title}
                </a>{' '}
                <span className={muted}>· {r.run.createdAt.toISOString().slice(0, 10)}</span>
              </li>
            ))}
          </ul>
        </Section>
      )}
      <SectionBoundary name="judge reliability">
        <Suspense fallback={null}>
          <Judges modelId={modelId} />
        </Suspense>
      </SectionBoundary>
      <HowToRead items={pageReadings('model')} />
      <StrengthsWeaknesses view={view} />
      <AreaTable id="tags-h" title="By tag" items={view.tags} testId="model-tags" />
      <AreaTable id="blueprints-h" title="By blueprint" items={view.blueprints} testId="model-blueprints" />
      <Section id="compare-h" title="Compare with another model" description="Across the blueprints both models were scored on, paired prompt by prompt.">
        <SectionBoundary name="comparison">
          <Suspense fallback={<TableSkeleton label="comparison" rows={4} />}>
            <ComparisonSection scope={{ kind: 'board', tag: null }} a={modelId} b={vs} fixedA form={{ action: `${href.model(modelId)}#compare-h`, fieldB: 'vs' }} />
          </Suspense>
        </SectionBoundary>
      </Section>
      <SectionBoundary name="history">
        <Suspense fallback={<ChartSkeleton label="history" />}>
          <History modelId={modelId} />
        </Suspense>
      </SectionBoundary>
    </div>
  );
}
