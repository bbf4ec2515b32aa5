/**
 * GitHub App authentication without a dependency: a short-lived RS256 JWT signed with the
 * app's private key is exchanged for an installation token (valid one hour), which is cached
 * and renewed five minutes before it expires.
 */
import { createSign } from 'node:crypto';
import { UpstreamError } from '../http/errors';

export function appJwt(appId: string, privateKey: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const enc = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  // iat 60 s in the past tolerates clock drift; GitHub refuses an exp more than 10 minutes ahead
  const unsigned = `${enc({ alg: 'RS256', typ: 'JWT' })}.${enc({ iat: nowSeconds - 60, exp: nowSeconds + 540, iss: appId })}`;
  const signature = createSign('RSA-SHA256').update(unsigned).sign(privateKey).toString('base64url');
  return `${unsigned}.${signature}`;
}

export interface InstallationTokens {
  token(): Promise<string>;
}

export function installationTokens(apiUrl: string, appId: string, privateKey: string, installationId: number, fetchImpl: typeof fetch = fetch): InstallationTokens {
  let cached: { token: string; expiresAt: number } | null = null;
  let pending: Promise<string> | null = null;
  const mint = async (): Promise<string> => {
    const res = await fetchImpl(`${apiUrl.replace(/\/$/, '')}/app/installations/${installationId}/access_tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${appJwt(appId, privateKey)}`, accept: 'application/vnd.github+json', 'user-agent': 'assay' },
    });
    if (!res.ok) {
      throw new UpstreamError(`GitHub refused the app's token request (HTTP ${res.status}); check GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY and GITHUB_APP_INSTALLATION_ID.`);
    }
    const body = (await res.json()) as { token: string; expires_at: string };
    cached = { token: body.token, expiresAt: Date.parse(body.expires_at) };
    return body.token;
  };
  return {
    async token() {
      if (cached && cached.expiresAt - Date.now() > 5 * 60_000) return cached.token;
      // one request at a time: concurrent callers share the token being minted
      pending ??= mint().finally(() => (pending = null));
      return pending;
    },
  };
}
