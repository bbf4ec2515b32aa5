/**
 * The GitHubRepo port over @octokit/rest: a personal/bot token or a GitHub App installation
 * token, against api.github.com or any compatible base URL (the fake GitHub in tests).
 * Octokit's RequestErrors become typed AppErrors here, once.
 *
 * A GitHub App authenticates through @octokit/auth-app: an RS256 JWT signed with the app's
 * private key is exchanged for an installation token, cached and renewed before it expires.
 */
import { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/rest';
import { AppError, NotFoundError, UpstreamError } from '../http/errors';
import type { GitHubConfig } from './config';
import type { CheckRunResult, GitHubRepo, PullRequestFile, RepoFile, RepoPermission } from './port';

export function createOctokit(config: Pick<GitHubConfig, 'apiUrl' | 'auth'>): Octokit {
  const { auth } = config;
  const quiet = () => {};
  return new Octokit({
    baseUrl: config.apiUrl.replace(/\/$/, ''),
    userAgent: 'assay',
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
    if (status === 401 || status === 403) {
      throw new UpstreamError(`GitHub refused ${what} (HTTP ${status}); check GITHUB_TOKEN or the GitHub App's permissions.`, { status });
    }
    if (status) throw new UpstreamError(`GitHub failed ${what} (HTTP ${status}).`, { status });
    throw new UpstreamError(`GitHub could not be reached for ${what}: ${(e as Error).message}`);
  }
}

const ANNOTATIONS_PER_REQUEST = 50; // GitHub's limit per create/update call

export function octokitRepo(octokit: Octokit, owner: string, repo: string): GitHubRepo {
  const at = { owner, repo };

  async function walk(treeSha: string, prefix: string): Promise<RepoFile[]> {
    const { data } = await call(`the tree ${treeSha}`, () => octokit.rest.git.getTree({ ...at, tree_sha: treeSha }));
    const files: RepoFile[] = [];
    for (const e of data.tree) {
      const path = prefix ? `${prefix}/${e.path}` : e.path!;
      if (e.type === 'blob') files.push({ path, blobSha: e.sha! });
      else if (e.type === 'tree') files.push(...(await walk(e.sha!, path)));
    }
    return files;
  }

  return {
    owner,
    repo,
    async branchHead(branch) {
      const { data } = await call(`the branch ${owner}/${repo}@${branch}`, () => octokit.rest.repos.getBranch({ ...at, branch }));
      return data.commit.sha;
    },
    async listFiles(commitSha) {
      const { data } = await call(`the tree at ${commitSha}`, () => octokit.rest.git.getTree({ ...at, tree_sha: commitSha, recursive: 'true' }));
      // past GitHub's size limit the recursive listing is cut short: walk the trees one by one instead
      if (data.truncated) return walk(data.sha, '');
      return data.tree.filter((e) => e.type === 'blob').map((e) => ({ path: e.path!, blobSha: e.sha! }));
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
