/**
 * GitHub's answers to an author's own token, as what to do next. Every error the pull-request
 * use case throws carries `details.next`, which the panel turns into a button or a sentence:
 * `connect` (connect GitHub again), `wait` (the rate limit, with its reset time), `retry` (a
 * transient failure: a retry reuses the fork, branch and commit already made), `overwrite`,
 * `fix` (the draft or the path), `ask` (no access: ask a maintainer).
 */
import type { Db } from '../db/client';
import { forgetGitHubToken } from '../auth/github-tokens';
import { rateLimitOf, untilReset } from '../github/rate-limit-errors';
import { AppError, ForbiddenError, NotFoundError, RateLimitedError, UnauthorizedError, UpstreamError } from '../http/errors';

export type NextStep = 'connect' | 'wait' | 'retry' | 'overwrite' | 'fix' | 'ask';

interface OctokitLikeError {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

export function statusOf(e: unknown): number | undefined {
  return (e as OctokitLikeError | null)?.status;
}

/** GitHub's 422 message, with its `errors[].message` (e.g. "A pull request already exists for …"). */
export function validationMessage(e: unknown): string {
  const data = (e as OctokitLikeError).response?.data as { message?: string; errors?: { message?: string }[] } | undefined;
  return [data?.message, ...(data?.errors ?? []).map((x) => x.message)].filter(Boolean).join(' ');
}

/** Runs one GitHub call with the author's token; a failure becomes the AppError that says what to do. */
export async function withAuthorToken<T>(ctx: { db: Db; userId: string; now?: () => Date }, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw await explain(ctx, what, e);
  }
}

export async function explain(ctx: { db: Db; userId: string; now?: () => Date }, what: string, e: unknown): Promise<AppError> {
  if (e instanceof AppError) return e;
  const status = statusOf(e);
  const headers = (e as OctokitLikeError).response?.headers ?? {};
  if (status === 401) {
    // revoked on GitHub or expired: the stored copy is useless, so it goes
    await forgetGitHubToken(ctx.db, ctx.userId);
    return new UnauthorizedError('GitHub no longer accepts your token (it was revoked or has expired). Connect GitHub again; your draft stays here and a retry picks up where this stopped.', { next: 'connect' satisfies NextStep });
  }
  // a rate limit (primary or secondary) is told apart from a refusal before any 403 is read as one
  const now = (ctx.now ?? (() => new Date()))();
  const limited = rateLimitOf(e, now);
  if (limited) {
    const { seconds, text } = untilReset(limited, now);
    const which = limited.kind === 'secondary' ? "GitHub's secondary rate limit (too many requests in a short time) holds your account" : "GitHub's rate limit for your account is used up";
    return new RateLimitedError(seconds, `${which} ${text}. Try again then; your draft stays here and nothing made so far is lost.`, { next: 'wait' satisfies NextStep, resetAt: limited.resetAt.toISOString() });
  }
  if (status === 403 && headers['x-accepted-oauth-scopes'] !== undefined) {
    return new ForbiddenError(`GitHub refused ${what}: your connection lacks the public_repo permission. Connect GitHub again and grant it.`, { next: 'connect' satisfies NextStep });
  }
  if (status === 403) return new ForbiddenError(`GitHub refused ${what}: your account has no access to it. Ask a maintainer of the repository, or check your GitHub organisation's OAuth app restrictions.`, { next: 'ask' satisfies NextStep });
  if (status === 404) return new NotFoundError(`GitHub: ${what} was not found or is not visible to your account. Check that the repository is public, or ask a maintainer.`, { next: 'ask' satisfies NextStep });
  if (status) return new UpstreamError(`GitHub failed ${what} (HTTP ${status}). Try again: a retry reuses the fork, branch and commit already made.`, { next: 'retry' satisfies NextStep, status });
  return new UpstreamError(`GitHub could not be reached for ${what}: ${(e as Error).message}. Try again in a moment.`, { next: 'retry' satisfies NextStep });
}
