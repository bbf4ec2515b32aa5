/**
 * Part of the composition root: the configured GitHub repository as the GitHub use cases
 * receive it (an Octokit adapter of the GitHubRepo port, with a token or a GitHub App, and the
 * source it names), or null when no repository is configured. The app (platform.ts) and a
 * CLI command build it with this one function.
 */
import type { Env } from '../env';
import { githubConfig, type GitHubSource } from '../github/config';
import { createOctokit, octokitRepo } from '../github/octokit-repo';
import type { GitHubRepo } from '../github/port';

export interface ConfiguredGitHub {
  repo: GitHubRepo;
  source: GitHubSource;
}

export function configuredGitHub(config: Env): ConfiguredGitHub | null {
  const gh = githubConfig(config);
  return gh ? { repo: octokitRepo(createOctokit(gh), gh.owner, gh.repo), source: { owner: gh.owner, repo: gh.repo, branch: gh.branch } } : null;
}
