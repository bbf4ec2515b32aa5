import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { getDb } from '@/lib/server/compose/database';
import { getPointVerdicts, getVisiblePrompt } from '@/lib/server/db/queries/run-prompt';
import { PointIndex, PointParams } from '@/lib/views/params';
import { pointPageView } from '@/lib/views/point-view';
import { runHeaderView } from '@/lib/views/run-view';
import { decodeSegment, href } from '@/lib/views/urls';
import { RunHeader } from '@/components/run-header';
import { SectionBoundary } from '@/components/section-boundary';
import { TableSkeleton } from '@/components/skeletons';
import { Pagination, Section, link, muted } from '@/components/ui';
import { PointLabel, VerdictItem } from '@/components/verdict';
import { loadRunHeader, loadRunRanking } from '../../../../load';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ runId: string; promptKey: string; pointIndex: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { promptKey, pointIndex } = await params;
  return { title: `Point ${Number(pointIndex) + 1} of ${decodeSegment(promptKey)}` };
}

async function Verdicts({ run, promptKey, index, page }: { run: { id: string; versionId: string }; promptKey: string; index: number; page: number }) {
  const db = getDb();
  const [prompt, verdicts, ranking] = await Promise.all([getVisiblePrompt(db, run.versionId, promptKey), getPointVerdicts(db, run, promptKey, index), loadRunRanking(run.id)]);
  const view = prompt ? pointPageView(run.id, prompt, index, verdicts, ranking, page) : null;
  if (!view) return null;
  return (
    <Section id="verdicts-h" title="Every model’s verdict" description={view.summary}>
      <ol data-testid="point-verdicts">
        {view.entries.map((e) => (
          <VerdictItem
            key={`${e.modelId}-${e.attemptLabel ?? ''}`}
            v={e.verdict}
            heading={
              <p className="text-sm font-medium">
                <a href={e.cellHref} className={link}>
                  {e.label}
                </a>
                {e.attemptLabel && <span className={`ml-1 ${muted}`}>({e.attemptLabel})</span>}
                <span className={`ml-2 font-mono text-xs font-normal ${muted}`}>{e.modelId}</span>
              </p>
            }
          />
        ))}
      </ol>
      {view.pagination && <Pagination view={view.pagination} label="More verdicts" />}
    </Section>
  );
}

export default async function PointPage({ params, searchParams }: Props) {
  const { runId, promptKey: keySegment, pointIndex } = await params;
  const index = PointIndex.safeParse(pointIndex);
  const header = await loadRunHeader(runId);
  if (!header || !index.success) notFound();
  const promptKey = decodeSegment(keySegment);
  const run = { id: header.id, versionId: header.versionId };
  const prompt = await getVisiblePrompt(getDb(), run.versionId, promptKey);
  const view = prompt ? pointPageView(run.id, prompt, index.data, [], []) : null;
  if (!prompt || !view || !prompt.points[index.data]) notFound();
  return (
    <div className="space-y-8">
      <RunHeader view={runHeaderView(header, 'other')} trail={[{ label: `Prompt ${promptKey}`, href: href.prompt(run.id, promptKey) }, { label: `Point ${index.data + 1}` }]} />
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">
          Point {index.data + 1} of prompt <span className="font-mono">{promptKey}</span>
        </h1>
        <PointLabel text={view.text} code={view.code} direction={view.direction} citation={view.citation} className="text-lg" />
        <p className={`text-sm ${muted}`}>
          {view.facts.join(' · ')} ·{' '}
          <a href={`${href.prompt(run.id, promptKey)}#point-${index.data}`} className={link}>
            back to the prompt
          </a>
        </p>
      </header>
      <SectionBoundary name="verdicts">
        <Suspense fallback={<TableSkeleton label="verdicts" rows={6} />}>
          <Verdicts run={run} promptKey={promptKey} index={index.data} page={PointParams.parse(await searchParams).page} />
        </Suspense>
      </SectionBoundary>
    </div>
  );
}
