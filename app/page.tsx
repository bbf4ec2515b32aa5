import { Suspense } from 'react';
import { getDb } from '@/lib/server/compose/database';
import { leaderboardMinCoverage } from '@/lib/server/compose/site';
import { listBlueprints } from '@/lib/server/db/queries/blueprint-list';
import { getPooledJudgeReliability } from '@/lib/server/db/queries/judge-reliability';
import { boardKeyName, boardsFor } from '@/lib/server/db/commands/board-snapshots';
import { getLeaderboardRows, getModelNames } from '@/lib/server/db/queries/leaderboard';
import { listRecentRuns } from '@/lib/server/db/queries/recent-runs';
import { getRetrievalBoard } from '@/lib/server/db/queries/retrieval-leaderboard';
import { retrievalBoardView } from '@/lib/views/retrieval-view';
import { RetrievalBoard } from '@/components/retrieval';
import { blueprintCards } from '@/lib/views/blueprint-list-view';
import { compareView } from '@/lib/views/compare-view';
import { leaderboardView, tagChips } from '@/lib/views/leaderboard-view';
import { pageReadings } from '@/lib/views/how-to-read';
import { HomeParams } from '@/lib/views/params';
import { recentRunsView } from '@/lib/views/recent-runs-view';
import { href } from '@/lib/views/urls';
import { HowToRead } from '@/components/how-to-read';
import { BlueprintList } from '@/components/blueprint-list';
import { CompareForm } from '@/components/compare-form';
import { LeaderboardTable, TagChips } from '@/components/leaderboard';
import { RecentRuns } from '@/components/recent-runs';
import { SearchForm } from '@/components/search-form';
import { SectionBoundary } from '@/components/section-boundary';
import { CardsSkeleton, TableSkeleton } from '@/components/skeletons';
import { Section, muted } from '@/components/ui';
import { humanFiguresKey } from '@/lib/core';
import { readHumanFigures } from '@/lib/server/db/queries/human-figures';
import { judgedCheckLine, pairwiseBoardView } from '@/lib/views/human-figures-view';
import { JudgedCheckLine } from '@/components/human/judged-check-line';
import { PairwiseBoard } from '@/components/human/pairwise-board';
import { BoardTabs } from '@/components/board-tabs';

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

type Board = 'rubric' | 'people';

const boardTabs = (board: Board) => [
  { label: 'Rubric scores', href: `${href.home()}#leaderboard-h`, active: board === 'rubric' },
  { label: 'People’s preferences', href: href.peopleBoard(), active: board === 'people' },
];

/** People's Bradley–Terry ranking from their pairwise preferences, as stored when the preferences last changed. */
async function PeopleBoard() {
  const db = getDb();
  const stored = (await readHumanFigures(db, [humanFiguresKey.pairs])).get(humanFiguresKey.pairs);
  const figures = stored?.kind === 'pairwise' ? stored : null;
  const names = await getModelNames(db, figures?.ranking.models.map((m) => m.model) ?? []);
  return (
    <Section id="leaderboard-h" title="Leaderboard">
      <BoardTabs tabs={boardTabs('people')} />
      <PairwiseBoard view={pairwiseBoardView(figures, names)} />
    </Section>
  );
}

