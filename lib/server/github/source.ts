/** The blueprint_sources row of the configured repository, created on first use. */
import type { Db } from '../db/client';
import { ensureSource } from '../blueprints/sync-source';
import type { GitHubSource } from './config';
import { repositorySource } from './repository-reader';

export function ensureGitHubSource(db: Db, src: GitHubSource) {
  return ensureSource(db, repositorySource(src));
}
