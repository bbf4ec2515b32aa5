/**
 * A repository's files at a commit from GitHub's Git trees API, in as few requests as it
 * allows. One recursive request lists the whole tree with each blob's SHA and size; GitHub cuts
 * that listing short (`truncated: true`) past 100,000 entries or 7 MB ("Get a tree",
 * https://docs.github.com/en/rest/git/trees#get-a-tree, and GitHub's REST description in npm
 * @octokit/openapi), and then the way on is one non-recursive request per sub-tree. Walking the
 * whole repository that way costs a request per directory, so only the folders the caller
 * reads are walked (for Assay, `blueprints/` and `models/`: paths.ts), each first asked for
 * recursively in one request of its own.
 */
import type { RepoFile, RepoListing } from './port';

export interface TreeEntry {
  path?: string;
  type?: string;
  sha?: string;
  size?: number;
}

/** GET /repos/{owner}/{repo}/git/trees/{sha}[?recursive=1], as the adapter calls it. */
export type GetTree = (treeSha: string, recursive: boolean) => Promise<{ sha: string; truncated: boolean; tree: TreeEntry[] }>;

/**
 * Every file at `commitSha` when the recursive listing is whole; when it is truncated, the
 * files under `folders` (top-level folder names with a trailing slash, e.g. `blueprints/`),
 * or under the whole tree when no folders are given.
 */
export async function listTree(getTree: GetTree, commitSha: string, folders?: readonly string[]): Promise<RepoListing> {
  const whole = await getTree(commitSha, true);
  if (!whole.truncated) return blobsOf(whole.tree, '');
  if (!folders) return Object.assign(await walk(getTree, whole.sha, ''), { truncated: true });
  const root = await getTree(whole.sha, false);
  const files: RepoFile[] = [];
  for (const folder of folders) {
    const name = folder.replace(/\/$/, '');
    const entry = root.tree.find((e) => e.type === 'tree' && e.path === name);
    if (!entry?.sha) continue; // the repository has no such folder
    const sub = await getTree(entry.sha, true);
    files.push(...(sub.truncated ? await walk(getTree, entry.sha, name) : blobsOf(sub.tree, name)));
  }
  return Object.assign(files, { truncated: true });
}

function blobsOf(tree: TreeEntry[], prefix: string): RepoFile[] {
  return tree.filter((e) => e.type === 'blob').map((e) => ({ path: prefix ? `${prefix}/${e.path}` : e.path!, blobSha: e.sha!, ...(e.size !== undefined ? { size: e.size } : {}) }));
}

/** One request per directory: what a truncated listing leaves as the only way. */
async function walk(getTree: GetTree, treeSha: string, prefix: string): Promise<RepoFile[]> {
  const { tree } = await getTree(treeSha, false);
  const files = blobsOf(tree, prefix);
  for (const e of tree) if (e.type === 'tree') files.push(...(await walk(getTree, e.sha!, prefix ? `${prefix}/${e.path}` : e.path!)));
  return files;
}
