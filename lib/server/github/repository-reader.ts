/**
 * The SourceReader over the configured GitHub repository (through the GitHubRepo port, whose
 * adapter is Octokit): the revision is the branch head, the listing is the tree at that commit
 * (one request) with each file's blob SHA, so the sync reads only the blobs that changed.
 * Blueprints are the .yml/.yaml/.json files under `blueprints/` (ids relative to it, as Weval
 * gives them); model collections are `models/*.json`; every other file is left out.
 */
import type { SourceFile, SourceIdentity, SourceReader } from '../blueprints/sync-source';
import { sourceKey, type GitHubSource } from './config';
import type { GitHubRepo } from './port';
import { blueprintIdOf, isBlueprintPath, isCollectionPath } from './paths';

/** The repository's identity as a blueprint source (`github:owner/repo@branch`). */
export function repositorySource(src: GitHubSource): SourceIdentity {
  return { kind: 'github', key: sourceKey(src), owner: src.owner, repo: src.repo, branch: src.branch };
}

export function repositoryReader(gh: GitHubRepo, src: GitHubSource): SourceReader {
  // the whole tree of the last listing, by path: a retrieval blueprint's data files are read from it
  let tree: { commitSha: string; blobs: Map<string, string> } | null = null;
  return {
    describe: () => repositorySource(src),
    revision: () => gh.branchHead(src.branch),
    async list(commitSha) {
      if (commitSha === null) throw new Error('A repository is listed at a commit: read its revision first.');
      const files: SourceFile[] = [];
      const listed = await gh.listFiles(commitSha);
      tree = { commitSha, blobs: new Map(listed.map((f) => [f.path, f.blobSha])) };
      for (const { path, blobSha } of listed) {
        if (isBlueprintPath(path)) files.push({ kind: 'blueprint', path, blobSha, blueprintId: blueprintIdOf(path) });
        else if (isCollectionPath(path)) files.push({ kind: 'collection', path, blobSha, name: path.slice('models/'.length, -'.json'.length) });
      }
      return files;
    },
    read(file) {
      if (file.blobSha === null) throw new Error(`${file.path} was not listed from the repository (it has no blob SHA).`);
      return gh.readBlob(file.blobSha);
    },
    async readPath(path, commitSha) {
      if (commitSha === null) throw new Error('A repository file is read at a commit: read its revision first.');
      if (tree?.commitSha !== commitSha) tree = { commitSha, blobs: new Map((await gh.listFiles(commitSha)).map((f) => [f.path, f.blobSha])) };
      const blobSha = tree.blobs.get(path);
      if (!blobSha) throw new Error(`${path} is not in the repository at ${commitSha.slice(0, 7)}`);
      return gh.readBlob(blobSha);
    },
  };
}
