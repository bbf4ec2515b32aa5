/**
 * Authors' own GitHub tokens, kept server-side only: encrypted with AES-256-GCM under
 * ASSAY_TOKEN_KEY (a random 96-bit IV per token; the user id is the additional authenticated
 * data, so a ciphertext copied onto another user's row does not decrypt), one row per user,
 * deleted on sign-out and as soon as GitHub says the token no longer works. No function here
 * returns a token to anything that renders: only the pull-request use case reads it.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Db } from '../db/client';
import { NotConfiguredError } from '../http/errors';
import type { GitHubGrant } from './github-oauth';

/** What opening a pull request needs GitHub to have granted (see docs/authoring.md, "Opening a pull request"). */
export const PULL_REQUEST_SCOPES = ['public_repo'] as const;

export function tokenKey(configured: string | undefined): Buffer {
  if (!configured) throw new NotConfiguredError('Connecting GitHub is not configured: set ASSAY_TOKEN_KEY (openssl rand -hex 32) to encrypt authors\' tokens.');
  return /^[0-9a-f]{64}$/i.test(configured) ? Buffer.from(configured, 'hex') : Buffer.from(configured, 'base64');
}

export function encryptToken(key: Buffer, userId: string, token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(userId));
  const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** The token, or null when the ciphertext does not open under this key and user (a rotated key, a tampered row). */
export function decryptToken(key: Buffer, userId: string, ciphertext: string): string | null {
  const [v, iv, tag, body] = ciphertext.split('.');
  if (v !== 'v1' || !iv || !tag || !body) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url')).setAAD(Buffer.from(userId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** Whether GitHub's granted scopes (comma- or space-separated) allow opening pull requests on a public repository. */
export function allowsPullRequests(scopes: string): boolean {
  const granted = scopes.split(/[\s,]+/);
  return granted.includes('public_repo') || granted.includes('repo');
}

/**
 * Whether a stored token may open pull requests: an OAuth app's by its scopes; a GitHub App's
 * user token has none (`scope: ""`) — what it may do is the app's permissions (contents and pull
 * requests: write, docs/github.md) within the user's own access, which GitHub checks on each call.
 */
function mayOpenPullRequests(row: { kind: string; scopes: string }): boolean {
  return row.kind === 'github-app' || allowsPullRequests(row.scopes);
}

export async function storeGitHubToken(db: Db, key: Buffer, userId: string, grant: GitHubGrant): Promise<void> {
  const data = {
    ciphertext: encryptToken(key, userId, grant.token),
    scopes: grant.scopes,
    kind: grant.kind,
    refreshCiphertext: grant.refreshToken ? encryptToken(key, userId, grant.refreshToken) : null,
    expiresAt: grant.expiresAt ?? null,
    refreshExpiresAt: grant.refreshExpiresAt ?? null,
  };
  await db.gitHubToken.upsert({ where: { userId }, create: { userId, ...data }, update: data });
}

/** Renews a GitHub App's expiring user token: the app's OAuth client, and GitHub's answer (tests pass the fake's). */
export interface TokenRefresher {
  refresh(refreshToken: string, now: Date): Promise<GitHubGrant | null>;
}

/** A token this close to its expiry is renewed first, so it does not lapse in the middle of opening a pull request. */
const RENEW_BEFORE_MS = 5 * 60_000;

/**
 * The user's token if it can open pull requests; null when there is none, it lacks the scope, it
 * no longer decrypts, or it expired and cannot be renewed (then it is deleted, so the author is
 * asked to connect again rather than sent to GitHub with a dead token). A GitHub App's user token
 * near its expiry is renewed with its refresh token first (`refresher`).
 */
export async function gitHubTokenOf(db: Db, key: Buffer, userId: string, refresher?: TokenRefresher, now: Date = new Date()): Promise<string | null> {
  const row = await db.gitHubToken.findUnique({ where: { userId } });
  if (!row || !mayOpenPullRequests(row)) return null;
  if (!row.expiresAt || row.expiresAt.getTime() - RENEW_BEFORE_MS > now.getTime()) return decryptToken(key, userId, row.ciphertext);

  const refreshToken = row.refreshCiphertext ? decryptToken(key, userId, row.refreshCiphertext) : null;
  if (refresher && refreshToken && (!row.refreshExpiresAt || row.refreshExpiresAt > now)) {
    const grant = await refresher.refresh(refreshToken, now);
    if (grant) {
      await storeGitHubToken(db, key, userId, grant);
      return grant.token;
    }
    // refused: another request may have renewed it meanwhile (a refresh token works once)
    const current = await db.gitHubToken.findUnique({ where: { userId } });
    if (current && current.ciphertext !== row.ciphertext && current.expiresAt && current.expiresAt > now) return decryptToken(key, userId, current.ciphertext);
  } else if (row.expiresAt > now) {
    return decryptToken(key, userId, row.ciphertext); // not renewable here, but good for a few minutes more
  }
  await forgetGitHubToken(db, userId);
  return null;
}

/** Connected: a token that may open pull requests and is still valid, or can be renewed. */
export async function hasGitHubConnection(db: Db, userId: string, now: Date = new Date()): Promise<boolean> {
  const row = await db.gitHubToken.findUnique({ where: { userId }, select: { scopes: true, kind: true, expiresAt: true, refreshCiphertext: true, refreshExpiresAt: true } });
  if (!row || !mayOpenPullRequests(row)) return false;
  if (!row.expiresAt || row.expiresAt > now) return true;
  return !!row.refreshCiphertext && (!row.refreshExpiresAt || row.refreshExpiresAt > now);
}

export async function forgetGitHubToken(db: Db, userId: string): Promise<void> {
  await db.gitHubToken.deleteMany({ where: { userId } });
}
