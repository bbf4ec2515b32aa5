/**
 * Next.js calls `register` once when a server process starts: in-process job mode resumes
 * the runs a restart interrupted (the database is the journal, so nothing completed repeats).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || !process.env.DATABASE_URL) return;
  const { resumeInterruptedRuns } = await import('./lib/server/platform');
  await resumeInterruptedRuns().catch((e: unknown) => console.error('assay: could not resume interrupted runs:', e));
}
