/**
 * What Assay's GitHub use cases need from GitHub (the consumer defines the
 * port, not the adapter). One adapter implements it over @octokit/rest (octokit-repo.ts); tests run that same
 * adapter against the fake GitHub server, so there is no second, mocked implementation.
 */

/** A tree's files; `truncated`: GitHub cut the listing short, so only the folders asked for were walked. */
export type RepoListing = RepoFile[] & { truncated?: boolean };

/** A file of the repository at a commit. */
export interface RepoFile {
  path: string;
  blobSha: string;
  /** The blob's size in bytes, as the tree listing gives it: known before anything is downloaded. */
  size?: number;
}

export interface PullRequestInfo {
  number: number;
  title: string;
  author: string;
  headSha: string;
  state: 'open' | 'closed';
  labels: string[];
}

export interface PullRequestFile {
  path: string;
  status: 'added' | 'modified' | 'removed' | 'renamed' | 'copied' | 'changed' | 'unchanged';
  blobSha: string;
}

export interface CheckAnnotation {
  path: string;
  startLine: number;
  endLine: number;
  /** Only with startLine === endLine (a GitHub rule). */
  startColumn?: number;
  endColumn?: number;
  level: 'failure' | 'warning' | 'notice';
  title: string;
  message: string;
}

export interface CheckRunResult {
  conclusion: 'success' | 'failure' | 'neutral';
  title: string;
  summary: string;
  text?: string;
  annotations: CheckAnnotation[];
}

/** A collaborator's permission; `maintain` and `triage` as GitHub's role names. */
export type RepoPermission = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';

export interface GitHubRepo {
  readonly owner: string;
  readonly repo: string;
  /**
   * Whether check runs can be made: only with a GitHub App's installation token. Without one,
   * a pull request's validation is reported by its comment alone (docs/github.md, "Token-only mode").
   */
  readonly checkRuns: boolean;
  /** The commit SHA at the tip of `branch`. */
  branchHead(branch: string): Promise<string>;
  /**
   * Every file (blob) of the tree at `commitSha`, with its blob SHA and size: one request unless
   * the tree is huge; then only the `folders` are walked (tree-listing.ts).
   */
  listFiles(commitSha: string, folders?: readonly string[]): Promise<RepoListing>;
  /** The repository at `commitSha` as one gzipped tar (GitHub's archive; repository-archive.ts reads it). */
  downloadArchive(commitSha: string): Promise<Uint8Array>;
  /** A blob's text (UTF-8). */
  readBlob(blobSha: string): Promise<string>;
  getPullRequest(number: number): Promise<PullRequestInfo>;
  listPullRequestFiles(number: number): Promise<PullRequestFile[]>;
  /** Starts a check run (status in_progress) and returns its id. */
  createCheckRun(headSha: string, name: string, detailsUrl?: string): Promise<number>;
  completeCheckRun(id: number, result: CheckRunResult): Promise<void>;
  postComment(issueNumber: number, body: string): Promise<number>;
  /** False when the comment no longer exists (deleted by someone). */
  updateComment(commentId: number, body: string): Promise<boolean>;
  permissionOf(login: string): Promise<RepoPermission>;
}

/** Write access (write, maintain or admin) is what it takes to approve spending money on a PR. */
export function canApprove(permission: RepoPermission): boolean {
  return permission === 'admin' || permission === 'maintain' || permission === 'write';
}
