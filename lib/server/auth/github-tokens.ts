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

export async function storeGitHubToken(db: Db, key: Buffer, userId: string, token: string, scopes: string): Promise<void> {
  const ciphertext = encryptToken(key, userId, token);
  await db.gitHubToken.upsert({ where: { userId }, create: { userId, ciphertext, scopes }, update: { ciphertext, scopes } });
}

/** The user's token if it can open pull requests; null when there is none, it lacks the scope, or it no longer decrypts. */
export async function gitHubTokenOf(db: Db, key: Buffer, userId: string): Promise<string | null> {
  const row = await db.gitHubToken.findUnique({ where: { userId } });
  if (!row || !allowsPullRequests(row.scopes)) return null;
  return decryptToken(key, userId, row.ciphertext);
}

export async function hasGitHubConnection(db: Db, userId: string): Promise<boolean> {
  const row = await db.gitHubToken.findUnique({ where: { userId }, select: { scopes: true } });
  return !!row && allowsPullRequests(row.scopes);
}

export async function forgetGitHubToken(db: Db, userId: string): Promise<void> {
  await db.gitHubToken.deleteMany({ where: { userId } });
}
