/**
 * A new fork's Git data arrives after the fork itself. GitHub's "Create a fork" answers 202 with
 * the new repository at once, and says "Forking a Repository happens asynchronously. You may
 * have to wait a short period of time before you can access the git objects" (POST
 * /repos/{owner}/{repo}/forks in GitHub's REST description, npm @octokit/openapi,
 * generated/api.github.com.json). Until then the fork is an empty repository, and GitHub answers
 * an empty repository's Git database endpoints with 409 "Git Repository is empty." (the 409 of
 * GET /git/ref, POST /git/refs, GET /git/trees, /git/blobs, /git/commits in that description;
 * the message as GitHub sends it), its contents with 404 "This repository is empty.", and has
 * no branches (404 "Branch not found").
 *
 * The fake keeps a fork's Git data back for its first `gitDelayRequests` requests to those
 * endpoints: a client that waits for the data (polls a ref) gets through; one that takes the
 * repository's answer as "ready" meets the 409.
 */
import type { FakeReply, FakeRequest } from './github-server-http';

const GIT_DATA = /^\/repos\/([^/]+)\/([^/]+)\/(git\/|contents\/|branches\/|commits\/)/;

export class ForkGitData {
  /** How many requests to a new fork's Git data are answered as for an empty repository. */
  gitDelayRequests = 2;
  /** Requests answered "empty", in order (what a test asserts a client waited through). */
  readonly emptyAnswers: { method: string; path: string; status: number }[] = [];
  private readonly pending = new Map<string, number>();

  /** A fork of `login` was just created: its Git data is not there yet. */
  created(login: string): void {
    if (this.gitDelayRequests > 0) this.pending.set(login, this.gitDelayRequests);
  }

  /** GitHub's answer for an empty repository while `owner`'s fork is still being copied, else null. */
  refuse(req: FakeRequest): FakeReply | null {
    const m = GIT_DATA.exec(req.path);
    const left = m ? this.pending.get(decodeURIComponent(m[1]!)) : undefined;
    if (!m || left === undefined) return null;
    if (left <= 1) this.pending.delete(decodeURIComponent(m[1]!));
    else this.pending.set(decodeURIComponent(m[1]!), left - 1);
    const reply: FakeReply =
      m[3] === 'contents/' && req.method === 'GET'
        ? { status: 404, body: { message: 'This repository is empty.', documentation_url: 'https://docs.github.com/rest/repos/contents#get-repository-content' } }
        : m[3] === 'branches/'
          ? { status: 404, body: { message: 'Branch not found', documentation_url: 'https://docs.github.com/rest/branches/branches#get-a-branch' } }
          : { status: 409, body: { message: 'Git Repository is empty.', documentation_url: 'https://docs.github.com/rest/git/refs' } };
    this.emptyAnswers.push({ method: req.method, path: req.path, status: reply.status });
    return reply;
  }
}
