/**
 * The fake GitHub's rate limits, as GitHub documents them in "Rate limits for the REST API"
 * (https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api):
 *
 * - Primary: an hourly budget per identity: 60 requests for unauthenticated clients (per
 *   address; here, one shared budget), 5,000 for a token or an App installation. Every answer
 *   carries `x-ratelimit-limit`, `-remaining`, `-used`, `-reset` (epoch seconds) and
 *   `-resource` ("Checking the status of your rate limit"); past the budget GitHub answers 403
 *   (or 429) with `x-ratelimit-remaining: 0` ("Exceeding the rate limit"). The messages are
 *   GitHub's ("API rate limit exceeded for …").
 * - Secondary: refusals that do not spend the budget, answered 403 with a message saying "You have
 *   exceeded a secondary rate limit" and a `retry-after` header in seconds ("About secondary
 *   rate limits"; the message as in @octokit/plugin-throttling, which matches /secondary rate/).
 *   GitHub decides them from load a test cannot reproduce, so a test triggers them: the next
 *   `times` requests matching `when` are refused.
 */
import type { FakeReply, FakeRequest, Router } from './github-server-http';

const HOUR_SECONDS = 3600;
const DOCS = 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api';

export interface SecondaryLimitTrigger {
  /** How many matching requests are refused (default 1). */
  times?: number;
  /** The `retry-after` it answers, in seconds (default 1). */
  retryAfter?: number;
  /** Which requests (default: any API request). */
  when?: (method: string, path: string) => boolean;
}

export class FakeRateLimits {
  /** GitHub's hourly budgets; a test may lower them. */
  readonly hourly = { anonymous: 60, authenticated: 5000 };
  /** Requests refused by a secondary limit, in order. */
  readonly secondaryRefusals: { method: string; path: string }[] = [];
  private readonly windows = new Map<string, { used: number; resetAt: number }>();
  private readonly triggers: Required<SecondaryLimitTrigger>[] = [];

  /** The next matching request(s) answer GitHub's secondary rate limit. */
  triggerSecondary(t: SecondaryLimitTrigger = {}): void {
    this.triggers.push({ times: t.times ?? 1, retryAfter: t.retryAfter ?? 1, when: t.when ?? (() => true) });
  }

  /** Spends one request of `who`'s budget; a refusal when a limit applies, else null. `who`: a token's identity, null when anonymous. */
  refuse(req: FakeRequest, who: { login: string } | null): FakeReply | null {
    if (!isApiPath(req.path)) return null;
    const trigger = this.triggers.find((t) => t.times > 0 && t.when(req.method, req.path));
    if (trigger) {
      trigger.times--;
      this.secondaryRefusals.push({ method: req.method, path: req.path });
      return {
        status: 403,
        body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', documentation_url: `${DOCS}#about-secondary-rate-limits` },
        headers: { 'retry-after': String(trigger.retryAfter) },
      };
    }
    const w = this.window(who);
    const limit = who ? this.hourly.authenticated : this.hourly.anonymous;
    if (w.used >= limit) {
      const message = who
        ? `API rate limit exceeded for user ID ${who.login}. If you reach out to GitHub Support for help, please include the request ID.`
        : "API rate limit exceeded for 127.0.0.1. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)";
      return { status: 403, body: { message, documentation_url: `${DOCS}#about-the-primary-rate-limit` } };
    }
    w.used++;
    return null;
  }

  /** The x-ratelimit-* headers GitHub puts on every API answer. */
  headers(req: FakeRequest, who: { login: string } | null): Record<string, string> {
    if (!isApiPath(req.path)) return {};
    const w = this.window(who);
    const limit = who ? this.hourly.authenticated : this.hourly.anonymous;
    return {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - w.used)),
      'x-ratelimit-used': String(w.used),
      'x-ratelimit-reset': String(w.resetAt),
      'x-ratelimit-resource': 'core',
    };
  }

  /** How many requests `who` (a login, or null for anonymous) has spent this hour. */
  used(login: string | null): number {
    return this.windows.get(login ?? '')?.used ?? 0;
  }

  private window(who: { login: string } | null) {
    const key = who?.login ?? '';
    const now = Math.floor(Date.now() / 1000);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { used: 0, resetAt: now + HOUR_SECONDS };
      this.windows.set(key, w);
    }
    return w;
  }
}

/** The REST API proper: not the fake's control routes, the OAuth web flow, the App token exchange (which runs on the App's JWT) or codeload's downloads. */
function isApiPath(path: string): boolean {
  return !path.startsWith('/_fake/') && !path.startsWith('/_codeload/') && !path.startsWith('/login/') && !/^\/app\/installations\/[^/]+\/access_tokens$/.test(path);
}

/**
 * `/_fake/limits/*`: the limits driven over HTTP (a spec or a demo in another process):
 * POST /_fake/limits/secondary { times?, retryAfter?, method?, path? (a regular expression) } and
 * PUT /_fake/limits/hourly { anonymous?, authenticated? }.
 */
export function limitControlRoutes(r: Router, limits: FakeRateLimits): void {
  r.on('POST', '/_fake/limits/secondary', (req) => {
    const b = (req.body ?? {}) as { times?: number; retryAfter?: number; method?: string; path?: string };
    const path = b.path ? new RegExp(b.path) : null;
    limits.triggerSecondary({ times: b.times, retryAfter: b.retryAfter, when: (method, p) => (!b.method || method === b.method) && (!path || path.test(p)) });
    return { status: 200, body: { armed: b } };
  });
  r.on('PUT', '/_fake/limits/hourly', (req) => {
    const b = (req.body ?? {}) as { anonymous?: number; authenticated?: number };
    if (typeof b.anonymous === 'number') limits.hourly.anonymous = b.anonymous;
    if (typeof b.authenticated === 'number') limits.hourly.authenticated = b.authenticated;
    return { status: 200, body: limits.hourly };
  });
}
