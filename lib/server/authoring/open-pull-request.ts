/**
 * "Open a pull request" with the author's own GitHub token: validate the path and the draft
 * (the same parser as `assay validate`; nothing is created when either fails), then on GitHub
 *
 *   repository permission ─ no push ─▶ fork (reused when it exists; waited for, GitHub makes it asynchronously)
 *   base commit ─▶ branch `assay/<name>-<fingerprint>` (a taken name with other content: `-2`, `-3`…)
 *   ─▶ commit the file (no overwrite of an existing file unless the author said so) ─▶ the pull request
 *
 * Every step first looks for what an earlier, interrupted attempt made (the fork, a branch with
 * this very content, the open pull request from it) and reuses it, so a retry after an error
 * resumes instead of duplicating. From then on the pull request is GitHub's and the existing
 * validation and approval flow (lib/server/github/pull-requests, webhooks) takes over.
 */
import { createHash } from 'node:crypto';
import { branchNameFor, collidingPath, pullRequestDescription, pullRequestPathProblem, pullRequestTitle, tryRunLink, type OpenedPullRequest, type OpenPullRequestBody } from '@/lib/core';
import type { Octokit } from '@octokit/rest';
import type { SessionUser } from '../auth/sessions';
import { gitHubTokenOf, type TokenRefresher } from '../auth/github-tokens';
import { enforceRateLimit, type RateLimit } from '../auth/rate-limit';
import type { Db } from '../db/client';
import type { GitHubSource } from '../github/config';
import { DEFAULT_CALL_LIMITS, type GitHubCallLimits } from '../github/octokit-limits';
import { createOctokit } from '../github/octokit-repo';
import { BadRequestError, ConflictError, NotFoundError, UnauthorizedError, UpstreamError } from '../http/errors';
import { explain, statusOf, validationMessage, withAuthorToken } from './github-calls';
import { parseBlueprintBounded } from '../untrusted/parse-bounded';

/** Pull requests an author may open per hour (each is several GitHub calls made with their token). */
export const AUTHOR_PULL_REQUEST_LIMIT: RateLimit = { limit: 10, windowSeconds: 3600 };
/** The author waits for the answer: a rate limit is waited out only when it is short; otherwise they are told when to retry. */
export const AUTHOR_CALL_LIMITS: GitHubCallLimits = { ...DEFAULT_CALL_LIMITS, maxWaitSeconds: 20 };
/** Branch names tried before giving up (`-2` … `-5`). */
const BRANCH_ATTEMPTS = 5;

export interface AuthoringGitHubDeps {
  db: Db;
  /** GitHub's API (the fake GitHub in tests). */
  apiUrl: string;
  /** The configured blueprint repository (lib/server/github/config.ts). */
  source: GitHubSource;
  /** ASSAY_TOKEN_KEY, decoded. */
  tokenKey: Buffer;
  /** Renews a GitHub App's expiring user token (the OAuth client of GITHUB_OAUTH_CLIENT_ID); none: an expired one means connecting again. */
  refresher?: TokenRefresher;
  /** This site, to make a try-it link absolute in the description. */
  publicUrl: string;
  /**
   * A new fork is polled this many times, first this far apart and then further (×1.5 each time,
   * at most 5 s), until GitHub has copied its Git data; then the author is asked to retry (which reuses it).
   */
  forkWait?: { tries: number; intervalMs: number };
  /** How the author's client meets GitHub's rate limits (octokit-limits.ts); default AUTHOR_CALL_LIMITS. */
  callLimits?: GitHubCallLimits;
  now?: () => Date;
}

/** Git's blob id of a text: what GitHub reports as a file's `sha`, so equal content is recognised without reading it. */
export function gitBlobSha(text: string): string {
  const body = Buffer.from(text, 'utf8');
  return createHash('sha1').update(`blob ${body.length}\0`).update(body).digest('hex');
}

/** The author's Octokit; 401 with `next: connect` when they have not connected GitHub (or the token no longer decrypts). */
export async function authorOctokit(deps: AuthoringGitHubDeps, user: SessionUser): Promise<Octokit> {
  const token = await gitHubTokenOf(deps.db, deps.tokenKey, user.id, deps.refresher, deps.now?.());
  if (!token) throw new UnauthorizedError('Connect GitHub to open pull requests: Assay needs your permission (public_repo) to fork the blueprint repository and open the pull request as you.', { next: 'connect' });
  return createOctokit({ apiUrl: deps.apiUrl, auth: { kind: 'token', token } }, deps.callLimits ?? AUTHOR_CALL_LIMITS);
}

