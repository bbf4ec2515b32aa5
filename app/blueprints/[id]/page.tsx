import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { blueprintVisibleTo } from '@/lib/server/runs/draft-visibility';
import { currentUser } from '../../admin/session';
import { cache, Suspense } from 'react';
import { getDb } from '@/lib/server/compose/database';
import { getBlueprintDetail } from '@/lib/server/db/queries/blueprint-detail';
import { getBlueprintPlan } from '@/lib/server/db/queries/blueprint-plan';
import { getBlueprintRuns } from '@/lib/server/db/queries/blueprint-runs';
import { getBlueprintSource } from '@/lib/server/db/queries/blueprint-source';
import { getRunJudgeReliability } from '@/lib/server/db/queries/judge-reliability';
import { getModelNames } from '@/lib/server/db/queries/leaderboard';
import { getRunPassCurves } from '@/lib/server/db/queries/pass-at-k';
import { getRunGroups } from '@/lib/server/db/queries/run-groups';
import { groupsView } from '@/lib/views/groups-view';
import { GroupScoresSection } from '@/components/group-scores';
import { passAtKView } from '@/lib/views/interval-view';
import { blueprintRunsView } from '@/lib/views/blueprint-runs-view';
import { blueprintPage } from '@/lib/views/blueprint-view';
import { pageReadings } from '@/lib/views/how-to-read';
import { judgePanelView } from '@/lib/views/judge-reliability-view';
import { plannerView } from '@/lib/views/planner-view';
import { sourceExcerpt } from '@/lib/views/source-view';
import { BLUEPRINT_PROMPTS_PAGE_SIZE, BlueprintParams } from '@/lib/views/params';
import { decodeSegment, href } from '@/lib/views/urls';
import { BlueprintHeader, PromptTable, SourceExcerpt, ValidationErrors } from '@/components/blueprint-page';
import { LatestRanking, RunHistory } from '@/components/blueprint-runs';
import { HowToRead } from '@/components/how-to-read';
import { JudgePanel } from '@/components/judge-reliability';
import { PassAtKSection } from '@/components/pass-at-k';
import { Planner } from '@/components/planner';
import { SectionBoundary } from '@/components/section-boundary';
import { ChartSkeleton, TableSkeleton, TextSkeleton } from '@/components/skeletons';
import { Section } from '@/components/ui';
import { ComparisonSection } from '../../compare/comparison-section';
import { humanFiguresKey } from '@/lib/core';
import { readHumanFigures } from '@/lib/server/db/queries/human-figures';
import { calibrationView, judgedCheckLine } from '@/lib/views/human-figures-view';
import { CalibrationSection } from '@/components/human/calibration-section';
import { JudgedCheckLine } from '@/components/human/judged-check-line';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const loadRuns = cache(async (id: string) => getBlueprintRuns(getDb(), id, { limit: 30 }));

/** The figures made from people's labels on this blueprint, as stored when the labels last changed. */
const loadHumanFigures = cache(async (id: string) => {
  const figures = (await readHumanFigures(getDb(), [humanFiguresKey.blueprint(id)])).get(humanFiguresKey.blueprint(id));
  return figures?.kind === 'calibration' ? figures : null;
});

/** Beside the judged scores: how far the judges agree with people here, when people have labelled. */
async function HumanCheck({ id }: { id: string }) {
  return <JudgedCheckLine view={judgedCheckLine(await loadHumanFigures(id))} />;
}

/** Judges checked against people: agreement, bias, calibration, and scores that include the judges' error. */
async function HumanCalibration({ id }: { id: string }) {
  const figures = await loadHumanFigures(id);
  const names = await getModelNames(getDb(), figures?.models.map((m) => m.modelId) ?? []);
  return <CalibrationSection view={calibrationView(figures, names)} />;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const blueprintId = decodeSegment(id);
  if (!(await blueprintVisibleTo(getDb(), blueprintId, await currentUser()))) return { title: 'Blueprint' };
  const d = await getBlueprintDetail(getDb(), blueprintId, { promptPageSize: 1 });
  return { title: d?.title ?? 'Blueprint' };
}

