/** The blueprint_sources row of the configured repository, created on first use. */
import type { Db } from '../db/client';
import { sourceKey, type GitHubSource } from './config';

export async function ensureGitHubSource(db: Db, src: GitHubSource) {
  const key = sourceKey(src);
  return db.blueprintSource.upsert({
    where: { key },
    create: { key, kind: 'github', owner: src.owner, repo: src.repo, branch: src.branch },
    update: {},
  });
}
