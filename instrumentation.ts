/**
 * Next.js calls `register` once when a server process starts: the peer-address stamp and the
 * log redaction are installed, and in-process job mode resumes
 * the runs and GitHub jobs a restart interrupted (the database is the journal, so nothing completed repeats).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // before any request: route handlers cannot see the socket, so its peer address is stamped on
  // each request for the per-client rate limits (lib/server/http/client-address.ts)
  const { installPeerAddressHeader } = await import('./lib/server/http/client-address');
  installPeerAddressHeader();
  // every log line of the server passes the secret redactor (provider keys, tokens, exposed variables)
  const { createRedactor, processSecrets, redactConsole } = await import('./lib/server/secret-redactor');
  redactConsole(console as never, createRedactor(processSecrets()));
  const { checkConfiguration, databaseConfigured, refreshFiguresFromPeople, resumeGitHubJobs, resumeInterruptedRuns } = await import('./lib/server/platform');
  // a bad configuration stops the start here, with every bad variable named (lib/server/env.ts)
  checkConfiguration();
  if (!databaseConfigured()) return;
  await resumeInterruptedRuns().catch((e: unknown) => console.error('assay: could not resume interrupted runs:', e));
  // GitHub jobs that failed or were interrupted (in-process mode) run again instead of being dropped
  await resumeGitHubJobs().catch((e: unknown) => console.error('assay: could not resume GitHub jobs:', e));
  // figures from people's labels that a stopped process left unmade catch up, without holding the start
  refreshFiguresFromPeople();
}
