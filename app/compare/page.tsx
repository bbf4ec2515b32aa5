import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { CompareParams } from '@/lib/views/params';
import { href } from '@/lib/views/urls';
import { SectionBoundary } from '@/components/section-boundary';
import { TableSkeleton } from '@/components/skeletons';
import { Section, link, muted } from '@/components/ui';
import { ComparisonSection } from './comparison-section';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Compare two models' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ComparePage({ searchParams }: Props) {
  const { a, b, tag } = CompareParams.parse(await searchParams);
  const board = tag ? `the blueprints tagged “${tag}”` : 'every blueprint on the overall leaderboard';
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link href={href.home(tag)} className={link}>
          ← {tag ? `Leaderboard: ${tag}` : 'Overall leaderboard'}
        </Link>
      </p>
      <Section id="compare-h" title="Compare two models" description={`On ${board}: each from the latest run in which it scored, paired prompt by prompt.`}>
        <SectionBoundary name="comparison">
          <Suspense fallback={<TableSkeleton label="comparison" rows={6} />}>
            <ComparisonSection scope={{ kind: 'board', tag: tag ?? null }} a={a} b={b} form={{ action: '/compare', hidden: tag ? { tag } : {} }} />
          </Suspense>
        </SectionBoundary>
      </Section>
      <p className={`text-xs ${muted}`}>A positive difference favours A.</p>
    </div>
  );
}