export async function openPullRequest(deps: AuthoringGitHubDeps, user: SessionUser, body: OpenPullRequestBody): Promise<OpenedPullRequest> {
  const { path, yaml } = body;
  const pathProblem = pullRequestPathProblem(path);
  if (pathProblem) throw new BadRequestError(`${path}: ${pathProblem}`, { next: 'fix', field: 'path' });
  const tryRun = body.tryRunUrl ? tryRunLink(body.tryRunUrl, deps.publicUrl) : null;
  if (tryRun && !tryRun.ok) throw new BadRequestError(`tryRunUrl: ${tryRun.problem}. Nothing was sent to GitHub.`, { next: 'fix', field: 'tryRunUrl' });
  const parsed = await parseBlueprintBounded(yaml, { file: path });
  if (!parsed.ok) {
    const first = parsed.errors[0]!;
    const more = parsed.errors.length > 1 ? ` (and ${parsed.errors.length - 1} more)` : '';
    throw new BadRequestError(`${path}:${first.line}:${first.col}: ${first.message}${more}. Fix the draft first; nothing was sent to GitHub.`, {
      next: 'fix',
      issues: parsed.errors.map((i) => ({ file: i.file, line: i.line, col: i.col, message: i.message, hint: i.hint })),
    });
  }
  await enforceRateLimit(deps.db, `author-pr:${user.id}`, AUTHOR_PULL_REQUEST_LIMIT, deps.now?.());
  const octokit = await authorOctokit(deps, user);
  const ctx = { db: deps.db, userId: user.id, now: deps.now };
  const call = <T>(what: string, fn: () => Promise<T>) => withAuthorToken(ctx, what, fn);
  const { owner, repo, branch: base } = deps.source;
  const reused: OpenedPullRequest['reused'] = [];

  // 1. where the branch goes: the repository itself when the author can push to it, else their fork (made after step 2)
  const upstream = await call(`the repository ${owner}/${repo}`, () => octokit.rest.repos.get({ owner, repo }));
  const me = (await call('your GitHub account', () => octokit.rest.users.getAuthenticated())).data.login;

  // 2. the base commit, and whether the file exists there (read before anything is made)
  const baseSha = (await call(`the branch ${owner}/${repo}@${base}`, () => octokit.rest.git.getRef({ owner, repo, ref: `heads/${base}` }))).data.object.sha;
  const existing = await fileSha(octokit, ctx, { owner, repo }, path, base);
  if (existing && !body.overwrite) {
    throw new ConflictError(`${path} already exists on ${owner}/${repo}@${base}. Choose another path, or confirm that this pull request replaces it.`, { next: 'overwrite', field: 'path' });
  }
  // a file differing only in case is the same file on a case-insensitive checkout: replacing it means writing its own path
  const twin = existing ? null : await caseTwin(octokit, ctx, { owner, repo }, path, baseSha);
  if (twin) {
    throw new ConflictError(`${path} differs only in case from ${twin}, which already exists on ${owner}/${repo}@${base}: on macOS and Windows the two are one file. To replace it, use the path ${twin}; otherwise choose another name.`, { next: 'fix', field: 'path', existingPath: twin });
  }
  let head = { owner, repo };
  if (!upstream.data.permissions?.push) head = await forkFor(deps, octokit, ctx, me, reused);
  const blobSha = gitBlobSha(yaml);

  // 3. the branch: ours when it is new, is still at the base commit, or already holds this very file
  let branch: string | null = null;
  let committed = false;
  for (let attempt = 1; attempt <= BRANCH_ATTEMPTS && !branch; attempt++) {
    const name = branchNameFor(path, yaml, attempt);
    try {
      await octokit.rest.git.createRef({ ...head, ref: `refs/heads/${name}`, sha: baseSha });
      branch = name;
    } catch (e) {
      if (statusOf(e) !== 422 || !/already exists/i.test(validationMessage(e))) throw await explain(ctx, `creating the branch ${name}`, e);
      const tip = (await call(`the branch ${name}`, () => octokit.rest.git.getRef({ ...head, ref: `heads/${name}` }))).data.object.sha;
      const there = await fileSha(octokit, ctx, head, path, name);
      if (there === blobSha) {
        branch = name;
        committed = true;
        reused.push('branch', 'commit');
      } else if (tip === baseSha) {
        branch = name;
        reused.push('branch');
      } // else: the name is taken by other work; try the next one
    }
  }
  if (!branch) throw new ConflictError(`The branch names ${branchNameFor(path, yaml)} to -${BRANCH_ATTEMPTS} are all taken in ${head.owner}/${head.repo}. Delete old assay/ branches there, or change the file name.`, { next: 'fix', field: 'path' });

  // 4. the commit
  let headSha: string;
  if (committed) {
    headSha = (await call(`the branch ${branch}`, () => octokit.rest.git.getRef({ ...head, ref: `heads/${branch}` }))).data.object.sha;
  } else {
    const put = await call(`committing ${path}`, () =>
      octokit.rest.repos.createOrUpdateFileContents({
        ...head,
        path,
        branch: branch!,
        message: `${existing ? 'Update' : 'Add'} ${path}`,
        content: Buffer.from(yaml, 'utf8').toString('base64'),
        ...(existing ? { sha: existing } : {}),
      }),
    );
    headSha = put.data.commit.sha!;
  }

  // 5. the pull request, unless one from this branch is already open
  const headLabel = `${head.owner}:${branch}`;
  const open = await call('the open pull requests', () => octokit.rest.pulls.list({ owner, repo, head: headLabel, state: 'open', per_page: 5 }));
  let pr: { number: number; html_url: string; head: { sha: string } } | undefined = open.data[0];
  if (pr) {
    reused.push('pull_request');
  } else {
    const description = pullRequestDescription(parsed.blueprint, { path, author: me, tryRunUrl: tryRun?.ok ? tryRun.url : null });
    pr = (await call('opening the pull request', () => octokit.rest.pulls.create({ owner, repo, title: pullRequestTitle(body.title), head: headLabel, base, body: description, maintainer_can_modify: true }))).data;
  }
  return { number: pr.number, url: pr.html_url, headSha: pr.head.sha || headSha, head: headLabel, forked: head.owner !== owner, reused };
}

