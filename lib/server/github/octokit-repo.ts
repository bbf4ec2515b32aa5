/**
 * The GitHubRepo port over @octokit/rest: a personal/bot token or a GitHub App installation
 * token, against api.github.com or any compatible base URL (the fake GitHub in tests).
 * Octokit's RequestErrors become typed AppErrors here, once.
 *
 * A GitHub App authenticates through @octokit/auth-app: an RS256 JWT signed with the app's
 * private key is exchanged for an installation token, cached and renewed before it expires.
 */
import { createAppAuth } from '@octokit/auth-app';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import { AppError, NotFoundError, RateLimitedError, UpstreamError } from '../http/errors';
import type { GitHubConfig } from './config';
import { DEFAULT_CALL_LIMITS, retryOptions, throttleOptions, type GitHubCallLimits } from './octokit-limits';
import { rateLimitOf, untilReset } from './rate-limit-errors';
import { listTree, type GetTree } from './tree-listing';
import type { CheckRunResult, GitHubRepo, PullRequestFile, RepoPermission } from './port';

/** Every client waits out GitHub's rate limits and retries its server errors (octokit-limits.ts). */
const LimitedOctokit = Octokit.plugin(retry, throttling);

export function createOctokit(config: Pick<GitHubConfig, 'apiUrl' | 'auth'>, limits: GitHubCallLimits = DEFAULT_CALL_LIMITS): Octokit {
  const { auth } = config;
  const quiet = () => {};
  const identity = auth.kind === 'app' ? `app:${auth.appId}:${auth.installationId}` : auth.kind === 'token' ? `token:${auth.token}` : 'anonymous';
  return new LimitedOctokit({
    baseUrl: config.apiUrl.replace(/\/$/, ''),
    userAgent: 'assay',
    throttle: throttleOptions(identity, limits),
    retry: retryOptions,
    ...(auth.kind === 'app'
      ? { authStrategy: createAppAuth, auth: { appId: auth.appId, privateKey: auth.privateKey, installationId: auth.installationId } }
      : { auth: auth.kind === 'token' ? auth.token : undefined }),
    // failed requests become typed errors below, which say more; Octokit's own log lines would repeat them
    log: { debug: quiet, info: quiet, warn: console.warn, error: quiet },
  });
}

const APP_TOKEN_REQUEST = /\/app\/installations\/[^/]+\/access_tokens$/;

/** Octokit errors → AppErrors that say what to check. */
async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof AppError) throw e; // already explained
    const status = (e as { status?: number }).status;
    if (status && APP_TOKEN_REQUEST.test((e as { request?: { url?: string } }).request?.url ?? '')) {
      throw new UpstreamError(`GitHub refused the app's token request (HTTP ${status}); check GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY and GITHUB_APP_INSTALLATION_ID.`, { status });
    }
    if (status === 404) throw new NotFoundError(`GitHub: ${what} was not found (HTTP 404); check GITHUB_REPOSITORY and that the token can read it.`);
    const limited = rateLimitOf(e, new Date());
    if (limited) throw rateLimitedError(what, limited);
    if (status === 401 || status === 403) {
      throw new UpstreamError(`GitHub refused ${what} (HTTP ${status}); check GITHUB_TOKEN or the GitHub App's permissions.`, { status });
    }
    if (status) throw new UpstreamError(`GitHub failed ${what} (HTTP ${status}).`, { status });
    throw new UpstreamError(`GitHub could not be reached for ${what}: ${(e as Error).message}`);
  }
}

/** A rate limit that was not waited out (too long, or hit again): say which limit, until when, and the way out. */
function rateLimitedError(what: string, limited: NonNullable<ReturnType<typeof rateLimitOf>>): RateLimitedError {
  const { seconds, text } = untilReset(limited, new Date());
  const which =
    limited.kind === 'secondary'
      ? `GitHub's secondary rate limit (too many requests at once) stopped ${what}`
      : limited.limit === 60
        ? `GitHub's limit for unauthenticated requests (60 an hour) stopped ${what}; set GITHUB_TOKEN or a GitHub App for 5,000 an hour`
        : `GitHub's hourly rate limit for this token is used up at ${what}`;
  return new RateLimitedError(seconds, `${which}, ${text}. Try again then: a sync resumes where it stopped, and a pull request's check is retried.`, { kind: limited.kind, resetAt: limited.resetAt.toISOString() });
}

const ANNOTATIONS_PER_REQUEST = 50; // GitHub's limit per create/update call

/**
 * `checkRuns`: whether this identity may use the Checks API. Only a GitHub App may ("OAuth apps
 * and personal access tokens (classic) cannot use this endpoint", checks/create and checks/update
 * in GitHub's REST description, npm @octokit/openapi), so a plain token reports by comment alone.
 */
