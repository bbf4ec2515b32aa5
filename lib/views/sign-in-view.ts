/**
 * Which ways of signing in this server offers, and, for each one it does not, the sentence that
 * says which settings turn it on. The admin sign-in page and the author's workspace render only
 * what can work: a link or field that leads to a "not configured" error is a dead end.
 * The setting names are those of lib/server/env.ts, explained in docs/github.md.
 */

/** Which of the settings are set (never their values). */
export interface SignInSettings {
  GITHUB_OAUTH_CLIENT_ID: boolean;
  GITHUB_OAUTH_CLIENT_SECRET: boolean;
  ASSAY_ADMIN_TOKEN: boolean;
  ASSAY_TOKEN_KEY: boolean;
  GITHUB_REPOSITORY: boolean;
}

type Setting = keyof SignInSettings;

const DOCS = 'docs/github.md, “Sign-in and Connect GitHub”';

function unset(s: SignInSettings, names: readonly Setting[]): Setting[] {
  return names.filter((n) => !s[n]);
}

/** "A", "A and B", "A, B and C". */
function listed(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The settings "Sign in with GitHub" still needs (both halves of the OAuth client); empty when it works. */
export function gitHubSignInMissing(s: SignInSettings): Setting[] {
  return unset(s, ['GITHUB_OAUTH_CLIENT_ID', 'GITHUB_OAUTH_CLIENT_SECRET']);
}

/** The settings "Connect GitHub" (to open pull requests) still needs: sign-in, the key its tokens are kept under, the repository. */
export function gitHubConnectMissing(s: SignInSettings): Setting[] {
  return unset(s, ['GITHUB_OAUTH_CLIENT_ID', 'GITHUB_OAUTH_CLIENT_SECRET', 'ASSAY_TOKEN_KEY', 'GITHUB_REPOSITORY']);
}

export interface AdminSignInView {
  /** Offer "Sign in with GitHub". */
  github: boolean;
  /** Offer the admin-token form. */
  token: boolean;
  /** Said when neither is configured: nothing on the page can sign anyone in. */
  unavailable: string | null;
  /** Said beside the one way that is configured: how to turn the other on. */
  alsoPossible: string | null;
}

export function adminSignInView(s: SignInSettings): AdminSignInView {
  const githubMissing = gitHubSignInMissing(s);
  const github = githubMissing.length === 0;
  const token = s.ASSAY_ADMIN_TOKEN;
  return {
    github,
    token,
    unavailable:
      github || token
        ? null
        : `No way to sign in is configured on this server. Set ASSAY_ADMIN_TOKEN (at least 24 characters) to sign in with a token, or ${listed(githubMissing)} to sign in with GitHub (${DOCS}), then restart Assay.`,
    alsoPossible: github && !token ? 'Signing in with a token is off: set ASSAY_ADMIN_TOKEN (at least 24 characters) to turn it on.' : token && !github ? `Signing in with GitHub is off: set ${listed(githubMissing)} to turn it on (${DOCS}).` : null,
  };
}

export interface AuthorSignInView {
  /** Offer "Sign in with GitHub" (Try it, drafts kept in the account). */
  signIn: boolean;
  /** The sign-in link, coming back to the workspace as it was opened (its example, copy or draft); null when not offered. */
  signInHref: string | null;
  /** Why signing in is not offered, naming the settings; null when it is. */
  signInUnavailable: string | null;
  /** Offer "Connect GitHub" (open a pull request). */
  connect: boolean;
  /** Why connecting is not offered, naming the settings; null when it is. */
  connectUnavailable: string | null;
}

/** `returnTo`: the workspace's own address (`/author?example=…`), where signing in comes back to. */
export function authorSignInView(s: SignInSettings, returnTo = '/author'): AuthorSignInView {
  const signInMissing = gitHubSignInMissing(s);
  const connectMissing = gitHubConnectMissing(s);
  return {
    signIn: signInMissing.length === 0,
    signInHref: signInMissing.length === 0 ? `/api/auth/github?returnTo=${encodeURIComponent(returnTo)}` : null,
    signInUnavailable:
      signInMissing.length === 0
        ? null
        : `Trying a draft on models needs you signed in, and signing in needs GitHub sign-in configured on this server: set ${listed(signInMissing)} (${DOCS}). “Check a reply” above works without it.`,
    connect: connectMissing.length === 0,
    connectUnavailable: connectMissing.length === 0 ? null : `Opening a pull request from here needs GitHub configured on this server: set ${listed(connectMissing)} (${DOCS}).`,
  };
}
