import { describe, expect, it } from 'vitest';
import { adminSignInView, authorSignInView, type SignInSettings } from './sign-in-view';

const NOTHING: SignInSettings = { GITHUB_OAUTH_CLIENT_ID: false, GITHUB_OAUTH_CLIENT_SECRET: false, ASSAY_ADMIN_TOKEN: false, ASSAY_TOKEN_KEY: false, GITHUB_REPOSITORY: false };
const OAUTH = { GITHUB_OAUTH_CLIENT_ID: true, GITHUB_OAUTH_CLIENT_SECRET: true };

describe('the admin sign-in page offers only what is configured', () => {
  it('with nothing configured: no field, no button, a sentence naming the settings', () => {
    expect(adminSignInView(NOTHING)).toEqual({
      github: false,
      token: false,
      unavailable:
        'No way to sign in is configured on this server. Set ASSAY_ADMIN_TOKEN (at least 24 characters) to sign in with a token, or GITHUB_OAUTH_CLIENT_ID and GITHUB_OAUTH_CLIENT_SECRET to sign in with GitHub (docs/github.md, “Sign-in and Connect GitHub”), then restart Assay.',
      alsoPossible: null,
    });
  });

  it('with only the admin token: the token field, and how to turn GitHub on', () => {
    const v = adminSignInView({ ...NOTHING, ASSAY_ADMIN_TOKEN: true, GITHUB_OAUTH_CLIENT_ID: true });
    expect(v).toMatchObject({ github: false, token: true, unavailable: null });
    // half an OAuth client is no GitHub sign-in: the half still missing is named
    expect(v.alsoPossible).toBe('Signing in with GitHub is off: set GITHUB_OAUTH_CLIENT_SECRET to turn it on (docs/github.md, “Sign-in and Connect GitHub”).');
  });

  it('with only GitHub: the button and no token field', () => {
    expect(adminSignInView({ ...NOTHING, ...OAUTH })).toEqual({
      github: true,
      token: false,
      unavailable: null,
      alsoPossible: 'Signing in with a token is off: set ASSAY_ADMIN_TOKEN (at least 24 characters) to turn it on.',
    });
  });

  it('with both: both, and nothing to explain', () => {
    expect(adminSignInView({ ...NOTHING, ...OAUTH, ASSAY_ADMIN_TOKEN: true })).toEqual({ github: true, token: true, unavailable: null, alsoPossible: null });
  });
});

describe("the author's workspace offers signing in and connecting only when they can work", () => {
  it('without GitHub sign-in: says so in a sentence naming the settings, and offers neither', () => {
    const v = authorSignInView(NOTHING, '/author?example=pasta.yml');
    expect(v.signIn).toBe(false);
    expect(v.signInHref).toBeNull();
    expect(v.signInUnavailable).toBe(
      'Trying a draft on models needs you signed in, and signing in needs GitHub sign-in configured on this server: set GITHUB_OAUTH_CLIENT_ID and GITHUB_OAUTH_CLIENT_SECRET (docs/github.md, “Sign-in and Connect GitHub”). “Check a reply” above works without it.',
    );
    expect(v.connect).toBe(false);
    expect(v.connectUnavailable).toBe(
      'Opening a pull request from here needs GitHub configured on this server: set GITHUB_OAUTH_CLIENT_ID, GITHUB_OAUTH_CLIENT_SECRET, ASSAY_TOKEN_KEY and GITHUB_REPOSITORY (docs/github.md, “Sign-in and Connect GitHub”).',
    );
  });

  it('with sign-in but no token key: signing in works, connecting names the key', () => {
    expect(authorSignInView({ ...NOTHING, ...OAUTH, GITHUB_REPOSITORY: true }, '/author?example=pasta.yml')).toEqual({
      signIn: true,
      // back to the same example once signed in, not to the admin area
      signInHref: '/api/auth/github?returnTo=%2Fauthor%3Fexample%3Dpasta.yml',
      signInUnavailable: null,
      connect: false,
      connectUnavailable: 'Opening a pull request from here needs GitHub configured on this server: set ASSAY_TOKEN_KEY (docs/github.md, “Sign-in and Connect GitHub”).',
    });
  });

  it('with everything: both offered', () => {
    expect(authorSignInView({ ...OAUTH, ASSAY_ADMIN_TOKEN: false, ASSAY_TOKEN_KEY: true, GITHUB_REPOSITORY: true })).toEqual({ signIn: true, signInHref: '/api/auth/github?returnTo=%2Fauthor', signInUnavailable: null, connect: true, connectUnavailable: null });
  });
});
