/**
 * The fake GitHub's answers for the endpoints whose rules github-server-apps.ts holds, checked
 * against GitHub's own REST description (npm @octokit/openapi, generated/api.github.com.json):
 * each response body is validated with Ajv against the schema the description gives for that
 * operation and status, and the fake's limits are read from the description's `maxLength`s.
 * The token answers of github.com/login/oauth are not in the description: they are checked
 * against the fields docs.github.com lists ("Refreshing user access tokens").
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { generateKeyPairSync } from 'node:crypto';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { Octokit } from '@octokit/rest';
import { createAppAuth } from '@octokit/auth-app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGitHub } from './github-server';
import { MAX_BODY, MAX_CHECK_OUTPUT, REFRESH_TOKEN_SECONDS, USER_TOKEN_SECONDS } from './github-server-apps';

const require = createRequire(import.meta.url);
type Doc = { paths: Record<string, Record<string, { operationId: string; description: string; requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> }; responses: Record<string, unknown> }>> };
const doc = JSON.parse(readFileSync(require.resolve('@octokit/openapi/generated/api.github.com.json'), 'utf8')) as Doc & Record<string, unknown>;

/**
 * OpenAPI 3.0's `nullable: true` allows null also where the schema has an `enum` (GitHub answers
 * `conclusion: null` for a check run in progress); Ajv reads an enum literally, so null is added to it.
 */
function nullableEnums(node: unknown): void {
  if (!node || typeof node !== 'object') return;
  const s = node as { nullable?: boolean; enum?: unknown[] };
  if (s.nullable === true && Array.isArray(s.enum) && !s.enum.includes(null)) s.enum.push(null);
  for (const v of Object.values(node)) nullableEnums(v);
}
nullableEnums(doc);

// the description is added whole under an id; each operation's response schema is compiled by JSON pointer, its $refs resolved inside it
const ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(doc, 'api');
const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
function responseSchema(path: string, method: string, status: number) {
  // a response is often a $ref to components/responses: the schema is found where it points
  const response = doc.paths[path]?.[method]?.responses[String(status)] as { $ref?: string } | undefined;
  const where = response?.$ref ? response.$ref.slice(2) : pointer('paths', path, method, 'responses', String(status));
  const validate = ajv.getSchema(`api#/${where}/${pointer('content', 'application/json', 'schema')}`);
  if (!validate) throw new Error(`the description has no ${status} JSON response for ${method.toUpperCase()} ${path}`);
  return validate;
}
const componentSchema = (name: string) => ajv.getSchema(`api#/components/schemas/${name}`)!;

function expectValid(validate: ReturnType<typeof responseSchema>, body: unknown) {
  const ok = validate(body);
  expect(ok ? [] : validate.errors).toEqual([]);
}

const CHECK_RUNS = '/repos/{owner}/{repo}/check-runs';
const CHECK_RUN = '/repos/{owner}/{repo}/check-runs/{check_run_id}';
const COMMENTS = '/repos/{owner}/{repo}/issues/{issue_number}/comments';
const COMMENT = '/repos/{owner}/{repo}/issues/comments/{comment_id}';
const PULLS = '/repos/{owner}/{repo}/pulls';

let fake: FakeGitHub;
let app: Octokit;
let pat: Octokit;
let number: number;
let headSha: string;

beforeAll(async () => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  fake = await FakeGitHub.start({
    token: 'ghp_classic',
    tokenScopes: ['repo', 'read:org'],
    app: { appId: '9', installationId: 5, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() },
    oauth: { clientId: 'Iv1.client', clientSecret: 'secret', githubApp: true },
    files: { 'README.md': '# r' },
  });
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  app = new Octokit({ baseUrl: fake.url, authStrategy: createAppAuth, auth: { appId: '9', installationId: 5, privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() }, log: quiet });
  pat = new Octokit({ baseUrl: fake.url, auth: 'ghp_classic', log: quiet });
  ({ number, headSha } = await fake.openPullRequest({ author: 'eve', title: 'A change', changes: { 'blueprints/a.yml': 'title: A\n' } }));
});
afterAll(async () => fake?.close());

