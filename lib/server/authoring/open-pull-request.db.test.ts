/**
 * Opening a pull request with the author's own token, against the fake GitHub over real HTTP:
 * the token comes from the real connect flow (OAuth with public_repo) and is stored encrypted;
 * the fake records every call, so each test asserts exactly what was forked, branched,
 * committed (path and bytes) and opened — and, for each failure, that nothing was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { branchNameFor } from '@/lib/core';
import { FakeGitHub } from '@/testing/fakes/github-server';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { finishOAuth, startOAuth, type OAuthConfig } from '../auth/github-oauth';
import { decryptToken, storeGitHubToken, tokenKey } from '../auth/github-tokens';
import { hitRateLimit } from '../auth/rate-limit';
import { createSession, SESSION_COOKIE, type SessionUser } from '../auth/sessions';
import { signOut } from '../auth/sign-out';
import { AppError, BadRequestError, ConflictError, RateLimitedError, UnauthorizedError, UpstreamError } from '../http/errors';
import { AUTHOR_CALL_LIMITS, AUTHOR_PULL_REQUEST_LIMIT, gitBlobSha, openPullRequest, type AuthoringGitHubDeps } from './open-pull-request';
import { pullRequestStatus } from './pull-request-status';

const GOOD = `title: Greetings
description: Says hello politely
models: [openai:gpt-4o-mini]
---
- id: hi
  prompt: Say hello
  should:
    - $icontains: hello
    - Is polite
- id: bye
  prompt: Say goodbye
  should:
    - $icontains: bye
`;
const EXISTING = GOOD.replace('Greetings', 'Existing greetings');
const PATH = 'blueprints/community/greetings.yml';
const KEY = tokenKey('0f'.repeat(32));

let t: TestDatabase;
let gh: FakeGitHub;
let oauth: OAuthConfig;
let deps: AuthoringGitHubDeps;

beforeAll(async () => {
  [t, gh] = await Promise.all([
    freshDatabase(),
    FakeGitHub.start({ files: { 'README.md': '# blueprints', 'blueprints/existing.yml': EXISTING }, oauth: { clientId: 'c1', clientSecret: 's1' } }),
  ]);
  oauth = { clientId: 'c1', clientSecret: 's1', oauthUrl: gh.url, apiUrl: gh.url, publicUrl: 'http://assay.test', maintainerLogins: [] };
  deps = { db: t.db, apiUrl: gh.url, source: { owner: gh.owner, repo: gh.repo, branch: gh.branch }, tokenKey: KEY, publicUrl: 'http://assay.test', forkWait: { tries: 5, intervalMs: 10 }, callLimits: { ...AUTHOR_CALL_LIMITS, writeSpacingMs: 0 } };
  gh.setPermission('maria', 'write');
});
afterAll(async () => {
  await Promise.all([t?.close(), gh?.close()]);
});

/** The real connect flow (OAuth asking for public_repo) as `login`; stores the token as the callback does. */
async function connect(login: string): Promise<SessionUser> {
  const { location, state } = startOAuth(oauth, 'connect');
  expect(new URL(location).searchParams.get('scope')).toBe('read:user public_repo');
  gh.browserUser = login;
  const back = new URL((await fetch(location, { redirect: 'manual' })).headers.get('location')!);
  expect(back.pathname).toBe('/api/auth/github/callback/connect');
  const s = await finishOAuth(t.db, oauth, { code: back.searchParams.get('code')!, state, expectedState: state, clientAddress: `10.0.0.${login.length}` }, fetch, 'connect');
  expect(s.github.scopes).toBe('read:user,public_repo');
  await storeGitHubToken(t.db, KEY, s.userId, s.github);
  return { id: s.userId, githubLogin: login, role: 'reader' };
}

/** The writes since request `n`, paths decoded (Octokit sends a file path's slashes as %2F). */
const writesSince = (n: number) => gh.requests.slice(n).filter((r) => r.method !== 'GET').map((r) => ({ ...r, path: decodeURIComponent(r.path) }));
const fileAt = (sha: string, path: string) => {
  const blob = gh.git.commits.get(sha)?.files.get(path);
  return blob ? gh.git.blobs.get(blob)!.toString('utf8') : null;
};
const body = (o: Partial<{ yaml: string; path: string; title: string; overwrite: boolean; tryRunUrl: string | null }> = {}) => ({ yaml: GOOD, path: PATH, title: 'Add greetings', overwrite: false, tryRunUrl: null, ...o });

