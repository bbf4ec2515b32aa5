import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { z } from 'zod';
import { getDb } from '@/lib/server/compose/database';
import { pullRequestReport } from '@/lib/server/github/pull-requests/pull-request-report';
import { muted } from '@/components/ui';

/**
 * A pull request's validation in full: what the check run and Assay's comment on GitHub link to
 * when GitHub's length limits cut their error lists short. Blueprint text is shown as text only.
 */
export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Pull request check' };

const Params = z.object({ number: z.coerce.number().int().positive() });

export default async function PullRequestPage({ params }: { params: Promise<{ number: string }> }) {
  const parsed = Params.safeParse(await params);
  if (!parsed.success) notFound();
  const report = await pullRequestReport(getDb(), parsed.data.number);
  if (!report) notFound();
  const bad = report.validation.files.filter((f) => !f.valid);
  const errorCount = bad.reduce((n, f) => n + f.errors.length, 0);
  return (
    <div className="space-y-6">
      <section className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">
          Pull request #{report.number}: {report.title}
        </h1>
        <p className={muted}>
          By {report.author}, checked at {report.headSha.slice(0, 7)} ({report.state.replace(/_/g, ' ')}): {report.validation.files.length} files, {errorCount} errors in {bad.length} files.
        </p>
      </section>
      {report.validation.files.map((f) => (
        <section key={f.path} className="space-y-1">
          <h2 className="font-mono text-sm font-semibold">
            {f.path}: {f.valid ? 'valid' : `${f.errors.length} errors`}
          </h2>
          {f.errors.length > 0 && (
            <pre className="overflow-x-auto rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-900">
              {f.errors.map((e) => `${f.path}:${e.line}:${e.col}: ${e.message}${e.hint ? `\n    hint: ${e.hint}` : ''}`).join('\n')}
            </pre>
          )}
        </section>
      ))}
    </div>
  );
}
