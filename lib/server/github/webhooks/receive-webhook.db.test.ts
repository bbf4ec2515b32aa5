/**
 * Webhooks as GitHub sends them: the fake GitHub POSTs signed deliveries over HTTP to the
 * webhook route handler, whose jobs run in this process against the fake and a real database.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FakeGitHub } from '@/testing/fakes/github-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { inProcessJobs, type GitHubServices } from '../services';
import { BROKEN_BLUEPRINT, GOOD_BLUEPRINT, serveHandler, type spiedRunPorts, startFakeGitHub, testServices } from '../github.testkit';
import type { GitHubRepo } from '../port';
import { webhookHandler } from './webhook-route';
import type { WebhookDeps } from './receive-webhook';

const SECRET = 'webhook-secret-for-tests';

let t: TestDatabase;
let fake: FakeGitHub;
let repo: GitHubRepo;
let server: { url: string; close(): Promise<void> };
let services: GitHubServices & { runs: ReturnType<typeof spiedRunPorts> };
let secret: string | undefined = SECRET;

const deps = (): WebhookDeps => ({
  db: t.db,
  secret,
  source: services.github!.source,
  approvalLabel: 'assay:run',
  command: '/assay run',
  jobs: inProcessJobs(services),
});

async function counts() {
  const [deliveries, syncs, pulls, runs, blueprints] = await Promise.all([t.db.webhookDelivery.count(), t.db.syncRecord.count(), t.db.pullRequest.count(), t.db.run.count(), t.db.blueprint.count()]);
  return { deliveries, syncs, pulls, runs, blueprints, githubRequests: fake.requests.length, comments: fake.comments.length, checkRuns: fake.checkRuns.length };
}

beforeAll(async () => {
  [t, { fake, repo }] = await Promise.all([
    freshDatabase(),
    startFakeGitHub({ files: { 'blueprints/greet.yml': GOOD_BLUEPRINT, 'models/CORE.json': '["openai:gpt-4o-mini"]' } }),
  ]);
  services = testServices(t.db, repo, fake);
  server = await serveHandler(webhookHandler(deps));
  fake.webhook = { url: `${server.url}/api/webhooks/github`, secret: SECRET };
  fake.setPermission('wes', 'write');
});
afterAll(async () => {
  await Promise.all([t?.close(), fake?.close(), server?.close()]);
});
beforeEach(() => {
  secret = SECRET;
  services.runs.requestRun.mockClear();
});

describe(`GitHub webhooks (${process.env.ASSAY_TEST_DB})`, () => {
  it('rejects a delivery with a wrong signature, and it changes nothing', async () => {
    const before = await counts();
    const payload = { ref: 'refs/heads/main', after: fake.head().sha, repository: { full_name: fake.fullName } };
    const wrongSecret = await fake.deliver('push', payload, { secret: 'not-the-secret' });
    expect(wrongSecret.status).toBe(401);
    expect(JSON.parse(wrongSecret.response)).toMatchObject({ error: { code: 'unauthorized' } });
    const garbage = await fake.deliver('push', payload, { signature: 'sha256=zz' });
    expect(garbage.status).toBe(401);
    const missing = await fetch(fake.webhook!.url, { method: 'POST', body: JSON.stringify(payload), headers: { 'x-github-event': 'push', 'x-github-delivery': 'd1', 'content-type': 'application/json' } });
    expect(missing.status).toBe(401);
    // a valid signature over other bytes does not carry over to a tampered body
    const opened = fake.pullEvent('opened', { number: 99, title: 'x', author: 'eve', state: 'open', headRef: 'h', headSha: fake.head().sha, baseRef: 'main', baseSha: fake.head().sha, labels: [] }, 'eve');
    const signedOther = await fake.deliver('pull_request', opened, { signature: (await signatureOf(JSON.stringify(payload))) });
    expect(signedOther.status).toBe(401);
    expect(await counts()).toEqual(before);
  });

  it('refuses every delivery while no secret is configured', async () => {
    secret = undefined;
    const d = await fake.deliver('ping', { zen: 'hi' });
    expect(d.status).toBe(503);
    expect(d.response).toContain('GITHUB_WEBHOOK_SECRET');
  });

  it('syncs on a push to the branch, once per delivery, and ignores other branches', async () => {
    const { delivery } = await fake.commit({ 'blueprints/second.yml': GOOD_BLUEPRINT }, 'Add second');
    expect(delivery).toMatchObject({ status: 200 });
    expect(JSON.parse(delivery!.response)).toEqual({ ok: true, outcome: `sync requested at ${fake.head().sha.slice(0, 7)}` });
    expect(await t.db.blueprint.count({ where: { removedAt: null } })).toBe(2);
    expect(await t.db.syncRecord.count()).toBe(1);

    const other = await fake.commit({ 'blueprints/third.yml': GOOD_BLUEPRINT }, 'elsewhere', { branch: 'experiments' });
    expect(JSON.parse(other.delivery!.response).outcome).toBe('ignored: push to refs/heads/experiments');
    expect(await t.db.syncRecord.count()).toBe(1);
  });

  it('processes a redelivered delivery id once', async () => {
    const body = JSON.stringify({ ref: 'refs/heads/main', after: fake.head().sha, repository: { full_name: fake.fullName } });
    const post = async () =>
      fetch(fake.webhook!.url, { method: 'POST', body, headers: { 'x-github-event': 'push', 'x-github-delivery': 'same-id', 'x-hub-signature-256': await signatureOf(body), 'content-type': 'application/json' } });
    expect((await (await post()).json()).outcome).toMatch(/^sync requested/);
    const syncs = await t.db.syncRecord.count();
    expect((await (await post()).json()).outcome).toMatch(/^duplicate delivery/);
    expect(await t.db.syncRecord.count()).toBe(syncs);
  });

  it('validates an opened pull request and reports a broken blueprint as a failing check with its line', async () => {
    const { number, headSha, delivery } = await fake.openPullRequest({ author: 'eve', title: 'Broken', changes: { 'blueprints/broken.yml': BROKEN_BLUEPRINT } });
    expect(JSON.parse(delivery!.response).outcome).toBe(`validation requested for #${number}`);
    const [check] = fake.checkRunsFor(headSha);
    expect(check).toMatchObject({ conclusion: 'failure' });
    expect(check!.output.summary).toContain('blueprints/broken.yml:7:7');
    expect(fake.commentsOn(number)[0]!.body).toContain('blueprints/broken.yml:7:7');
  });

  it('approves through a `/assay run` comment only from someone with write permission', async () => {
    const { number } = await fake.openPullRequest({ author: 'eve', title: 'Good', changes: { 'blueprints/good.yml': GOOD_BLUEPRINT } });
    const stranger = await fake.commentOn(number, 'eve', '/assay run');
    expect(JSON.parse(stranger.delivery!.response).outcome).toBe(`approval by comment from eve requested for #${number}`);
    expect(services.runs.requestRun).not.toHaveBeenCalled();
    expect(await t.db.run.count()).toBe(0);

    const prose = await fake.commentOn(number, 'wes', 'Maybe later we can `/assay run` this.');
    expect(JSON.parse(prose.delivery!.response).outcome).toBe('ignored: no command');

    await fake.commentOn(number, 'wes', 'Looks good.\n/assay run');
    expect(services.runs.requestRun).toHaveBeenCalledTimes(1);
    expect(await t.db.run.count({ where: { trigger: 'pull_request' } })).toBe(1);
  });

  it('approves through the label, checked against the labeller', async () => {
    const { number } = await fake.openPullRequest({ author: 'eve', title: 'Label', changes: { 'blueprints/labelled.yml': GOOD_BLUEPRINT } });
    await fake.addLabel(number, 'assay:run', 'eve');
    await fake.addLabel(number, 'needs-review', 'wes');
    expect(services.runs.requestRun).not.toHaveBeenCalled();
    await fake.addLabel(number, 'assay:run', 'wes');
    expect(services.runs.requestRun).toHaveBeenCalledTimes(1);
  });

  it('answers 400 to a signed payload it cannot read, and changes nothing', async () => {
    const before = await counts();
    const d = await fake.deliver('pull_request', { action: 'opened', number: 'one' });
    expect(d.status).toBe(400);
    expect(JSON.parse(d.response).error.message).toMatch(/^The pull_request payload is malformed/);
    const after = await counts();
    // the delivery id is remembered (unprocessed), nothing else
    expect({ ...after, deliveries: before.deliveries }).toEqual(before);
  });
});

async function signatureOf(body: string): Promise<string> {
  const { createHmac } = await import('node:crypto');
  return `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
}
