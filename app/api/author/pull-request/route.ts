/**
 * POST: open a pull request with the draft (the author's own GitHub token; CSRF: same origin).
 * GET ?number: that pull request's check status, for the panel to poll.
 */
import { z } from 'zod';
import { OpenedPullRequestSchema, OpenPullRequestBodySchema, PullRequestStatusSchema } from '@/lib/core';
import { route } from '@/lib/server/http';
import { openPullRequest } from '@/lib/server/authoring/open-pull-request';
import { pullRequestStatus } from '@/lib/server/authoring/pull-request-status';
import { authenticateAuthor, authoringGitHubDeps } from '@/lib/server/compose/authoring';

export const dynamic = 'force-dynamic';

export const POST = route(
  { authenticate: authenticateAuthor, body: OpenPullRequestBodySchema, response: OpenedPullRequestSchema, status: 201, headers: { 'cache-control': 'no-store' } },
  async ({ principal, body }) => openPullRequest(authoringGitHubDeps(), principal, body),
);

export const GET = route(
  { authenticate: authenticateAuthor, query: z.object({ number: z.coerce.number().int().positive() }), response: PullRequestStatusSchema, headers: { 'cache-control': 'no-store' } },
  async ({ principal, query }) => pullRequestStatus(authoringGitHubDeps(), principal, query.number),
);
