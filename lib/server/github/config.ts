/**
 * The GitHub side of the configuration, derived once from the environment: which repository
 * and branch hold the blueprints, how to authenticate, and the pull-request policy.
 */
import type { Env } from '../env';
import { NotConfiguredError } from '../http/errors';

export type GitHubAuth =
  | { kind: 'token'; token: string }
  | { kind: 'app'; appId: string; privateKey: string; installationId: number }
  | { kind: 'none' };

export interface GitHubSource {
  owner: string;
  repo: string;
  branch: string;
}

export interface GitHubConfig extends GitHubSource {
  apiUrl: string;
  auth: GitHubAuth;
}

export interface PullRequestPolicy {
  approvalLabel: string;
  /** The comment that approves a run, from a user with write permission. */
  command: string;
  /** Explicit models for PR runs; empty: the blueprint's own, cut to budget.maxModels. */
  models: string[];
  /** Per blueprint run; `maxSandboxSeconds` is the sandbox time (`$js`, sandboxed regexes) it may use. */
  budget: { maxModels: number; maxPrompts: number; maxCalls: number; maxCostUsd: number; maxSandboxSeconds: number };
  maxBlueprints: number;
  publicUrl: string;
}

export const RUN_COMMAND = '/assay run';

/** The configured repository, or null when blueprints come from the local folder. */
export function githubConfig(env: Env): GitHubConfig | null {
  if (!env.GITHUB_REPOSITORY) return null;
  const [owner, repo] = env.GITHUB_REPOSITORY.split('/') as [string, string];
  return { owner, repo, branch: env.GITHUB_BRANCH, apiUrl: env.GITHUB_API_URL, auth: githubAuth(env) };
}

export function githubAuth(env: Env): GitHubAuth {
  if (env.GITHUB_APP_ID || env.GITHUB_APP_PRIVATE_KEY || env.GITHUB_APP_INSTALLATION_ID) {
    if (!env.GITHUB_APP_ID || !env.GITHUB_APP_PRIVATE_KEY || !env.GITHUB_APP_INSTALLATION_ID) {
      throw new NotConfiguredError('A GitHub App needs all three of GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY and GITHUB_APP_INSTALLATION_ID.');
    }
    // a PEM in an environment variable usually arrives with its newlines escaped
    const privateKey = env.GITHUB_APP_PRIVATE_KEY.replace(/\\n/g, '\n');
    return { kind: 'app', appId: env.GITHUB_APP_ID, privateKey, installationId: env.GITHUB_APP_INSTALLATION_ID };
  }
  return env.GITHUB_TOKEN ? { kind: 'token', token: env.GITHUB_TOKEN } : { kind: 'none' };
}

export function pullRequestPolicy(env: Env): PullRequestPolicy {
  return {
    approvalLabel: env.ASSAY_PR_APPROVAL_LABEL,
    command: RUN_COMMAND,
    models: (env.ASSAY_PR_MODELS ?? '').split(',').map((m) => m.trim()).filter(Boolean),
    budget: {
      maxModels: env.ASSAY_PR_MAX_MODELS,
      maxPrompts: env.ASSAY_PR_MAX_PROMPTS,
      maxCalls: env.ASSAY_PR_MAX_CALLS,
      maxCostUsd: env.ASSAY_PR_MAX_COST_USD,
      maxSandboxSeconds: env.ASSAY_PR_MAX_SANDBOX_SECONDS,
    },
    maxBlueprints: env.ASSAY_PR_MAX_BLUEPRINTS,
    publicUrl: env.ASSAY_PUBLIC_URL.replace(/\/$/, ''),
  };
}

/** The key of a repository source in blueprint_sources. */
export function sourceKey(s: GitHubSource): string {
  return `github:${s.owner}/${s.repo}@${s.branch}`;
}
