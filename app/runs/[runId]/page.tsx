import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import type { HeatmapSort } from '@/lib/core';
import { getDb } from '@/lib/server/compose/database';
import { getModelNames } from '@/lib/server/db/queries/leaderboard';
import { getHeatmapPage } from '@/lib/server/db/queries/run-heatmap';
import { getRunPassCurves } from '@/lib/server/db/queries/pass-at-k';
import { getRunGroups } from '@/lib/server/db/queries/run-groups';
import { groupsView } from '@/lib/views/groups-view';
import { GroupScoresSection } from '@/components/group-scores';
import { passAtKView } from '@/lib/views/interval-view';
import { getRunPointsPage } from '@/lib/server/db/queries/run-points';
import { heatmapView } from '@/lib/views/heatmap-view';
import { pageReadings } from '@/lib/views/how-to-read';
import { modelReliabilityRows, reliabilityLine } from '@/lib/views/judge-reliability-view';
import { heatmapPageSize, POINTS_PAGE_SIZE, RunParams } from '@/lib/views/params';
import { pointsListView } from '@/lib/views/points-list-view';
import { RANKING_CAPTION, rankingView, runHeaderView } from '@/lib/views/run-view';
import { Heatmap } from '@/components/heatmap';
import { HowToRead } from '@/components/how-to-read';
import { JudgeReliabilityByModel, JudgeReliabilityLine } from '@/components/judge-reliability';
import { PassAtKSection } from '@/components/pass-at-k';
import { PointsList } from '@/components/points-list';
import { RankingTable } from '@/components/ranking-table';
import { RunHeader } from '@/components/run-header';
import { humanFiguresKey } from '@/lib/core';
import { readHumanFigures } from '@/lib/server/db/queries/human-figures';
import { judgedCheckLine } from '@/lib/views/human-figures-view';
import { JudgedCheckLine } from '@/components/human/judged-check-line';
import { SectionBoundary } from '@/components/section-boundary';
import { HeatmapSkeleton, TableSkeleton } from '@/components/skeletons';
import { Section } from '@/components/ui';
import { loadRunHeader, loadRunJudges, loadRunRanking } from './load';
import { RetrievalRunSections } from './retrieval-sections';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ runId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };
type Run = { id: string; versionId: string };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const h = await loadRunHeader((await params).runId);
  return { title: h ? `${h.blueprint.title}: run ${h.createdAt.toISOString().slice(0, 10)}` : 'Run' };
}

async function HeatmapSection({ run, page, sort }: { run: Run; page: number; sort: HeatmapSort }) {
  const ranking = await loadRunRanking(run.id);
  // fewer prompts a page when the run has many models: the page's size follows its cells
  const pageSize = heatmapPageSize(ranking.length);
  const data = await getHeatmapPage(getDb(), run, { page, pageSize, sort });
  return <Heatmap view={heatmapView(run.id, ranking, data, { page, pageSize, sort })} />;
}

async function ModelsSection({ run }: { run: Run }) {
  const [ranking, header] = await Promise.all([loadRunRanking(run.id), loadRunHeader(run.id)]);
  return <RankingTable entries={rankingView(run.id, ranking, header?.unpricedModels)} caption={RANKING_CAPTION} detailed />;
}

/** Judge reliability of the run (every view) and, under the models view, of each model. */
async function JudgesSection({ run, perModel, blueprintId }: { run: Run; perModel: boolean; blueprintId: string }) {
  const db = getDb();
  const [r, human] = await Promise.all([loadRunJudges(run.id), perModel ? null : readHumanFigures(db, [humanFiguresKey.blueprint(blueprintId)])]);
  const names = await getModelNames(db, r.byModel.map((m) => m.modelId));
  if (perModel) return <JudgeReliabilityByModel rows={modelReliabilityRows(run.id, r.byModel, names)} />;
  // the blueprint's judges checked against people, where people have labelled its verdicts
  const figures = human?.get(humanFiguresKey.blueprint(blueprintId));
  return (
    <>
      <JudgeReliabilityLine view={reliabilityLine(r.run, { run: run.id }, names)} label="Judges in this run" />
      <JudgedCheckLine view={judgedCheckLine(figures?.kind === 'calibration' ? figures : null)} />
    </>
  );
}

