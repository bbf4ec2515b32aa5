/**
 * A `next start` (or `next dev`) of a spec's own (through scripts/launch.ts, as `npm start` runs it), for the
 * specs that need their own configuration (a GitHub repository, a blueprint folder, a database
 * of their own): started with the spec's environment over the defaults every such spec wants
 * (no demo seed, no telemetry, no Inngest), its output kept for the error messages, stopped
 * with SIGTERM and awaited. `waitFor` polls a probe and, when it times out, shows the app's log.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:net';

export interface AppServer {
  readonly url: string;
  readonly process: ChildProcess;
  /** Everything the app wrote to stdout and stderr so far. */
  log(): string;
  /** Resolves once `path` answers 2xx; throws (with the log) if the app exits or the time runs out. */
  ready(path?: string, timeoutMs?: number): Promise<void>;
  /** Polls `probe` until it returns something truthy; a timeout's error carries the app's log. */
  waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, opts?: { timeoutMs?: number; intervalMs?: number }): Promise<T>;
  /** SIGTERM, and wait for the exit. */
  stop(): Promise<void>;
}

/** Settings every spec-owned app starts with; a spec's `env` overrides them, `undefined` removes a variable. */
const DEFAULT_ENV = { ASSAY_SEED_DEMO: '', NEXT_TELEMETRY_DISABLED: '1', INNGEST_DEV: '', INNGEST_EVENT_KEY: '' };

/** `mode`: `start` (the production build, as `npm start`) or `dev` (as `npm run dev`, its V8 flags included). */
export function startAppServer(opts: { port: number; env?: Record<string, string | undefined>; mode?: 'start' | 'dev' }): AppServer {
  const url = `http://127.0.0.1:${opts.port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, ...DEFAULT_ENV, PORT: String(opts.port), ...opts.env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const args = opts.mode === 'dev' ? ['--max-semi-space-size=2', '--import', 'tsx', 'scripts/launch.ts', 'next', 'dev'] : ['--import', 'tsx', 'scripts/launch.ts', 'next', 'start'];
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const tail = () => log.slice(-4000);

  const waitFor: AppServer['waitFor'] = async (what, probe, { timeoutMs = 60_000, intervalMs = 250 } = {}) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const v = await probe();
      if (v) return v;
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}\n--- app log ---\n${tail()}`);
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  };

  return {
    url,
    process: child,
    log: () => log,
    waitFor,
    async ready(path = '/', timeoutMs = 150_000) {
      await waitFor(
        'the app to start',
        async () => {
          if (child.exitCode !== null) throw new Error(`the app exited (${child.exitCode}):\n${tail()}`);
          return (await fetch(`${url}${path}`).catch(() => null))?.ok;
        },
        { timeoutMs },
      );
    },
    async stop() {
      if (!child.pid || child.exitCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A TCP port free at this moment on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Runs the CLI (`bin/assay.mjs`) as a user would, with `env` over this process's; stdout and stderr together. */
export function runAssay(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/assay.mjs', ...args], { env: { ...process.env, ...env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolve({ code: code ?? -1, out }));
  });
}

/**
 * A GitHub App for a spec: the fake GitHub gets its id, installation and public key (`fake`, for
 * `FakeGitHub.start({ app })`), Assay its private key (`fakeGitHubEnv`). A fresh RSA key pair
 * each time, as GitHub generates one per App ("Managing private keys for GitHub Apps",
 * docs.github.com); GitHub lets only an App's installation token make check runs.
 */
export interface SpecGitHubApp {
  fake: { appId: string; installationId: number; publicKeyPem: string };
  privateKeyPem: string;
}

export function specGitHubApp(appId = '4242', installationId = 77): SpecGitHubApp {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    fake: { appId, installationId, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() },
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** The login GitHub gives an App installation's writes on the fake (its access_tokens route). */
export const FAKE_APP_BOT = 'assay-app[bot]';

/**
 * What an app needs to use a fake GitHub: the repository, its API, signed webhooks, (given
 * OAuth credentials) GitHub sign-in, and one way to authenticate (docs/github.md): a GitHub App
 * (`app`: check runs and comments) or a token alone (`token`: token-only mode, comments only).
 * The other way's variables are removed, so a setting in the shell cannot change the mode.
 */
export function fakeGitHubEnv(
  gh: { fullName: string; branch: string; url: string },
  o: ({ app: SpecGitHubApp; token?: never } | { token: string; app?: never }) & { webhookSecret: string; oauth?: { clientId: string; clientSecret: string } },
): Record<string, string | undefined> {
  const auth = o.app
    ? { GITHUB_APP_ID: o.app.fake.appId, GITHUB_APP_PRIVATE_KEY: o.app.privateKeyPem, GITHUB_APP_INSTALLATION_ID: String(o.app.fake.installationId), GITHUB_TOKEN: undefined }
    : { GITHUB_TOKEN: o.token, GITHUB_APP_ID: undefined, GITHUB_APP_PRIVATE_KEY: undefined, GITHUB_APP_INSTALLATION_ID: undefined };
  return {
    GITHUB_REPOSITORY: gh.fullName,
    GITHUB_BRANCH: gh.branch,
    GITHUB_API_URL: gh.url,
    ...auth,
    GITHUB_WEBHOOK_SECRET: o.webhookSecret,
    ...(o.oauth ? { GITHUB_OAUTH_CLIENT_ID: o.oauth.clientId, GITHUB_OAUTH_CLIENT_SECRET: o.oauth.clientSecret } : {}),
  };
}
