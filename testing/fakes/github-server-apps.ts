/**
 * GitHub's published rules the fake GitHub server (github-server.ts) enforces about who may
 * write what, and how much: check runs only for a GitHub App, the length limits on comment,
 * pull-request and check-run text, the scopes GitHub reports for each kind of token, GitHub App
 * user tokens (no scopes, eight hours, a refresh token), and the JSON shapes of the check runs
 * and comments it answers with.
 *
 * Sources, named at each rule: GitHub's REST description (npm @octokit/openapi,
 * generated/api.github.com.json: the operations' descriptions, request `maxLength`s and response
 * schemas; github-server-apps.test.ts validates these answers against it) and the pages of
 * docs.github.com cited below.
 */
import type { FakeCheckRun } from './github-server';
import { randomBytes } from 'node:crypto';
import type { FakeReply } from './github-server-http';

/** The REST description every shape and limit here is taken from. */
export const GITHUB_REST_DESCRIPTION = '@octokit/openapi/generated/api.github.com.json';

// ───────────── who may use the Checks API ─────────────

/**
 * checks/create: "Your GitHub App must have the `checks:write` permission to create check runs";
 * checks/update: "OAuth apps and personal access tokens (classic) cannot use this endpoint".
 * What GitHub answers anything but an installation token (status and body as GitHub sends them,
 * e.g. https://github.com/actions/github-script/issues/118; documentation_url of the REST reference).
 */
export function checksRefusal(kind: 'token' | 'installation' | 'user', appUser = false): FakeReply | null {
  if (kind === 'installation' || appUser) return null;
  return { status: 403, body: { message: 'You must authenticate via a GitHub App.', documentation_url: 'https://docs.github.com/rest/checks/runs#create-a-check-run' } };
}

// ───────────── how much text GitHub accepts ─────────────

/** issues/create-comment, issues/update-comment, pulls/create: GitHub refuses a body longer than this (HTTP 422). */
export const MAX_BODY = 65_536;
/** checks/create and checks/update: `output.summary` and `output.text` have `maxLength: 65535`. */
export const MAX_CHECK_OUTPUT = 65_535;

/**
 * A 422 in the `validation-error` shape of the description (message, documentation_url, and
 * errors[] with a `code`). GitHub counts characters, not UTF-16 units: so does this.
 */
function tooLong(resource: string, field: string, max: number, length: number, documentationUrl: string): FakeReply {
  return {
    status: 422,
    body: {
      message: 'Validation Failed',
      errors: [{ resource, code: 'custom', field, message: `${field} is too long (maximum is ${max} characters, got ${length})` }],
      documentation_url: documentationUrl,
    },
  };
}

const characters = (s: string) => [...s].length;

export function commentBodyProblem(body: unknown, update: boolean): FakeReply | null {
  const docs = update ? 'https://docs.github.com/rest/issues/comments#update-an-issue-comment' : 'https://docs.github.com/rest/issues/comments#create-an-issue-comment';
  if (typeof body !== 'string' || !body) return { status: 422, body: { message: 'Validation Failed', errors: [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }], documentation_url: docs } };
  const n = characters(body);
  return n > MAX_BODY ? tooLong('IssueComment', 'body', MAX_BODY, n, docs) : null;
}

