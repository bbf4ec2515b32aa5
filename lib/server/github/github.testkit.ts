/**
 * Test helpers for the GitHub side: the fake GitHub server with the real Octokit adapter
 * pointed at it, a route handler served over real HTTP (so webhooks arrive as POSTs), and
 * the services record around a test database. For `*.test.ts` / `*.db.test.ts` files only.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { vi } from 'vitest';
import { FakeGitHub, type FakeGitHubOptions } from '@/testing/fakes/github-server';
import type { Db } from '../db/client';
import type { RouteHandler } from '../http/route';
import type { GitHubAuth, PullRequestPolicy } from './config';
import { DEFAULT_CALL_LIMITS, type GitHubCallLimits } from './octokit-limits';
import { createOctokit, octokitRepo } from './octokit-repo';
import type { GitHubRepo } from './port';
import type { GitHubServices } from './services';
import { requestRun, type RunDefaults } from '../runs/request-run';
import type { RequestRun } from '../runs/contracts';

export const TEST_TOKEN = 'ghp_test_token_for_the_fake';
/**
 * GitHub's limits as production meets them (octokit-limits.ts), but without the one-second pause
 * between writes, which would only make the tests slow: rate limits are still waited out.
 */
export const TEST_CALL_LIMITS: GitHubCallLimits = { ...DEFAULT_CALL_LIMITS, writeSpacingMs: 0 };
/** What GitHub names a GitHub App's installation when it writes (comments, check runs). */
export const TEST_APP_BOT = 'assay-app[bot]';

let appKeys: { publicKeyPem: string; privateKeyPem: string } | undefined;
/** One RSA key pair per test process: generating one costs more than the tests that use it. */
function testAppKeys() {
  if (!appKeys) {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    appKeys = { publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(), privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
  }
  return appKeys;
}

/**
 * The fake GitHub and the adapter pointed at it, authenticated as production is configured:
 * `as: 'app'` (default) a GitHub App installation, which may make check runs; `as: 'token'`
 * GITHUB_TOKEN alone (a personal access token), which GitHub refuses check runs, so the adapter
 * reports by comment only.
 */
export async function startFakeGitHub(options: FakeGitHubOptions = {}, o: { as?: 'app' | 'token' } = {}): Promise<{ fake: FakeGitHub; repo: GitHubRepo }> {
  const keys = testAppKeys();
  const app = { appId: '4242', installationId: 77 };
  const fake = await FakeGitHub.start({ token: TEST_TOKEN, app: { ...app, publicKeyPem: keys.publicKeyPem }, ...options });
  const auth: GitHubAuth = o.as === 'token' ? { kind: 'token', token: TEST_TOKEN } : { kind: 'app', ...app, privateKey: keys.privateKeyPem };
  const repo = octokitRepo(createOctokit({ apiUrl: fake.url, auth }, TEST_CALL_LIMITS), fake.owner, fake.repo, { checkRuns: auth.kind === 'app' });
  return { fake, repo };
}

export const testPolicy: PullRequestPolicy = {
  approvalLabel: 'assay:run',
  command: '/assay run',
  models: ['openai:gpt-4o-mini', 'anthropic:claude-3-5-haiku-latest'],
  budget: { maxModels: 2, maxPrompts: 5, maxCalls: 40, maxCostUsd: 0.5, maxSandboxSeconds: 8 },
  maxBlueprints: 2,
  publicUrl: 'http://assay.test',
};

/**
 * The platform defaults requestRun needs (judges, default collection), fixed for tests. The judge
 * has a known price: a PR run carries a cost cap, and a capped run refuses a model priced nowhere
 * (runs/calls/unpriced-models.ts).
 */
export const TEST_RUN_DEFAULTS: RunDefaults = { judges: ['openai:gpt-4o-mini'], defaultCollection: 'CORE', judgeSamples: 3 };

/**
 * The run pipeline for tests: the real requestRun (queued runs rows, identity, budget caps,
 * skipIfIdentical) behind a spy, so a test can assert that no run was requested; the
 * dispatcher is a spy that runs nothing (executing runs is the run pipeline's own tests' job).
 */
export function spiedRunPorts() {
  const dispatch = vi.fn(async (_runId: string) => {});
  const dispatcher = { dispatch };
  const requestRunSpy = vi.fn<RequestRun>((db, req, d) => requestRun(db, req, d, TEST_RUN_DEFAULTS));
  return { requestRun: requestRunSpy, dispatcher, dispatch };
}

export function testServices(db: Db, repo: GitHubRepo, fake: FakeGitHub, runs = spiedRunPorts()): GitHubServices & { runs: ReturnType<typeof spiedRunPorts> } {
  return { db, github: { repo, source: { owner: fake.owner, repo: fake.repo, branch: fake.branch } }, localFolder: 'blueprints', policy: testPolicy, runs };
}

/** Serves a fetch-style route handler on 127.0.0.1 (port 0), converting node requests to Requests. */
export async function serveHandler(handler: RouteHandler): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req: IncomingMessage, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const response = await handler(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body }));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** A small valid blueprint, and one with a known error on a known line. */
export const GOOD_BLUEPRINT = `title: Greetings
description: Says hello
models: [openai:gpt-4o-mini]
---
- id: hi
  prompt: Say hello
  should:
    - $icontains: hello
`;

/** Line 7, column 7: an unknown point function. */
export const BROKEN_BLUEPRINT = `title: Broken
models: [openai:gpt-4o-mini]
---
- id: hi
  prompt: Say hello
  should:
    - $no_such_function: hello
`;