const failure = async (p: Promise<unknown>) => {
  const e = (await p.then(() => null, (x: unknown) => x)) as { status: number; response: { data: unknown; headers: Record<string, string> } } | null;
  if (!e) throw new Error('the request succeeded');
  return e;
};
const at = () => ({ owner: fake.owner, repo: fake.repo });

describe('the fake GitHub against GitHub\'s REST description', () => {
  it('takes its limits from the description', () => {
    const output = (doc.paths[CHECK_RUNS]!.post!.requestBody!.content['application/json']!.schema.properties.output as { properties: Record<string, { maxLength: number }> }).properties;
    expect([output.summary!.maxLength, output.text!.maxLength]).toEqual([MAX_CHECK_OUTPUT, MAX_CHECK_OUTPUT]);
    expect(doc.paths[CHECK_RUN]!.patch!.description).toContain('OAuth apps and personal access tokens (classic) cannot use this endpoint');
    expect(MAX_BODY).toBe(65_536);
    // the validators do check: a body missing what the schema requires fails
    expect(responseSchema(CHECK_RUNS, 'post', 201)({ id: 1 })).toBe(false);
    expect(responseSchema(COMMENTS, 'post', 201)({ id: 1, body: 'x' })).toBe(false);
  });

  it('makes and completes check runs for a GitHub App, in the check-run shape', async () => {
    const created = await app.rest.checks.create({ ...at(), name: 'c', head_sha: headSha, status: 'in_progress' });
    expect(created.status).toBe(201);
    expectValid(responseSchema(CHECK_RUNS, 'post', 201), created.data);
    const done = await app.rest.checks.update({ ...at(), check_run_id: created.data.id, status: 'completed', conclusion: 'failure', output: { title: 't', summary: 's'.repeat(MAX_CHECK_OUTPUT) } });
    expectValid(responseSchema(CHECK_RUN, 'patch', 200), done.data);
    expect(done.data).toMatchObject({ status: 'completed', conclusion: 'failure', completed_at: expect.any(String) });
  });

  it('refuses check runs to a personal access token with GitHub\'s 403, and output over 65,535 characters with a 422', async () => {
    const refused = await failure(pat.rest.checks.create({ ...at(), name: 'c', head_sha: headSha }));
    expect(refused.status).toBe(403);
    expect(refused.response.data).toEqual({ message: 'You must authenticate via a GitHub App.', documentation_url: 'https://docs.github.com/rest/checks/runs#create-a-check-run' });
    expectValid(componentSchema('basic-error'), refused.response.data);
    const { data: run } = await app.rest.checks.create({ ...at(), name: 'c', head_sha: headSha });
    expect((await failure(pat.rest.checks.update({ ...at(), check_run_id: run.id, conclusion: 'success' }))).status).toBe(403);
    for (const output of [{ title: 't', summary: 'x'.repeat(MAX_CHECK_OUTPUT + 1) }, { title: 't', summary: 's', text: '€'.repeat(MAX_CHECK_OUTPUT + 1) }]) {
      const tooLong = await failure(app.rest.checks.update({ ...at(), check_run_id: run.id, output }));
      expect(tooLong.status).toBe(422);
      expectValid(componentSchema('validation-error'), tooLong.response.data);
    }
  });

  it('posts and edits comments in the issue-comment shape, and refuses bodies over 65,536 characters on both', async () => {
    const { data: c } = await pat.rest.issues.createComment({ ...at(), issue_number: number, body: 'x'.repeat(MAX_BODY) });
    expectValid(responseSchema(COMMENTS, 'post', 201), c);
    const edited = await pat.rest.issues.updateComment({ ...at(), comment_id: c.id, body: 'shorter' });
    expectValid(responseSchema(COMMENT, 'patch', 200), edited.data);
    const onPost = await failure(pat.rest.issues.createComment({ ...at(), issue_number: number, body: 'x'.repeat(MAX_BODY + 1) }));
    expect(onPost.status).toBe(422);
    expectValid(responseSchema(COMMENTS, 'post', 422), onPost.response.data);
    const onPatch = await failure(pat.rest.issues.updateComment({ ...at(), comment_id: c.id, body: 'x'.repeat(MAX_BODY + 1) }));
    expect(onPatch.status).toBe(422);
    expectValid(responseSchema(COMMENT, 'patch', 422), onPatch.response.data);
    expect(fake.comments.find((x) => x.id === c.id)!.body).toBe('shorter'); // the refused edit changed nothing
  });

  it('refuses a pull request body over 65,536 characters', async () => {
    await fake.commit({ 'x.txt': 'x' }, 'a branch', { branch: 'long-body' });
    const refused = await failure(pat.rest.pulls.create({ ...at(), title: 'Long', head: 'long-body', base: fake.branch, body: 'b'.repeat(MAX_BODY + 1) }));
    expect(refused.status).toBe(422);
    expectValid(responseSchema(PULLS, 'post', 422), refused.response.data);
  });

  it('reports a classic token\'s scopes in X-OAuth-Scopes, and none for a GitHub App', async () => {
    const classic = await pat.rest.pulls.get({ ...at(), pull_number: number });
    expect(classic.headers['x-oauth-scopes']).toBe('repo, read:org');
    const installation = await app.rest.pulls.get({ ...at(), pull_number: number });
    expect(installation.headers['x-oauth-scopes']).toBeUndefined();
  });
});

