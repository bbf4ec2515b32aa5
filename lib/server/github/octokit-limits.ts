/**
 * How every Octokit client Assay builds (createOctokit in octokit-repo.ts: the repository's
 * token or App, and each author's own token) behaves at GitHub's limits, through Octokit's own
 * plugins rather than hand-written loops:
 *
 * - @octokit/plugin-throttling queues requests per identity as GitHub's best practices ask
 *   (writes one at a time, spaced; https://docs.github.com/en/rest/using-the-rest-api/best-practices-for-using-the-rest-api)
 *   and waits out a rate limit when GitHub says how long: `retry-after` for a secondary limit,
 *   `x-ratelimit-reset` when `x-ratelimit-remaining` is 0 for the primary one
 *   (https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api, "Exceeding the rate limit").
 *   A wait longer than `maxWaitSeconds` is not made: the request fails, and the caller reports a
 *   rate limit with its reset time (rate-limit-errors.ts), never a permission problem.
 * - @octokit/plugin-retry retries GitHub's own failures (5xx) with growing pauses. Conflicts
 *   (409) and rate limits (429) are left out: a conflict is an answer, and the throttling plugin
 *   owns every rate limit.
 */
import Bottleneck from 'bottleneck';
import { createHash } from 'node:crypto';
import type { RetryOptions } from '@octokit/plugin-retry';
import type { ThrottlingOptions } from '@octokit/plugin-throttling';

export interface GitHubCallLimits {
  /** The longest wait for a rate limit; GitHub asking for more fails the request as rate-limited. */
  maxWaitSeconds: number;
  /** How often one request waits out a secondary limit before failing. */
  secondaryRetries: number;
  /** The pause between two writes of one identity: GitHub asks for at least one second. */
  writeSpacingMs: number;
}

/** For jobs (sync, validation): a minute is worth waiting; an author's request waits less (authoring). */
export const DEFAULT_CALL_LIMITS: GitHubCallLimits = { maxWaitSeconds: 60, secondaryRetries: 3, writeSpacingMs: 1000 };

/** One set of write queues per spacing, shared by the clients of this process and keyed by identity inside. */
const writeQueues = new Map<number, { write: Bottleneck.Group; notifications: Bottleneck.Group }>();

function queuesFor(spacingMs: number) {
  let q = writeQueues.get(spacingMs);
  if (!q) {
    // the plugin's own defaults are 1 s between writes and 3 s between writes that notify people
    q = { write: new Bottleneck.Group({ maxConcurrent: 1, minTime: spacingMs }), notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime: spacingMs * 3 }) };
    writeQueues.set(spacingMs, q);
  }
  return q;
}

/** `identity` names whose quota the client spends (a token's hash, an App installation): each gets its own queue. */
export function throttleOptions(identity: string, limits: GitHubCallLimits = DEFAULT_CALL_LIMITS): ThrottlingOptions {
  const id = createHash('sha256').update(identity).digest('hex').slice(0, 16);
  return {
    id,
    ...queuesFor(limits.writeSpacingMs),
    onRateLimit: (retryAfter, _options, _octokit, retryCount) => retryCount < 1 && retryAfter <= limits.maxWaitSeconds,
    onSecondaryRateLimit: (retryAfter, _options, _octokit, retryCount) => retryCount < limits.secondaryRetries && retryAfter <= limits.maxWaitSeconds,
  };
}

export const retryOptions: RetryOptions = { doNotRetry: [400, 401, 403, 404, 409, 410, 422, 429, 451] };