async function Leaderboards({ tag }: { tag: string | null }) {
  const db = getDb();
  const rows = await getLeaderboardRows(db);
  // the board as stored (made once from these rows; the model page and /compare read the same)
  const key = tag === null ? ({ kind: 'all' } as const) : ({ kind: 'tag', tag } as const);
  // the judges' α of each model over the runs this board ranks it on: one pooled query for every model
  const [boards, names, judges, human] = await Promise.all([
    boardsFor(db, [key], rows, { minCoverage: leaderboardMinCoverage() }),
    getModelNames(db, [...new Set(rows.map((r) => r.modelId))]),
    getPooledJudgeReliability(db, rows.filter((r) => tag === null || r.tags.includes(tag)).map((r) => ({ runId: r.runId, modelId: r.modelId }))),
    // the judges checked against people over every blueprint people labelled (the methodology page's figures)
    readHumanFigures(db, [humanFiguresKey.all]),
  ]);
  const checked = human.get(humanFiguresKey.all);
  const board = leaderboardView(rows, names, tag, { board: boards.get(boardKeyName(key)), judges });
  const compare = compareView({ rows, prompts: [] }, names, { kind: 'board', tag }, {}, { action: '/compare', hidden: tag ? { tag } : {} });
  return (
    <Section id="leaderboard-h" title={board.title}>
      <BoardTabs tabs={boardTabs('rubric')} />
      <TagChips tags={tagChips(rows, tag)} overallHref={href.home()} overallActive={tag === null} />
      <JudgedCheckLine view={judgedCheckLine(checked?.kind === 'calibration' ? checked : null)} />
      <LeaderboardTable view={board} />
      {board.entries.length > 1 && <CompareForm view={compare} />}
    </Section>
  );
}

/** Embedding models on the retrieval blueprints: a board of its own, by each blueprint's primary metric. */
async function RetrievalLeaderboard({ tag }: { tag: string | null }) {
  const rows = await getRetrievalBoard(getDb());
  if (rows.length === 0) return null;
  const board = retrievalBoardView(rows, tag);
  // a tag no retrieval blueprint carries: the chat board is the page
  if (board.entries.length === 0) return null;
  return (
    <Section id="retrieval-board-h" title={board.title}>
      <TagChips tags={tagChips(rows, tag)} overallHref={href.home()} overallActive={tag === null} />
      <RetrievalBoard view={board} />
    </Section>
  );
}

async function Recent() {
  return <RecentRuns runs={recentRunsView(await listRecentRuns(getDb(), 8), new Date())} />;
}

async function Blueprints() {
  const items = blueprintCards(await listBlueprints(getDb()));
  return (
    <>
      <p className={muted}>
        {items.length} {items.length === 1 ? 'blueprint' : 'blueprints'}: prompts and the criteria that grade the replies.
      </p>
      <BlueprintList items={items} />
    </>
  );
}

export default async function HomePage({ searchParams }: Props) {
  const { tag, board } = HomeParams.parse(await searchParams);
  return (
    <div className="space-y-10">
      <section className="space-y-3">
        <h1 className="text-2xl font-semibold tracking-tight">Leaderboards and blueprints</h1>
        <p className={`max-w-3xl ${muted}`}>
          Every score comes from a blueprint’s prompts and the criteria that grade the replies. Follow any number down to the replies and the judges’ reasoning behind it.
        </p>
        <SearchForm />
        <HowToRead items={pageReadings('home')} />
      </section>
      <SectionBoundary name="leaderboard">
        <Suspense fallback={<TableSkeleton label="leaderboard" rows={6} />}>
          {board === 'people' ? <PeopleBoard /> : <Leaderboards tag={tag ?? null} />}
        </Suspense>
      </SectionBoundary>
      <SectionBoundary name="retrieval leaderboard">
        <Suspense fallback={<TableSkeleton label="retrieval leaderboard" rows={3} />}>
          <RetrievalLeaderboard tag={tag ?? null} />
        </Suspense>
      </SectionBoundary>
      <Section id="recent-h" title="Recent runs">
        <SectionBoundary name="list of recent runs">
          <Suspense fallback={<TableSkeleton label="recent runs" rows={4} />}>
            <Recent />
          </Suspense>
        </SectionBoundary>
      </Section>
      <section aria-labelledby="blueprints-h" className="space-y-3">
        <h2 id="blueprints-h" className="text-lg font-semibold tracking-tight">
          Blueprints
        </h2>
        <SectionBoundary name="list of blueprints">
          <Suspense fallback={<CardsSkeleton label="blueprints" cards={4} />}>
            <Blueprints />
          </Suspense>
        </SectionBoundary>
      </section>
    </div>
  );
}
