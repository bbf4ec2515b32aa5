/**
 * Part of the composition root: the settings pages and routes read about the site itself,
 * as functions (read on first use, not at import, so `next build` needs no configuration).
 * Small on purpose: a page importing these does not pull in the rest of the wiring.
 */
import { env } from '../env';

/** Cookies get `Secure` when the public URL is https. */
export function secureCookies(): boolean {
  return publicUrl().startsWith('https:');
}

/** Where this site is reached (ASSAY_PUBLIC_URL): links in PR comments, the Origin check of sign-out. */
export function publicUrl(): string {
  return env().ASSAY_PUBLIC_URL;
}

/** The admin token (ASSAY_ADMIN_TOKEN) the sign-in form compares with; undefined: token sign-in is off. */
export function adminToken(): string | undefined {
  return env().ASSAY_ADMIN_TOKEN;
}

/** Whether "Sign in with GitHub" is offered: both halves of the OAuth client are set (with one, GitHub sends the browser back to an error). */
export function githubSignInOffered(): boolean {
  return Boolean(env().GITHUB_OAUTH_CLIENT_ID && env().GITHUB_OAUTH_CLIENT_SECRET);
}

/**
 * Which sign-in settings are set (never their values), for the pages that offer signing in
 * (lib/views/sign-in-view.ts turns it into what to show and which settings to name).
 */
export function signInSettings() {
  const c = env();
  return {
    GITHUB_OAUTH_CLIENT_ID: Boolean(c.GITHUB_OAUTH_CLIENT_ID),
    GITHUB_OAUTH_CLIENT_SECRET: Boolean(c.GITHUB_OAUTH_CLIENT_SECRET),
    ASSAY_ADMIN_TOKEN: Boolean(c.ASSAY_ADMIN_TOKEN),
    ASSAY_TOKEN_KEY: Boolean(c.ASSAY_TOKEN_KEY),
    GITHUB_REPOSITORY: Boolean(c.GITHUB_REPOSITORY),
  };
}

/** How much one reviewer may answer a minute and a day. */
export function reviewLimits(): { perMinute: number; perDay: number } {
  return { perMinute: env().ASSAY_REVIEW_PER_MINUTE, perDay: env().ASSAY_REVIEW_PER_DAY };
}

/** The share of a blueprint's prompts a model must have answered to count on the leaderboard. */
export function leaderboardMinCoverage(): number {
  return env().ASSAY_LEADERBOARD_MIN_COVERAGE;
}