async function Runs({ id, part }: { id: string; part: 'ranking' | 'history' }) {
  const db = getDb();
  const runs = await loadRuns(id);
  const names = await getModelNames(db, [...new Set(runs.scores.map((s) => s.modelId))]);
  const view = blueprintRunsView(runs, names);
  return part === 'ranking' ? <LatestRanking view={view} /> : <RunHistory view={view} />;
}

/** The judge panel of the latest completed run: who judged, how much, how far they agreed. */
async function Judges({ id }: { id: string }) {
  const db = getDb();
  const { latestCompletedRunId } = await loadRuns(id);
  if (!latestCompletedRunId) return null;
  const r = await getRunJudgeReliability(db, latestCompletedRunId);
  if (r.run.verdicts === 0) return null;
  const names = await getModelNames(db, r.byModel.map((m) => m.modelId));
  return <JudgePanel view={judgePanelView(r.run, { blueprintId: id, runId: latestCompletedRunId }, names)} />;
}

/** pass@k of the latest completed run (the one "Latest results" shows). */
async function PassAtK({ id }: { id: string }) {
  const { latestCompletedRunId } = await loadRuns(id);
  return latestCompletedRunId ? <PassAtKSection view={passAtKView(await getRunPassCurves(getDb(), latestCompletedRunId))} /> : null;
}

/** Scores per category and per rule in the latest completed run (soev's report). */
async function Groups({ id }: { id: string }) {
  const { latestCompletedRunId } = await loadRuns(id);
  if (!latestCompletedRunId) return null;
  const db = getDb();
  const groups = await getRunGroups(db, latestCompletedRunId);
  const names = await getModelNames(db, groups.models.map((m) => m.model));
  return <GroupScoresSection view={groupsView(groups.models, names)} description="In the latest completed run: each model's score on the prompts of each category and of each rule, and the share of attempts that passed every criterion." />;
}

async function Plan({ id }: { id: string }) {
  const db = getDb();
  const result = await getBlueprintPlan(db, id);
  if (!result) return null;
  const names = await getModelNames(db, [...new Set(result.plan?.pairs.flatMap((p) => [p.modelA, p.modelB]) ?? [])]);
  return <Planner view={plannerView(result, names)} />;
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
  // an author's draft blueprint (try it) exists only for its author and maintainers
  if (!(await blueprintVisibleTo(db, id, await currentUser()))) notFound();
  // the page's first query is also its existence check: a 404 before anything streams
  const detail = await getBlueprintDetail(db, id, { promptPage: page, promptPageSize: BLUEPRINT_PROMPTS_PAGE_SIZE });
  if (!detail) notFound();
  const view = blueprintPage(detail);
  return (
    <div className="space-y-10">
      <BlueprintHeader view={view} />
      <ValidationErrors view={view} />
      <HowToRead items={pageReadings('blueprint')} />
      <Section id="ranking-h" title="Latest results">
        <SectionBoundary name="latest results">
          <Suspense fallback={<TableSkeleton label="latest results" />}>
            <HumanCheck id={id} />
            <Runs id={id} part="ranking" />
          </Suspense>
        </SectionBoundary>
      </Section>
      <SectionBoundary name="pass@k">
        <Suspense fallback={<TableSkeleton label="pass@k" />}>
          <PassAtK id={id} />
        </Suspense>
      </SectionBoundary>
      <SectionBoundary name="scores by category and rule">
        <Suspense fallback={<TableSkeleton label="scores by category and rule" />}>
          <Groups id={id} />
        </Suspense>
      </SectionBoundary>
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
      <SectionBoundary name="judge panel">
        <Suspense fallback={<TableSkeleton label="judge panel" rows={2} />}>
          <Judges id={id} />
        </Suspense>
      </SectionBoundary>
      <SectionBoundary name="judges checked against people">
        <Suspense fallback={<TableSkeleton label="judges checked against people" rows={3} />}>
          <HumanCalibration id={id} />
        </Suspense>
      </SectionBoundary>
      <Section id="planner-h" title="How small a difference can it see?" description="The sample-size planner, from the latest run’s spread of scores.">
        <SectionBoundary name="planner">
          <Suspense fallback={<TableSkeleton label="planner" rows={4} />}>
            <Plan id={id} />
          </Suspense>
        </SectionBoundary>
      </Section>
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
