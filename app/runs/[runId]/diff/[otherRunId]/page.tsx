import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { getDb } from '@/lib/server/compose/database';
import { getRunJudgeReliability } from '@/lib/server/db/queries/judge-reliability';
import { getRunDiff } from '@/lib/server/db/queries/run-diff';
import { diffPageView } from '@/lib/views/diff-view';
import { formatDateTime } from '@/lib/views/format';
import { pageReadings } from '@/lib/views/how-to-read';
import { runHeaderView } from '@/lib/views/run-view';
import { href } from '@/lib/views/urls';
import { DiffCells, DiffModels } from '@/components/diff-page';
import { HowToRead } from '@/components/how-to-read';
import { JudgeReliabilityLine } from '@/components/judge-reliability';
import { RunHeader } from '@/components/run-header';
import { SectionBoundary } from '@/components/section-boundary';
import { TableSkeleton } from '@/components/skeletons';
import { link, muted } from '@/components/ui';
import { loadRunHeader, loadRunRanking } from '../../load';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ runId: string; otherRunId: string }> };
type RunRef = { id: string; versionId: string; createdAt: Date };

export const metadata: Metadata = { title: 'Compare two runs' };

async function Diff({ older, newer }: { older: RunRef; newer: RunRef }) {
  const db = getDb();
  const [diff, ranking, olderJudges, newerJudges] = await Promise.all([getRunDiff(db, older, newer), loadRunRanking(newer.id), getRunJudgeReliability(db, older.id), getRunJudgeReliability(db, newer.id)]);
  const view = diffPageView(older, newer, diff, ranking, { older: olderJudges.run, newer: newerJudges.run });
  return (
    <div className="space-y-8">
      {view.judges && (
        <div className="space-y-1" data-testid="diff-judges">
          <JudgeReliabilityLine view={view.judges.older} label="Judges of the older run" />
          <JudgeReliabilityLine view={view.judges.newer} label="Judges of the newer run" />
        </div>
      )}
      <DiffModels view={view} />
      <DiffCells view={view} />
    </div>
  );
}

export default async function DiffPage({ params }: Props) {
  const { runId, otherRunId } = await params;
  const [a, b] = await Promise.all([loadRunHeader(runId), loadRunHeader(otherRunId)]);
  // only two runs of the same blueprint compare meaningfully
  if (!a || !b || a.blueprint.id !== b.blueprint.id || a.id === b.id) notFound();
  const [older, newer] = a.createdAt <= b.createdAt ? [a, b] : [b, a];
  const pick = (h: typeof a): RunRef => ({ id: h.id, versionId: h.versionId, createdAt: h.createdAt });
  const headerView = runHeaderView(a, 'other');
  return (
    <div className="space-y-8">
      <RunHeader view={headerView} trail={[{ label: 'Compare' }]} />
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Compare two runs of {a.blueprint.title}</h1>
        <p className={muted}>
          Older:{' '}
          <a href={href.run(older.id)} className={link}>
            run of {formatDateTime(older.createdAt)}
          </a>{' '}
          → newer:{' '}
          <a href={href.run(newer.id)} className={link}>
            run of {formatDateTime(newer.createdAt)}
          </a>
          . A positive change means the newer run scored higher.
        </p>
      </header>
      <HowToRead items={pageReadings('diff')} />
      <SectionBoundary name="comparison">
        <Suspense fallback={<TableSkeleton label="comparison" rows={8} />}>
          <Diff older={pick(older)} newer={pick(newer)} />
        </Suspense>
      </SectionBoundary>
    </div>
  );
}
