/**
 * GitHub jobs run in this process (no Inngest configured), made durable: each job is written
 * to `github_jobs` before it runs, so a job that fails, or whose process stops, is run again
 * later instead of being dropped. GitHub does not redeliver a failed webhook by itself
 * (https://docs.github.com/en/webhooks/using-webhooks/handling-failed-webhook-deliveries), so a
 * dropped validation would leave a pull request's check "in progress" until the next push.
 *
 *   request ─▶ row (pending) ─▶ claimed (running, with a lease) ─▶ done
 *                                   └─ fails ─▶ pending again after a growing pause (30 s … 1 h),
 *                                               `failed` after MAX_ATTEMPTS or when the thing is gone (404)
 *
 * A running job whose lease lapsed belongs to a process that stopped: it is claimed again. The
 * use cases are idempotent (a validated head is reported once, an approval once), so running a
 * job twice is harmless. With Inngest, its own retries do all this (jobs/functions).
 */
import { z } from 'zod';
import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '../db/client';
import { NotFoundError } from '../http/errors';
import type { GitHubJobs } from './jobs';

const JobSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('sync'), trigger: z.enum(['webhook', 'cron', 'admin', 'cli']), commitSha: z.string().optional() }),
  z.object({ kind: z.literal('pull_request_changed'), pr: z.object({ number: z.number().int().positive(), headSha: z.string(), author: z.string(), title: z.string() }) }),
  z.object({
    kind: z.literal('pull_request_approved'),
    approval: z.object({ number: z.number().int().positive(), approvedBy: z.string(), via: z.enum(['label', 'comment', 'admin']), headSha: z.string().optional() }),
  }),
]);
export type GitHubJob = z.infer<typeof JobSchema>;

/** After this many failures a job stops being retried and stays `failed`, with its last error, for an operator. */
export const MAX_ATTEMPTS = 20;

export interface OutboxOptions {
  /** Postpones running past the caller's answer (Next's `after`); without it a job runs before the request returns, and its error is thrown. */
  defer?: (task: () => Promise<void>) => void;
  /** How long a running job is held before another process may take it over. */
  leaseMs?: number;
  /** The pause before retrying after the n-th failure (n ≥ 1). */
  backoffMs?: (failures: number) => number;
  now?: () => Date;
}

const DEFAULT_LEASE_MS = 15 * 60_000;
/** 30 s, 1 min, 2 min … at most an hour. */
export const defaultBackoffMs = (failures: number) => Math.min(30_000 * 2 ** (failures - 1), 3_600_000);

/** The jobs port over the outbox: each request is stored, then run through `run` (services.ts `inProcessJobs`). */
export function durableJobs(db: Db, run: GitHubJobs, o: OutboxOptions = {}): GitHubJobs {
  const enqueue = async (job: GitHubJob) => {
    const runAfter = (o.now ?? (() => new Date()))(); // due at once, by the clock that decides what is due
    const row = await db.gitHubJob.create({ data: { kind: job.kind, payload: job as unknown as Prisma.InputJsonValue, runAfter } });
    if (o.defer) {
      o.defer(async () => {
        await runJob(db, run, row.id, o);
      });
      return;
    }
    const error = await runJob(db, run, row.id, o);
    if (error) throw error;
  };
  return {
    requestSync: (trigger, commitSha) => enqueue({ kind: 'sync', trigger, ...(commitSha ? { commitSha } : {}) }),
    pullRequestChanged: (pr) => enqueue({ kind: 'pull_request_changed', pr: { number: pr.number, headSha: pr.headSha, author: pr.author, title: pr.title } }),
    pullRequestApproved: (a) => enqueue({ kind: 'pull_request_approved', approval: { number: a.number, approvedBy: a.approvedBy, via: a.via, ...(a.headSha ? { headSha: a.headSha } : {}) } }),
  };
}

/** Runs every job that is due (pending past its pause, or running past its lease): at start-up and then now and again. */
export async function runDueGitHubJobs(db: Db, run: GitHubJobs, o: OutboxOptions = {}): Promise<{ ran: number; failed: number }> {
  const now = (o.now ?? (() => new Date()))();
  const due = await db.gitHubJob.findMany({ where: dueAt(now), orderBy: { runAfter: 'asc' }, select: { id: true }, take: 50 });
  let failed = 0;
  for (const { id } of due) if (await runJob(db, run, id, o)) failed++;
  return { ran: due.length, failed };
}

function dueAt(now: Date): Prisma.GitHubJobWhereInput {
  return { OR: [{ status: 'pending', runAfter: { lte: now } }, { status: 'running', lockedUntil: { lt: now } }] };
}

/** Claims one job (unless another process holds it), runs it, and records how it went; returns its error, if any. */
async function runJob(db: Db, run: GitHubJobs, id: string, o: OutboxOptions): Promise<Error | null> {
  const now = (o.now ?? (() => new Date()))();
  const claimed = await db.gitHubJob.updateMany({
    where: { id, ...dueAt(now) },
    data: { status: 'running', lockedUntil: new Date(now.getTime() + (o.leaseMs ?? DEFAULT_LEASE_MS)), attempts: { increment: 1 } },
  });
  if (claimed.count === 0) return null; // done already, or another process has it
  const row = await db.gitHubJob.findUniqueOrThrow({ where: { id } });
  try {
    const job = JobSchema.parse(row.payload);
    if (job.kind === 'sync') await run.requestSync(job.trigger, job.commitSha);
    else if (job.kind === 'pull_request_changed') await run.pullRequestChanged(job.pr);
    else await run.pullRequestApproved(job.approval);
    await db.gitHubJob.update({ where: { id }, data: { status: 'done', lockedUntil: null, lastError: null } });
    return null;
  } catch (e) {
    const error = e instanceof Error ? e : new Error(String(e));
    // a pull request or repository that is gone will not come back by waiting; nor will a malformed row
    const hopeless = error instanceof NotFoundError || error instanceof z.ZodError || row.attempts >= MAX_ATTEMPTS;
    const retryAt = new Date((o.now ?? (() => new Date()))().getTime() + (o.backoffMs ?? defaultBackoffMs)(row.attempts));
    await db.gitHubJob.update({
      where: { id },
      data: { status: hopeless ? 'failed' : 'pending', lockedUntil: null, runAfter: retryAt, lastError: error.message.slice(0, 2000) },
    });
    console.error(`assay: GitHub job ${row.kind} failed (attempt ${row.attempts}${hopeless ? ', not retried' : `, retried at ${retryAt.toISOString()}`}):`, error.message);
    return error;
  }
}
