/**
 * The SourceReader over the configured GitHub repository (through the GitHubRepo port, whose
 * adapter is Octokit): the revision is the branch head, the listing is the tree at that commit
 * (one request) with each file's blob SHA, so the sync reads only the blobs that changed.
 * Blueprints are the .yml/.yaml/.json files under `blueprints/` (ids relative to it, as Weval
 * gives them); model collections are `models/*.json`; every other file is left out.
 */
import type { SourceFile, SourceIdentity, SourceReader } from '../blueprints/sync-source';
import { sourceKey, type GitHubSource } from './config';
import { RateLimitedError } from '../http/errors';
import type { GitHubRepo, RepoListing } from './port';
import { blobsFromArchive } from './repository-archive';
import { ASSAY_FOLDERS, blueprintIdOf, isBlueprintPath, isCollectionPath } from './paths';

/** The repository's identity as a blueprint source (`github:owner/repo@branch`). */
export function repositorySource(src: GitHubSource): SourceIdentity {
  return { kind: 'github', key: sourceKey(src), owner: src.owner, repo: src.repo, branch: src.branch };
}

/** Fewer changed files than this are read blob by blob; more come from the repository's archive in one request. */
export const ARCHIVE_MIN_FILES = 20;
/** A repository whose files add up to more than this is never downloaded whole. */
export const ARCHIVE_MAX_BYTES = 100 * 1024 * 1024;

export function repositoryReader(gh: GitHubRepo, src: GitHubSource): SourceReader {
  // the whole tree of the last listing, by path: a retrieval blueprint's data files are read from it
  let tree: { commitSha: string; blobs: Map<string, string>; truncated: boolean; bytes: number } | null = null;
  // texts taken from the archive, by blob SHA
  const prefetched = new Map<string, string>();
  const remember = (commitSha: string, listed: RepoListing) => {
    tree = { commitSha, blobs: new Map(listed.map((f) => [f.path, f.blobSha])), truncated: !!listed.truncated, bytes: listed.reduce((n, f) => n + (f.size ?? Infinity), 0) };
    return tree;
  };
  return {
    describe: () => repositorySource(src),
    revision: () => gh.branchHead(src.branch),
    async list(commitSha) {
      if (commitSha === null) throw new Error('A repository is listed at a commit: read its revision first.');
      const files: SourceFile[] = [];
      const listed = await gh.listFiles(commitSha, ASSAY_FOLDERS);
      remember(commitSha, listed);
      for (const { path, blobSha } of listed) {
        if (isBlueprintPath(path)) files.push({ kind: 'blueprint', path, blobSha, blueprintId: blueprintIdOf(path) });
        else if (isCollectionPath(path)) files.push({ kind: 'collection', path, blobSha, name: path.slice('models/'.length, -'.json'.length) });
      }
      return files;
    },
    async prefetch(files, commitSha) {
      // one archive instead of many blobs, unless the repository is too big to download whole
      if (commitSha === null || files.length < ARCHIVE_MIN_FILES || tree?.commitSha !== commitSha || tree.truncated || tree.bytes > ARCHIVE_MAX_BYTES) return;
      const wanted = new Map(files.flatMap((f) => (f.blobSha ? [[f.path, f.blobSha] as const] : [])));
      try {
        for (const [sha, text] of await blobsFromArchive(await gh.downloadArchive(commitSha), wanted)) prefetched.set(sha, text);
      } catch (e) {
        if (e instanceof RateLimitedError) throw e; // reading blob by blob would meet the same limit
        console.warn(`assay: the archive of ${src.owner}/${src.repo} could not be read (${(e as Error).message}); reading the files one by one`);
      }
    },
    async read(file) {
      if (file.blobSha === null) throw new Error(`${file.path} was not listed from the repository (it has no blob SHA).`);
      return prefetched.get(file.blobSha) ?? gh.readBlob(file.blobSha);
    },
    async readPath(path, commitSha) {
      if (commitSha === null) throw new Error('A repository file is read at a commit: read its revision first.');
      const at = tree?.commitSha === commitSha ? tree : remember(commitSha, await gh.listFiles(commitSha, ASSAY_FOLDERS));
      const blobSha = at.blobs.get(path);
      if (!blobSha) throw new Error(`${path} is not in the repository at ${commitSha.slice(0, 7)}`);
      return gh.readBlob(blobSha);
    },
  };
}
