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

let modeLogged = false;

export function configuredGitHub(config: Env): ConfiguredGitHub | null {
  const gh = githubConfig(config);
  if (!gh) return null;
  // check runs need a GitHub App; with GITHUB_TOKEN alone, pull requests are validated by comment only
  const checkRuns = gh.auth.kind === 'app';
  if (!checkRuns && !modeLogged) {
    modeLogged = true;
    console.warn(`assay: ${gh.auth.kind === 'token' ? 'GITHUB_TOKEN without a GitHub App' : 'no GitHub credentials'}: pull requests of ${gh.owner}/${gh.repo} are checked by comment only, without check runs (docs/github.md, "Token-only mode").`);
  }
  return { repo: octokitRepo(createOctokit(gh), gh.owner, gh.repo, { checkRuns }), source: { owner: gh.owner, repo: gh.repo, branch: gh.branch } };
}