export function pullBodyProblem(body: unknown): FakeReply | null {
  if (typeof body !== 'string') return null;
  const n = characters(body);
  return n > MAX_BODY ? tooLong('PullRequest', 'body', MAX_BODY, n, 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request') : null;
}

export function checkOutputProblem(output: { summary?: unknown; text?: unknown } | undefined): FakeReply | null {
  for (const field of ['summary', 'text'] as const) {
    const value = output?.[field];
    if (typeof value === 'string' && characters(value) > MAX_CHECK_OUTPUT) {
      return tooLong('CheckRun', `output.${field}`, MAX_CHECK_OUTPUT, characters(value), 'https://docs.github.com/rest/checks/runs#update-a-check-run');
    }
  }
  return null;
}

// ───────────── scopes, as GitHub reports them ─────────────

/**
 * "X-OAuth-Scopes lists the scopes your token has authorized" — sent with every answer to an
 * OAuth app token or a personal access token (classic); a GitHub App's tokens have no scopes
 * (docs.github.com/apps/oauth-apps/building-oauth-apps/scopes-for-oauth-apps, "Scopes for OAuth apps").
 */
export function scopeHeaders(who: { kind: string; scopes?: string[]; appUser?: boolean } | null): Record<string, string> {
  if (!who || who.kind === 'installation' || who.appUser) return {};
  return { 'x-oauth-scopes': (who.scopes ?? []).join(', ') };
}

// ───────────── GitHub App user tokens ─────────────

/**
 * A GitHub App's user access token expires after eight hours and comes with a refresh token
 * valid for six months; `scope` is empty, since what the token may do is the app's permissions
 * intersected with the user's access. Refreshing (POST /login/oauth/access_token with
 * grant_type=refresh_token) answers a new pair and retires the old one; a used, unknown or
 * expired refresh token is `bad_refresh_token`.
 * (docs.github.com/apps/creating-github-apps/authenticating-with-a-github-app/refreshing-user-access-tokens
 * and …/generating-a-user-access-token-for-a-github-app.)
 */
export const USER_TOKEN_SECONDS = 28_800;
export const REFRESH_TOKEN_SECONDS = 15_811_200;

export interface AppUserGrant {
  accessToken: string;
  refreshToken: string;
  login: string;
  expiresAt: number;
  refreshExpiresAt: number;
}

export class AppUserTokens {
  private readonly byRefresh = new Map<string, AppUserGrant>();

  issue(login: string, now: number): AppUserGrant {
    const grant = {
      accessToken: `ghu_${randomBytes(18).toString('hex')}`,
      refreshToken: `ghr_${randomBytes(36).toString('hex')}`,
      login,
      expiresAt: now + USER_TOKEN_SECONDS * 1000,
      refreshExpiresAt: now + REFRESH_TOKEN_SECONDS * 1000,
    };
    this.byRefresh.set(grant.refreshToken, grant);
    return grant;
  }

  /** The new grant and the access token it retires, or null (`bad_refresh_token`). */
  refresh(refreshToken: string, now: number): { grant: AppUserGrant; retired: string } | null {
    const old = this.byRefresh.get(refreshToken);
    if (!old || old.refreshExpiresAt <= now) return null;
    this.byRefresh.delete(refreshToken);
    return { grant: this.issue(old.login, now), retired: old.accessToken };
  }

  /** GitHub's token answer (generating a user access token, "Response"). */
  static reply(g: AppUserGrant, now: number): Record<string, string | number> {
    return {
      access_token: g.accessToken,
      expires_in: Math.round((g.expiresAt - now) / 1000),
      refresh_token: g.refreshToken,
      refresh_token_expires_in: Math.round((g.refreshExpiresAt - now) / 1000),
      scope: '',
      token_type: 'bearer',
    };
  }
}

// ───────────── JSON shapes (response schemas of the description) ─────────────

/** `simple-user`: every field the schema requires. */
export function simpleUser(login: string, id: number, type: 'User' | 'Bot' = 'User') {
  const api = `https://api.github.com/users/${encodeURIComponent(login)}`;
  return {
    login,
    id,
    node_id: `U_${Buffer.from(login).toString('base64url')}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: '',
    url: api,
    html_url: `https://github.com/${encodeURIComponent(login)}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type,
    site_admin: false,
  };
}

export interface CommentShape {
  id: number;
  issueNumber: number;
  body: string;
  user: string;
  userId: number;
  createdAt: string;
  updatedAt: string;
}

/** `issue-comment` (issues/create-comment 201, issues/update-comment 200). */
export function issueCommentJson(c: CommentShape, apiBase: string, fullName: string) {
  return {
    id: c.id,
    node_id: `IC_${c.id}`,
    url: `${apiBase}/repos/${fullName}/issues/comments/${c.id}`,
    html_url: `https://github.com/${fullName}/pull/${c.issueNumber}#issuecomment-${c.id}`,
    issue_url: `${apiBase}/repos/${fullName}/issues/${c.issueNumber}`,
    body: c.body,
    user: simpleUser(c.user, c.userId, c.user.endsWith('[bot]') ? 'Bot' : 'User'),
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    author_association: 'NONE',
  };
}

/** A stored check run as the JSON renderer needs it: the fake's record, its annotations counted. */
export type CheckRunShape = Omit<FakeCheckRun, 'annotations' | 'by'> & { annotationsCount: number };

/** `check-run` (checks/create 201, checks/update 200). The `app` is nullable in the schema; the fake names none. */
export function checkRunJson(c: CheckRunShape, apiBase: string, fullName: string) {
  const url = `${apiBase}/repos/${fullName}/check-runs/${c.id}`;
  return {
    id: c.id,
    node_id: `CR_${c.id}`,
    head_sha: c.headSha,
    external_id: null,
    name: c.name,
    url,
    html_url: `https://github.com/${fullName}/runs/${c.id}`,
    details_url: c.detailsUrl ?? null,
    status: c.status,
    conclusion: c.conclusion,
    started_at: c.startedAt ?? null,
    completed_at: c.completedAt ?? null,
    output: { title: c.output.title ?? null, summary: c.output.summary ?? null, text: c.output.text ?? null, annotations_count: c.annotationsCount, annotations_url: `${url}/annotations` },
    check_suite: { id: 1 },
    app: null,
    pull_requests: [],
  };
}
