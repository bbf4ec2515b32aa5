import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/server/compose/database';
import { getRunProgress } from '@/lib/server/db/queries/run-progress';
import { progressJson } from '@/lib/views/progress-view';
import { runHeaderView } from '@/lib/views/run-view';
import { href } from '@/lib/views/urls';
import { ProgressLive } from '@/components/progress-live';
import { RunHeader } from '@/components/run-header';
import { Section } from '@/components/ui';
import { loadRunHeader } from '../load';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ runId: string }> };

export const metadata: Metadata = { title: 'Run progress' };

export default async function ProgressPage({ params }: Props) {
  const header = await loadRunHeader((await params).runId);
  if (!header) notFound();
  const row = await getRunProgress(getDb(), header.id);
  if (!row) notFound();
  return (
    <div className="space-y-8">
      <RunHeader view={runHeaderView(header, 'progress')} trail={[{ label: 'Progress' }]} />
      <Section id="progress-h" title="Live progress">
        <h1 className="sr-only">Progress of the run of {header.blueprint.title}</h1>
        <ProgressLive initial={progressJson(row)} initialNow={new Date().toISOString()} apiHref={href.progressApi(header.id)} resultsHref={href.run(header.id)} />
      </Section>
    </div>
  );
}