async function PassAtK({ runId }: { runId: string }) {
  return <PassAtKSection view={passAtKView(await getRunPassCurves(getDb(), runId))} />;
}

/** Scores per category and per rule of the prompts (soev's report); nothing when no prompt has one. */
async function GroupsSection({ runId }: { runId: string }) {
  const db = getDb();
  const [groups, ranking] = await Promise.all([getRunGroups(db, runId), loadRunRanking(runId)]);
  const names = await getModelNames(db, groups.models.map((m) => m.model));
  // in the run's ranking order, as every other table of the run lists its models
  const order = new Map(ranking.map((r, i) => [r.modelId, i]));
  const models = [...groups.models].sort((x, y) => (order.get(x.model) ?? Infinity) - (order.get(y.model) ?? Infinity) || x.model.localeCompare(y.model));
  return <GroupScoresSection view={groupsView(models, names)} description="Each model's score on the prompts of each category and of each rule, with its interval over those prompts, and the share of attempts that passed every criterion." />;
}

async function PointsSection({ run, page }: { run: Run; page: number }) {
  const data = await getRunPointsPage(getDb(), run, { page, pageSize: POINTS_PAGE_SIZE });
  return <PointsList view={pointsListView(run.id, data, { page, pageSize: POINTS_PAGE_SIZE })} />;
}

export default async function RunPage({ params, searchParams }: Props) {
  const header = await loadRunHeader((await params).runId);
  if (!header) notFound();
  const q = RunParams.parse(await searchParams);
  const run = { id: header.id, versionId: header.versionId };
  // a retrieval run has results per model × metric and per query, not prompts × models
  if (header.kind === 'retrieval') {
    return (
      <div className="space-y-8">
        <RunHeader view={runHeaderView(header, 'prompts', new Date())} main />
        <RetrievalRunSections runId={run.id} />
      </div>
    );
  }
  return (
    <div className="space-y-8">
      <RunHeader view={runHeaderView(header, q.view, new Date())} main />
      <HowToRead items={pageReadings('run')} />
      <SectionBoundary name="judge reliability">
        <Suspense fallback={null}>
          <JudgesSection run={run} perModel={false} blueprintId={header.blueprint.id} />
        </Suspense>
      </SectionBoundary>
      {q.view === 'prompts' && (
        <Section id="heatmap-h" title="Prompts × models">
          <SectionBoundary name="heatmap">
            <Suspense fallback={<HeatmapSkeleton />}>
              <HeatmapSection run={run} page={q.page} sort={q.sort} />
            </Suspense>
          </SectionBoundary>
        </Section>
      )}
      {q.view === 'models' && (
        <Section id="models-h" title="Models">
          <SectionBoundary name="model ranking">
            <Suspense fallback={<TableSkeleton label="model ranking" />}>
              <ModelsSection run={run} />
            </Suspense>
          </SectionBoundary>
        </Section>
      )}
      {(q.view === 'prompts' || q.view === 'models') && (
        <SectionBoundary name="scores by category and rule">
          <Suspense fallback={<TableSkeleton label="scores by category and rule" />}>
            <GroupsSection runId={run.id} />
          </Suspense>
        </SectionBoundary>
      )}
      {q.view === 'models' && (
        <SectionBoundary name="judge reliability by model">
          <Suspense fallback={<TableSkeleton label="judge reliability" />}>
            <JudgesSection run={run} perModel blueprintId={header.blueprint.id} />
          </Suspense>
        </SectionBoundary>
      )}
      {q.view === 'models' && (
        <SectionBoundary name="pass@k">
          <Suspense fallback={<TableSkeleton label="pass@k" />}>
            <PassAtK runId={run.id} />
          </Suspense>
        </SectionBoundary>
      )}
      {q.view === 'points' && (
        <Section id="points-h" title="Points" description="Every criterion of the run, by prompt: the mean across models and the range from worst to best.">
          <SectionBoundary name="points">
            <Suspense fallback={<TableSkeleton label="points" rows={8} />}>
              <PointsSection run={run} page={q.page} />
            </Suspense>
          </SectionBoundary>
        </Section>
      )}
    </div>
  );
}