describe('GitHub App user tokens', () => {
  async function signIn(login: string): Promise<Record<string, unknown>> {
    fake.browserUser = login;
    const start = new URL('/login/oauth/authorize', fake.url);
    start.search = new URLSearchParams({ client_id: 'Iv1.client', redirect_uri: 'http://assay.test/cb', state: 's' }).toString();
    const code = new URL((await fetch(start, { redirect: 'manual' })).headers.get('location')!).searchParams.get('code')!;
    return token({ client_id: 'Iv1.client', client_secret: 'secret', code });
  }
  async function token(body: Record<string, string>): Promise<Record<string, unknown>> {
    const res = await fetch(new URL('/login/oauth/access_token', fake.url), { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return (await res.json()) as Record<string, unknown>;
  }
  const me = (t: unknown) => fetch(new URL('/user', fake.url), { headers: { authorization: `Bearer ${String(t)}` } });

  it('come with no scope, expire after eight hours, and are renewed once by their refresh token', async () => {
    const first = await signIn('ada');
    expect(first).toEqual({ access_token: expect.stringMatching(/^ghu_/), expires_in: USER_TOKEN_SECONDS, refresh_token: expect.stringMatching(/^ghr_/), refresh_token_expires_in: REFRESH_TOKEN_SECONDS, scope: '', token_type: 'bearer' });
    expect(USER_TOKEN_SECONDS).toBe(8 * 3600);
    expect((await me(first.access_token)).status).toBe(200);

    fake.clockOffsetMs += USER_TOKEN_SECONDS * 1000;
    expect((await me(first.access_token)).status).toBe(401);
    const renewed = await token({ client_id: 'Iv1.client', client_secret: 'secret', grant_type: 'refresh_token', refresh_token: String(first.refresh_token) });
    expect(renewed).toMatchObject({ access_token: expect.stringMatching(/^ghu_/), expires_in: USER_TOKEN_SECONDS, scope: '' });
    expect((await me(renewed.access_token)).status).toBe(200);
    // a refresh token works once
    expect(await token({ client_id: 'Iv1.client', client_secret: 'secret', grant_type: 'refresh_token', refresh_token: String(first.refresh_token) })).toMatchObject({ error: 'bad_refresh_token' });
  });
});