/**
 * The author's fork: reused when it exists, else created; either way waited for until its Git
 * data is there. GitHub answers a new fork's repository at once but copies its Git objects
 * later ("Forking a Repository happens asynchronously. You may have to wait a short period of
 * time before you can access the git objects", create-fork in GitHub's REST description, npm
 * @octokit/openapi); until then its Git endpoints answer 409 "Git Repository is empty." and a
 * branch made there would fail. So the fork is ready when its default branch's ref answers.
 */
async function forkFor(
  deps: AuthoringGitHubDeps,
  octokit: Octokit,
  ctx: { db: Db; userId: string; now?: () => Date },
  me: string,
  reused: OpenedPullRequest['reused'],
): Promise<{ owner: string; repo: string }> {
  const { owner, repo } = deps.source;
  const call = <T>(what: string, fn: () => Promise<T>) => withAuthorToken(ctx, what, fn);
  const mine = await octokit.rest.repos.get({ owner: me, repo }).catch(async (e: unknown) => (statusOf(e) === 404 ? null : Promise.reject(await explain(ctx, `your fork ${me}/${repo}`, e))));
  let fork: { owner: string; repo: string; defaultBranch: string };
  if (mine?.data.fork && mine.data.parent?.full_name === `${owner}/${repo}`) {
    reused.push('fork');
    fork = { owner: me, repo, defaultBranch: mine.data.default_branch };
  } else {
    const made = (await call(`forking ${owner}/${repo}`, () => octokit.rest.repos.createFork({ owner, repo }))).data;
    fork = { owner: made.owner.login, repo: made.name, defaultBranch: made.default_branch };
  }
  const { tries, intervalMs } = deps.forkWait ?? { tries: 30, intervalMs: 1000 };
  let pause = intervalMs;
  for (let i = 0; i < tries; i++) {
    const ready = await octokit.rest.git.getRef({ owner: fork.owner, repo: fork.repo, ref: `heads/${fork.defaultBranch}` }).then(
      () => true,
      // 404: the repository itself is not there yet; 409: it is, but its Git data is still being copied
      async (e: unknown) => (statusOf(e) === 404 || statusOf(e) === 409 ? false : Promise.reject(await explain(ctx, `your fork ${fork.owner}/${fork.repo}`, e))),
    );
    if (ready) return { owner: fork.owner, repo: fork.repo };
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(pause * 1.5, 5000);
  }
  throw new UpstreamError(`GitHub is still copying your fork ${fork.owner}/${fork.repo}. Try again in a minute: the fork will be reused.`, { next: 'retry' });
}

/** A file's blob sha on a branch, or null when there is none. */
async function fileSha(octokit: Octokit, ctx: { db: Db; userId: string }, at: { owner: string; repo: string }, path: string, ref: string): Promise<string | null> {
  try {
    const { data } = await octokit.rest.repos.getContent({ ...at, path, ref });
    return !Array.isArray(data) && data.type === 'file' ? data.sha : null;
  } catch (e) {
    if (statusOf(e) === 404) return null;
    throw await explain(ctx, `${path} at ${at.owner}/${at.repo}@${ref}`, e);
  }
}

/**
 * The file on the base commit whose path differs from `path` only in case, or null. Read from
 * the commit's whole tree (git/trees, recursive); a tree too large for one answer (`truncated`)
 * is searched in `path`'s own folder only, which is where such a twin usually is.
 */
async function caseTwin(octokit: Octokit, ctx: { db: Db; userId: string; now?: () => Date }, at: { owner: string; repo: string }, path: string, commitSha: string): Promise<string | null> {
  const tree = (await withAuthorToken(ctx, `the files of ${at.owner}/${at.repo}`, () => octokit.rest.git.getTree({ ...at, tree_sha: commitSha, recursive: 'true' }))).data;
  let paths = tree.tree.filter((e) => e.type === 'blob' && e.path).map((e) => e.path!);
  if (tree.truncated) {
    const folder = path.slice(0, path.lastIndexOf('/'));
    const listing = await withAuthorToken(ctx, `${folder} at ${at.owner}/${at.repo}`, () => octokit.rest.repos.getContent({ ...at, path: folder, ref: commitSha })).catch((e: unknown) => (e instanceof NotFoundError ? null : Promise.reject(e)));
    paths = listing && Array.isArray(listing.data) ? listing.data.filter((e) => e.type === 'file').map((e) => e.path) : [];
  }
  const hit = collidingPath(path, paths);
  return hit === path ? null : hit;
}