async function failure(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(() => null, (x: unknown) => x);
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe(`opening a pull request with the author's token (${process.env.ASSAY_TEST_DB})`, () => {
  it('keeps the token encrypted, bound to its user', async () => {
    const amy = await connect('amy');
    const row = await t.db.gitHubToken.findUniqueOrThrow({ where: { userId: amy.id } });
    expect(row.ciphertext).not.toMatch(/gho_/);
    expect(row.scopes).toBe('read:user,public_repo');
    const token = decryptToken(KEY, amy.id, row.ciphertext);
    expect(token).toMatch(/^gho_[0-9a-f]{32}$/);
    expect(decryptToken(KEY, 'another-user', row.ciphertext)).toBeNull();
    expect(decryptToken(tokenKey('1e'.repeat(32)), amy.id, row.ciphertext)).toBeNull();
  });

  it('forks when the author cannot push, waits for the fork, branches, commits the exact file and opens the PR; a retry reuses all of it', async () => {
    const amy = await connect('amy');
    const before = gh.requests.length;
    const pr = await openPullRequest(deps, amy, body({ tryRunUrl: '/runs/run-123' }));
    const branch = branchNameFor(PATH, GOOD);
    expect(branch).toMatch(/^assay\/greetings-[0-9a-f]{8}$/);
    expect(pr).toMatchObject({ forked: true, head: `amy:${branch}`, reused: [] });
    // a first-time author: no fork yet (404), one is made, and its Git data, which GitHub copies after
    // answering, is waited for (the fake answers "Git Repository is empty." twice) before the branch is made
    expect(gh.forks.has('amy')).toBe(true);
    expect(gh.requests.slice(before).filter((r) => r.method === 'GET' && r.path === '/repos/amy/configs').map((r) => r.status)).toEqual([404]);
    const forkRef = (r: { path: string }) => decodeURIComponent(r.path) === '/repos/amy/configs/git/ref/heads/main';
    expect(gh.requests.slice(before).filter(forkRef).map((r) => r.status)).toEqual([409, 409, 200]);
    expect(gh.forkGit.emptyAnswers.filter(forkRef).map((a) => a.status)).toEqual([409, 409]);
    const writes = writesSince(before);
    expect(writes.map((w) => `${w.method} ${w.path}`)).toEqual([
      'POST /repos/weval-org/configs/forks',
      'POST /repos/amy/configs/git/refs',
      `PUT /repos/amy/configs/contents/${PATH}`,
      'POST /repos/weval-org/configs/pulls',
    ]);
    expect(writes[1]!.body).toEqual({ ref: `refs/heads/${branch}`, sha: gh.head().sha });
    const put = writes[2]!.body as { content: string; branch: string; message: string; sha?: string };
    expect(Buffer.from(put.content, 'base64').toString('utf8')).toBe(GOOD);
    expect(put).toMatchObject({ branch, message: `Add ${PATH}` });
    expect(put.sha).toBeUndefined();
    expect(writes.every((w) => w.by === 'amy')).toBe(true);
    // what GitHub now holds: the file, byte for byte, on the fork's branch, and the pull request
    expect(fileAt(pr.headSha, PATH)).toBe(GOOD);
    const pull = gh.pulls.get(pr.number)!;
    expect(pull).toMatchObject({ title: 'Add greetings', author: 'amy', headOwner: 'amy', headRef: branch, baseRef: 'main', headSha: pr.headSha });
    expect(pull.body).toContain('### Blueprint `Greetings`');
    expect(pull.body).toContain('Says hello politely');
    expect(pull.body).toContain('2 prompts, 3 points');
    expect(pull.body).toContain('[the draft\'s run](http://assay.test/runs/run-123)');
    expect(pr.url).toBe(`https://github.com/weval-org/configs/pull/${pr.number}`);

    // the same draft again (e.g. the browser lost the answer): nothing new is made
    const again = gh.requests.length;
    const retry = await openPullRequest(deps, amy, body());
    expect(retry).toMatchObject({ number: pr.number, headSha: pr.headSha, reused: ['fork', 'branch', 'commit', 'pull_request'] });
    expect(writesSince(again).map((w) => `${w.method} ${w.path} ${w.status}`)).toEqual(['POST /repos/amy/configs/git/refs 422']);
  });

  it('waits out a secondary rate limit in the middle of the flow, and says "rate limit", not "connect again", when the wait is too long', async () => {
    const fay = await connect('fay');
    // GitHub's secondary limit on the branch write, with a short retry-after: waited out, the pull request opens
    gh.limits.triggerSecondary({ when: (method, path) => method === 'POST' && path === '/repos/fay/configs/git/refs', retryAfter: 1 });
    const before = gh.requests.length;
    const pr = await openPullRequest(deps, fay, body({ path: 'blueprints/fay.yml' }));
    expect(gh.pulls.get(pr.number)).toMatchObject({ author: 'fay', headOwner: 'fay' });
    expect(gh.requests.slice(before).filter((r) => r.path === '/repos/fay/configs/git/refs').map((r) => r.status)).toEqual([403, 201]);

    // a retry-after longer than an author should wait: a rate limit with its time, never "lacks public_repo"
    gh.limits.triggerSecondary({ when: (method, path) => method === 'POST' && path.endsWith('/pulls'), retryAfter: 600 });
    const now = new Date();
    const e = await failure(openPullRequest({ ...deps, now: () => now }, fay, body({ path: 'blueprints/fay-2.yml' })));
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e.message).toContain("GitHub's secondary rate limit");
    expect(e.details).toMatchObject({ next: 'wait' });
    expect((e as RateLimitedError).retryAfterSeconds).toBe(600);
    // and a retry later resumes: the branch and commit already made are reused
    const later = await openPullRequest(deps, fay, body({ path: 'blueprints/fay-2.yml' }));
    expect(later.reused).toEqual(['fork', 'branch', 'commit']);
  });

  it("gives up waiting for a fork's Git data after a bounded wait, saying retry; the retry reuses the fork", async () => {
    const gus = await connect('gus');
    gh.forkGit.gitDelayRequests = 6; // GitHub is slow to copy this one
    try {
      const e = await failure(openPullRequest({ ...deps, forkWait: { tries: 3, intervalMs: 10 } }, gus, body({ path: 'blueprints/gus.yml' })));
      expect(e).toBeInstanceOf(UpstreamError);
      expect(e.message).toBe('GitHub is still copying your fork gus/configs. Try again in a minute: the fork will be reused.');
      expect(e.details).toMatchObject({ next: 'retry' });
      expect(gh.requests.filter((r) => r.by === 'gus' && r.method === 'POST' && r.path.endsWith('/git/refs'))).toEqual([]); // no branch was tried on the empty fork
    } finally {
      gh.forkGit.gitDelayRequests = 2;
    }
    const pr = await openPullRequest(deps, gus, body({ path: 'blueprints/gus.yml' }));
    expect(pr).toMatchObject({ forked: true, reused: ['fork'] });
    expect(gh.requests.filter((r) => r.by === 'gus' && r.method === 'POST' && r.path.endsWith('/forks'))).toHaveLength(1);
  });

  it('branches in the repository itself when the author can push to it', async () => {
    const maria = await connect('maria');
    const yaml = GOOD.replace('Say goodbye', 'Say farewell');
    const before = gh.requests.length;
    const pr = await openPullRequest(deps, maria, body({ yaml, path: 'blueprints/maria.yaml' }));
    expect(pr).toMatchObject({ forked: false, head: `weval-org:${branchNameFor('blueprints/maria.yaml', yaml)}` });
    expect(writesSince(before).map((w) => `${w.method} ${w.path}`)).toEqual(['POST /repos/weval-org/configs/git/refs', 'PUT /repos/weval-org/configs/contents/blueprints/maria.yaml', 'POST /repos/weval-org/configs/pulls']);
    expect(gh.forks.has('maria')).toBe(false);
    expect(fileAt(gh.git.branches.get(branchNameFor('blueprints/maria.yaml', yaml))!, 'blueprints/maria.yaml')).toBe(yaml);
  });

  it('takes the next branch name when the name is taken by other work', async () => {
    const amy = await connect('amy');
    const yaml = GOOD.replace('Say hello', 'Say hi');
    const path = 'blueprints/taken.yml';
    const taken = branchNameFor(path, yaml);
    gh.git.commit(`amy/${taken}`, { 'notes.txt': 'unrelated work' }, 'wip', 'amy', gh.head().sha);
    const pr = await openPullRequest(deps, amy, body({ yaml, path }));
    expect(pr.head).toBe(`amy:${taken}-2`);
    expect(fileAt(pr.headSha, path)).toBe(yaml);
    expect(fileAt(gh.git.branches.get(`amy/${taken}`)!, path)).toBeNull(); // the other work is untouched
  });

  it('refuses to overwrite an existing file unless the author says so', async () => {
    const amy = await connect('amy');
    const yaml = GOOD.replace('Greetings', 'Better greetings');
    const before = gh.requests.length;
    const e = await failure(openPullRequest(deps, amy, body({ yaml, path: 'blueprints/existing.yml' })));
    expect(e).toBeInstanceOf(ConflictError);
    expect(e.message).toBe('blueprints/existing.yml already exists on weval-org/configs@main. Choose another path, or confirm that this pull request replaces it.');
    expect(e.details).toMatchObject({ next: 'overwrite' });
    expect(writesSince(before)).toEqual([]);

    const pr = await openPullRequest(deps, amy, body({ yaml, path: 'blueprints/existing.yml', overwrite: true }));
    const put = writesSince(before).find((w) => w.method === 'PUT')!.body as { sha?: string; message: string };
    expect(put).toMatchObject({ sha: gitBlobSha(EXISTING), message: 'Update blueprints/existing.yml' });
    expect(fileAt(pr.headSha, 'blueprints/existing.yml')).toBe(yaml);
    expect(fileAt(gh.head().sha, 'blueprints/existing.yml')).toBe(EXISTING); // the base branch is GitHub's to merge
  });

  it('treats a path differing only in case from an existing file as a collision, and refuses it even when told to overwrite', async () => {
    const cas = await connect('casefolded');
    const yaml = GOOD.replace('Greetings', 'Shouting greetings');
    for (const path of ['blueprints/Existing.yml', 'blueprints/EXISTING.yml']) {
      for (const overwrite of [false, true]) {
        const before = gh.requests.length;
        const e = await failure(openPullRequest(deps, cas, body({ yaml, path, overwrite })));
        expect(e).toBeInstanceOf(ConflictError);
        expect(e.message).toBe(`${path} differs only in case from blueprints/existing.yml, which already exists on weval-org/configs@main: on macOS and Windows the two are one file. To replace it, use the path blueprints/existing.yml; otherwise choose another name.`);
        expect(e.details).toMatchObject({ next: 'fix', field: 'path', existingPath: 'blueprints/existing.yml' });
        expect(writesSince(before)).toEqual([]);
      }
    }
  });

  it('shows what the author wrote as text in the description and title, and links a try-it run only on this site', async () => {
    const dot = await connect('markdown-mo');
    const yaml = `title: "Greet @octocat <img src=x onerror=alert(1)>"\ndescription: "See [docs](https://evil.example) and ping @octocat, fixes #1"\n---\n- id: hi\n  prompt: Say hello\n  should: [$icontains: hello]\n`;
    const before = gh.requests.length;
    const off = await failure(openPullRequest(deps, dot, body({ yaml, path: 'blueprints/dot.yml', tryRunUrl: 'https://evil.example/runs/r1' })));
    expect(off).toBeInstanceOf(BadRequestError);
    expect(off.message).toBe('tryRunUrl: the try-it run must be a page of this site (http://assay.test), not https://evil.example. Nothing was sent to GitHub.');
    expect(gh.requests.length).toBe(before);

    const pr = await openPullRequest(deps, dot, body({ yaml, path: 'blueprints/dot.yml', title: 'Ping @octocat\nnow', tryRunUrl: '/runs/r(1)' }));
    const pull = gh.pulls.get(pr.number)!;
    expect(pull.title).toBe('Ping @\u200boctocat now');
    expect(pull.body).toContain('### Blueprint `Greet @octocat <img src=x onerror=alert(1)>`');
    expect(pull.body).toContain('```text\nSee [docs](https://evil.example) and ping @octocat, fixes #1\n```');
    expect(pull.body).toContain("[the draft's run](http://assay.test/runs/r%281%29)");
    // outside code, the only link is the run's and the only mention the author's own
    const outside = (pull.body ?? '').replace(/```text\n[\s\S]*?\n```/g, '').replace(/`[^`\n]*`/g, '');
    expect(outside.match(/https?:\/\/[^\s)]+/g)).toEqual(['http://assay.test/runs/r%281%29']);
    expect(outside.match(/@[\w-]+/g)).toEqual(['@markdown-mo']);
  });

  it('validates the path and the draft before anything reaches GitHub', async () => {
    const amy = await connect('amy');
    const before = gh.requests.length;
    for (const path of ['docs/x.yml', 'blueprints/../x.yml', 'blueprints/x.json', 'blueprints//x.yml']) {
      const e = await failure(openPullRequest(deps, amy, body({ path })));
      expect(e, path).toBeInstanceOf(BadRequestError);
      expect(e.message.startsWith(`${path}: `), e.message).toBe(true);
    }
    const broken = GOOD.replace('$icontains: bye', '$no_such_function: bye');
    const e = await failure(openPullRequest(deps, amy, body({ yaml: broken })));
    expect(e).toBeInstanceOf(BadRequestError);
    expect(e.message).toMatch(/^blueprints\/community\/greetings\.yml:13:7: /);
    expect(e.details).toMatchObject({ next: 'fix', issues: [{ line: 13, col: 7 }] });
    expect(gh.requests.length).toBe(before);
  });

  it("says when GitHub's rate limit resets, and a revoked token means connect again", async () => {
    const bo = await connect('bo');
    const now = new Date();
    gh.rateLimitedUntil = Math.floor(now.getTime() / 1000) + 120;
    try {
      const e = await failure(openPullRequest({ ...deps, now: () => now }, bo, body({ path: 'blueprints/bo.yml' })));
      expect(e).toBeInstanceOf(RateLimitedError);
      expect((e as RateLimitedError).retryAfterSeconds).toBe(120);
      expect(e.message).toContain(`until ${new Date(gh.rateLimitedUntil * 1000).toISOString().slice(11, 19)} UTC (in 120 s)`);
      expect(e.details).toMatchObject({ next: 'wait' });
    } finally {
      gh.rateLimitedUntil = null;
    }
    expect(gh.forks.has('bo')).toBe(false);

    gh.revokeTokensOf('bo');
    const e = await failure(openPullRequest(deps, bo, body({ path: 'blueprints/bo.yml' })));
    expect(e).toBeInstanceOf(UnauthorizedError);
    expect(e.details).toMatchObject({ next: 'connect' });
    expect(await t.db.gitHubToken.findUnique({ where: { userId: bo.id } })).toBeNull();
    // connecting again resumes: the pull request opens
    const pr = await openPullRequest(deps, await connect('bo'), body({ path: 'blueprints/bo.yml' }));
    expect(gh.pulls.get(pr.number)?.author).toBe('bo');
  });

  it('needs a connection, and limits each author to 10 pull requests an hour', async () => {
    const cy = { id: (await t.db.user.create({ data: { githubLogin: 'cy' } })).id, githubLogin: 'cy', role: 'reader' as const };
    const e = await failure(openPullRequest(deps, cy, body()));
    expect(e).toBeInstanceOf(UnauthorizedError);
    expect(e.details).toMatchObject({ next: 'connect' });

    const dee = await connect('dee');
    for (let i = 0; i < AUTHOR_PULL_REQUEST_LIMIT.limit; i++) await hitRateLimit(t.db, `author-pr:${dee.id}`, AUTHOR_PULL_REQUEST_LIMIT);
    const before = gh.requests.length;
    expect(await failure(openPullRequest(deps, dee, body()))).toBeInstanceOf(RateLimitedError);
    expect(gh.requests.length).toBe(before);
  });

  it("reports the pull request's checks until they are final", async () => {
    const amy = await connect('amy');
    const pr = await openPullRequest(deps, amy, body({ path: 'blueprints/status.yml', yaml: GOOD.replace('Say hello', 'Say hey') }));
    const pending = await pullRequestStatus(deps, amy, pr.number);
    expect(pending).toMatchObject({ number: pr.number, state: 'open', headSha: pr.headSha, assayState: null, checks: [], final: false });
    gh.checkRuns.push({ id: 9001, name: 'Assay: blueprint validation', headSha: pr.headSha, status: 'completed', conclusion: 'success', output: { title: 'Every file is valid', summary: '1 blueprint' }, annotations: [], by: 'assay-bot' });
    const done = await pullRequestStatus(deps, amy, pr.number);
    expect(done.checks).toEqual([{ name: 'Assay: blueprint validation', status: 'completed', conclusion: 'success', summary: '1 blueprint', detailsUrl: null }]);
    expect(done.final).toBe(true);
  });

  it('deletes the token on sign-out, and a cross-site sign-out deletes nothing', async () => {
    const eve = await connect('eve');
    const { token } = await createSession(t.db, eve.id);
    const request = (origin: string) => new Request('http://assay.test/api/auth/sign-out', { method: 'POST', headers: { origin, cookie: `${SESSION_COOKIE}=${token}` } });
    await expect(signOut(t.db, request('https://evil.example'), 'http://assay.test')).rejects.toThrow(/cannot act/);
    expect(await t.db.gitHubToken.findUnique({ where: { userId: eve.id } })).not.toBeNull();
    await signOut(t.db, request('http://assay.test'), 'http://assay.test');
    expect(await t.db.gitHubToken.findUnique({ where: { userId: eve.id } })).toBeNull();
  });
});
