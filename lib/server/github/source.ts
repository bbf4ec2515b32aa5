/** The blueprint_sources row of the configured repository, created on first use. */
import type { Db } from '../db/client';
import { sourceKey, type GitHubSource } from './config';
import { retryOnUniqueViolation } from '../db/unique-retry';

export async function ensureGitHubSource(db: Db, src: GitHubSource) {
  const key = sourceKey(src);
  // two workers (a webhook and the start-up sync) may create it at once
  return retryOnUniqueViolation(() => db.blueprintSource.upsert({
    where: { key },
    create: { key, kind: 'github', owner: src.owner, repo: src.repo, branch: src.branch },
    update: {},
  }));
}
