/**
 * Every GitHub REST call Assay makes, by Octokit method, with the GitHub App permission it needs
 * (docs.github.com, "Permissions required for GitHub Apps"; each method is the operation of the
 * same name in GitHub's REST description, npm @octokit/openapi). docs/github.md lists these
 * permissions for maintainers; app-permissions.test.ts checks that every `octokit.rest.*` call
 * in the code is listed here, and that the doc names exactly these permissions.
 */

/** With the App's installation token (GITHUB_APP_*): sync, pull-request validation, approval, results (octokit-repo.ts). */
export const INSTALLATION_CALLS = {
  'repos.getBranch': 'contents: read',
  'git.getTree': 'contents: read',
  'git.getBlob': 'contents: read',
  'repos.downloadTarballArchive': 'contents: read', // a first sync's files in one request (repository-archive.ts)
  'pulls.get': 'pull_requests: read',
  'pulls.listFiles': 'pull_requests: read',
  'checks.create': 'checks: write',
  'checks.update': 'checks: write',
  'issues.createComment': 'issues: write',
  'issues.updateComment': 'issues: write',
  'repos.getCollaboratorPermissionLevel': 'metadata: read',
} as const;

/**
 * With an author's own user token ("Connect GitHub", lib/server/authoring): opening a pull
 * request from their fork or a branch, and the panel's status. With an OAuth app these need the
 * `public_repo` scope; with a GitHub App, these permissions (and the app installed where the
 * branch is pushed).
 */
export const AUTHOR_CALLS = {
  'users.getAuthenticated': null, // the signed-in user: no repository permission
  'repos.get': 'metadata: read',
  'repos.createFork': 'administration: write',
  'git.getRef': 'contents: read',
  'git.createRef': 'contents: write',
  'repos.getContent': 'contents: read',
  'git.getTree': 'contents: read', // the base commit's files, to find a path differing only in case
  'repos.createOrUpdateFileContents': 'contents: write',
  'pulls.list': 'pull_requests: read',
  'pulls.create': 'pull_requests: write',
  'pulls.get': 'pull_requests: read',
  'checks.listForRef': 'checks: read',
} as const;

/** The strongest level of each permission a table asks for (`write` covers `read`), e.g. `checks: write`. */
export function permissionsOf(calls: Record<string, string | null>): string[] {
  const level = new Map<string, string>();
  for (const p of Object.values(calls)) {
    if (!p) continue;
    const [name, access] = p.split(': ') as [string, string];
    if (level.get(name) !== 'write') level.set(name, access);
  }
  return [...level].map(([name, access]) => `${name}: ${access}`).sort();
}

/** Webhook events Assay acts on (lib/server/github/webhooks/receive-webhook.ts); `ping` needs no subscription. */
export const WEBHOOK_EVENTS = ['push', 'pull_request', 'issue_comment'] as const;