export function octokitRepo(octokit: Octokit, owner: string, repo: string, options: { checkRuns?: boolean } = {}): GitHubRepo {
  const at = { owner, repo };

  const getTree: GetTree = async (treeSha, recursive) =>
    (await call(`the tree ${treeSha}`, () => octokit.rest.git.getTree({ ...at, tree_sha: treeSha, ...(recursive ? { recursive: 'true' } : {}) }))).data;

  return {
    owner,
    repo,
    checkRuns: options.checkRuns ?? false,
    async branchHead(branch) {
      const { data } = await call(`the branch ${owner}/${repo}@${branch}`, () => octokit.rest.repos.getBranch({ ...at, branch }));
      return data.commit.sha;
    },
    listFiles(commitSha, folders) {
      return listTree(getTree, commitSha, folders);
    },
    async downloadArchive(commitSha) {
      // answered with a redirect to codeload.github.com, which fetch follows
      const { data } = await call(`the archive of ${owner}/${repo}@${commitSha.slice(0, 7)}`, () => octokit.rest.repos.downloadTarballArchive({ ...at, ref: commitSha }));
      return new Uint8Array(data as ArrayBuffer);
    },
    async readBlob(blobSha) {
      const { data } = await call(`the blob ${blobSha}`, () => octokit.rest.git.getBlob({ ...at, file_sha: blobSha }));
      return data.encoding === 'base64' ? Buffer.from(data.content, 'base64').toString('utf8') : data.content;
    },
    async getPullRequest(number) {
      const { data } = await call(`pull request #${number}`, () => octokit.rest.pulls.get({ ...at, pull_number: number }));
      return {
        number: data.number,
        title: data.title,
        author: data.user?.login ?? 'ghost',
        headSha: data.head.sha,
        state: data.state === 'closed' ? 'closed' : 'open',
        labels: data.labels.map((l) => l.name ?? '').filter(Boolean),
      };
    },
    async listPullRequestFiles(number) {
      const files = await call(`the files of pull request #${number}`, () => octokit.paginate(octokit.rest.pulls.listFiles, { ...at, pull_number: number, per_page: 100 }));
      return files.map((f): PullRequestFile => ({ path: f.filename, status: f.status, blobSha: f.sha ?? '' }));
    },
    async createCheckRun(headSha, name, detailsUrl) {
      const { data } = await call('creating a check run', () =>
        octokit.rest.checks.create({ ...at, head_sha: headSha, name, status: 'in_progress', started_at: new Date().toISOString(), ...(detailsUrl ? { details_url: detailsUrl } : {}) }),
      );
      return data.id;
    },
    async completeCheckRun(id, result: CheckRunResult) {
      const toGitHub = result.annotations.map((a) => ({
        path: a.path,
        start_line: a.startLine,
        end_line: a.endLine,
        ...(a.startLine === a.endLine && a.startColumn ? { start_column: a.startColumn, end_column: a.endColumn ?? a.startColumn } : {}),
        annotation_level: a.level,
        title: a.title,
        message: a.message,
      }));
      const output = { title: result.title, summary: result.summary, ...(result.text ? { text: result.text } : {}) };
      // annotations go 50 per request; the last request also completes the run
      const batches: (typeof toGitHub)[] = [];
      for (let i = 0; i < toGitHub.length; i += ANNOTATIONS_PER_REQUEST) batches.push(toGitHub.slice(i, i + ANNOTATIONS_PER_REQUEST));
      const last = batches.pop() ?? [];
      for (const batch of batches) {
        await call('annotating a check run', () => octokit.rest.checks.update({ ...at, check_run_id: id, output: { ...output, annotations: batch } }));
      }
      await call('completing a check run', () =>
        octokit.rest.checks.update({ ...at, check_run_id: id, status: 'completed', conclusion: result.conclusion, completed_at: new Date().toISOString(), output: { ...output, annotations: last } }),
      );
    },
    async postComment(issueNumber, body) {
      const { data } = await call(`commenting on #${issueNumber}`, () => octokit.rest.issues.createComment({ ...at, issue_number: issueNumber, body }));
      return data.id;
    },
    async updateComment(commentId, body) {
      try {
        await call(`updating comment ${commentId}`, () => octokit.rest.issues.updateComment({ ...at, comment_id: commentId, body }));
        return true;
      } catch (e) {
        if (e instanceof NotFoundError) return false;
        throw e;
      }
    },
    async permissionOf(login) {
      const { data } = await call(`${login}'s permission`, () => octokit.rest.repos.getCollaboratorPermissionLevel({ ...at, username: login }));
      // role_name distinguishes maintain/triage, which `permission` folds into write/read
      const role = (data as { role_name?: string }).role_name;
      const known: RepoPermission[] = ['admin', 'maintain', 'write', 'triage', 'read', 'none'];
      return known.includes(role as RepoPermission) ? (role as RepoPermission) : (data.permission as RepoPermission);
    },
  };
}
