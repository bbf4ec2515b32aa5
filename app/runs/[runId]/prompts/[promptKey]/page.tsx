import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { cache, Suspense } from 'react';
import { getDb } from '@/lib/server/compose/database';
import { getPromptReplies, getRunPrompt, type RunPrompt } from '@/lib/server/db/queries/run-prompt';
import { pageReadings } from '@/lib/views/how-to-read';
import { PromptParams } from '@/lib/views/params';
import { promptPageView, replyCards, type PromptPageView } from '@/lib/views/prompt-view';
import { runHeaderView } from '@/lib/views/run-view';
import { decodeSegment } from '@/lib/views/urls';
import { Conversation, GateBanner, PointsGrid, ReplyCard } from '@/components/prompt-page';
import { HowToRead } from '@/components/how-to-read';
import { RunHeader } from '@/components/run-header';
import { ScrollToHash } from '@/components/scroll-to-hash';
import { SectionBoundary } from '@/components/section-boundary';
import { CardsSkeleton } from '@/components/skeletons';
import { Pagination, Section, link, muted } from '@/components/ui';
import { loadRunHeader, loadRunRanking } from '../../load';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ runId: string; promptKey: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };
type Run = { id: string; versionId: string };

const loadPrompt = cache(async (run: string, versionId: string, promptKey: string) => getRunPrompt(getDb(), { id: run, versionId }, promptKey));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { runId, promptKey } = await params;
  const header = await loadRunHeader(runId);
  const data = header ? await loadPrompt(header.id, header.versionId, decodeSegment(promptKey)) : null;
  return { title: data ? `Prompt ${data.prompt.promptKey}: ${header?.blueprint.title}` : 'Not found' };
}

async function Replies({ run, view, prompt }: { run: Run; view: PromptPageView; prompt: RunPrompt['prompt'] }) {
  const [replies, ranking, data] = await Promise.all([getPromptReplies(getDb(), run, view.key, view.replyModelIds), loadRunRanking(run.id), loadPrompt(run.id, run.versionId, view.key)]);
  const cells = data?.cells ?? [];
  const focused = view.selectedModelId ? replyCards(run.id, prompt, replies, [view.selectedModelId], ranking, view.selectedModelId, cells)[0] : null;
  const compare = replyCards(run.id, prompt, replies, view.compareModelIds, ranking, view.selectedModelId, cells);
  return (
    <div className="space-y-8">
      {focused && (
        <Section id="cell-h" title={`${focused.label}’s reply`} description="This prompt × model cell: the reply and every point’s verdict.">
          <ReplyCard card={focused} focus />
        </Section>
      )}
      <Section id="replies" title={view.selectedModelId ? 'Other models, side by side' : 'Replies side by side'}>
        <div className={`grid grid-cols-1 gap-4 ${view.selectedModelId ? 'lg:grid-cols-3' : 'md:grid-cols-2 xl:grid-cols-4'}`}>
          {compare.map((c) => (
            <ReplyCard key={c.modelId} card={c} />
          ))}
        </div>
        {view.comparePagination && <Pagination view={view.comparePagination} label="More replies" />}
      </Section>
      <ScrollToHash />
    </div>
  );
}

export default async function PromptPage({ params, searchParams }: Props) {
  const { runId, promptKey } = await params;
  const header = await loadRunHeader(runId);
  if (!header) notFound();
  const run = { id: header.id, versionId: header.versionId };
  // a sealed or unknown prompt is missing here: 404 before anything streams
  const data = await loadPrompt(run.id, run.versionId, decodeSegment(promptKey));
  if (!data) notFound();
  const q = PromptParams.parse(await searchParams);
  const view = promptPageView(run.id, data, await loadRunRanking(run.id), { model: q.model ?? null, compare: q.compare, ...(q.grid ? { grid: q.grid } : {}) });
  return (
    <div className="space-y-8">
      <RunHeader view={runHeaderView(header, 'other')} trail={[{ label: view.heading }]} />
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">
          {view.heading}
          {view.selectedLabel && <span className={`ml-2 text-lg font-normal ${muted}`}>× {view.selectedLabel}</span>}
        </h1>
        <p className={`text-sm ${muted}`}>{view.facts.join(' · ')}</p>
        {view.gateNote && <GateBanner text={view.gateNote} testId="gate-failed-top" />}
        <nav aria-label="Neighbouring prompts" className="flex gap-4 text-sm">
          {view.previousHref && (
            <Link href={view.previousHref} prefetch={false} className={link} rel="prev">
              ← Previous prompt
            </Link>
          )}
          {view.nextHref && (
            <Link href={view.nextHref} prefetch={false} className={link} rel="next">
              Next prompt →
            </Link>
          )}
        </nav>
        {/* no judge α here: over one prompt's verdicts it is not defined (lib/core/judging/alpha.ts);
            each verdict shows its judges' answers and their spread instead */}
        <HowToRead items={pageReadings('cell')} />
      </header>
      <Section id="conversation-h" title="The conversation">
        <Conversation view={view} />
      </Section>
      <Section id="points-h" title="Points" description="What each reply was graded on. Open a point to see every model’s verdict and the judges’ reasoning.">
        <PointsGrid view={view} />
      </Section>
      <SectionBoundary name="replies">
        <Suspense fallback={<CardsSkeleton label="replies" />}>
          <Replies run={run} view={view} prompt={data.prompt} />
        </Suspense>
      </SectionBoundary>
    </div>
  );
}
