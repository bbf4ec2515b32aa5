/**
 * A fake GitHub for tests and demos: a real HTTP server (port 0 by default) that speaks the
 * part of the REST API Assay uses — branches, commits, trees, blobs, contents, pull requests
 * and their files, issue comments and labels, check runs, collaborator permissions, GitHub
 * App installation tokens, the OAuth web flow and `/user` — over a repository whose first
 * commit is the Weval configs corpus (or, without it, this repository's blueprints: github-server-corpus.ts). It delivers signed webhooks (push, pull_request,
 * issue_comment) to a configured URL, the way GitHub does, and logs every request so tests
 * can count what a use case fetched. GitHub's rules on who may write what and how much (check
 * runs for GitHub Apps only, text length limits, token scopes, App user tokens that expire) and the
 * published shapes of check runs and comments live in github-server-apps.ts, tested against
 * GitHub's REST description (npm @octokit/openapi).
 *
 *   const gh = await FakeGitHub.start({ token: 't', webhook: { url, secret } });
 *   new Octokit({ baseUrl: gh.url, auth: 't' });
 *   await gh.commit({ 'blueprints/a.yml': '…' }, 'change a');   // also delivers `push`
 */
import { createServer, type Server } from 'node:http';
import { createHmac, createVerify, randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { GitStore, type Commit, type FileChanges } from './github-server-git';
import { corpusFiles } from './github-server-corpus';
import { notFound, paginate, readRequest, Router, send, type FakeReply, type FakeRequest } from './github-server-http';
import { archiveRoutes } from './github-server-archive';
import { ForkGitData } from './github-server-forks';
import { FakeRateLimits, limitControlRoutes } from './github-server-limits';
import { AppUserTokens, checkOutputProblem, checkRunJson, checksRefusal, commentBodyProblem, issueCommentJson, pullBodyProblem, scopeHeaders } from './github-server-apps';

export type Permission = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';

export interface FakeGitHubOptions {
  owner?: string;
  repo?: string;
  branch?: string;
  /** The first commit's files; default: the Weval configs corpus, or this repository's blueprints without it (github-server-corpus.ts). */
  files?: Record<string, string>;
  /** A token the API accepts (`token X` / `Bearer X`). With a token or an app set, every API call must authenticate. */
  token?: string;
  /** A GitHub App whose JWTs (RS256, signed with the matching private key) can mint installation tokens. */
  app?: { appId: string; installationId: number; publicKeyPem: string };
  /**
   * An OAuth app for the web sign-in flow; `githubApp`: the client is a GitHub App's, whose user
   * tokens have no scopes, expire after eight hours and come with a refresh token (github-server-apps.ts).
   */
  oauth?: { clientId: string; clientSecret: string; githubApp?: boolean };
  /** The scopes of `token` (a personal access token, classic), reported in X-OAuth-Scopes; default `repo`. */
  tokenScopes?: string[];
  /** Where webhooks go, signed with `secret` (X-Hub-Signature-256). */
  webhook?: { url: string; secret: string };
  port?: number;
  host?: string;
  /** Trees with more entries than this are answered `truncated: true` (GitHub's cap is 100,000). */
  treeEntryLimit?: number;
}

export interface FakePull {
  number: number;
  title: string;
  author: string;
  state: 'open' | 'closed';
  headRef: string;
  headSha: string;
  baseRef: string;
  baseSha: string;
  labels: string[];
  /** The fork the head branch lives in (null: this repository). */
  headOwner?: string | null;
  body?: string;
}

export interface FakeComment {
  id: number;
  issueNumber: number;
  body: string;
  user: string;
  createdAt: string;
  updatedAt: string;
}

export interface FakeCheckRun {
  id: number;
  name: string;
  headSha: string;
  status: string;
  conclusion: string | null;
  output: { title?: string; summary?: string; text?: string };
  annotations: Record<string, unknown>[];
  detailsUrl?: string;
  by: string;
  startedAt?: string | null;
  completedAt?: string | null;
}

export interface Delivery {
  id: string;
  event: string;
  status: number;
  response: string;
}

interface Identity {
  kind: 'token' | 'installation' | 'user';
  login: string;
  /** An OAuth user token's granted scopes (GitHub's X-OAuth-Scopes). */
  scopes?: string[];
  /** A GitHub App's user token: no scopes, the app's permissions; refused from `expiresAt` (the fake's clock, ms). */
  appUser?: boolean;
  expiresAt?: number;
}

export class FakeGitHub {
  readonly git = new GitStore();
  readonly owner: string;
  readonly repo: string;
  readonly branch: string;
  url = '';
  /** Every API request, in order. */
  /** Every API request, in order; writes keep their JSON body (what a test asserts a use case sent). */
  readonly requests: { method: string; path: string; status: number; by?: string; body?: unknown }[] = [];
  /** Logins that forked the repository, and how many more polls each fork stays 404 (GitHub creates forks asynchronously). */
  readonly forks = new Map<string, { pendingPolls: number }>();
  /**
   * How many GETs of a new fork answer 404 before it exists. GitHub answers the fork's repository
   * at once (create-fork's 202 is that repository); what comes late is its Git data (`forkGit`).
   */
  forkPolls = 0;
  /** A new fork's Git data arrives late (github-server-forks.ts). */
  readonly forkGit = new ForkGitData();
  /** GitHub's primary and secondary rate limits (github-server-limits.ts). */
  readonly limits = new FakeRateLimits();
  /** While set, every call with a user token answers GitHub's rate-limit 403 (`x-ratelimit-reset`: epoch seconds). */
  rateLimitedUntil: number | null = null;
  readonly pulls = new Map<number, FakePull>();
  readonly comments: FakeComment[] = [];
  readonly checkRuns: FakeCheckRun[] = [];
  readonly deliveries: Delivery[] = [];
  readonly permissions = new Map<string, Permission>();
  /** Who is signed in to the fake github.com in the browser (the OAuth page asks when unset). */
  browserUser: string | null = null;
  webhook: { url: string; secret: string } | undefined;

  private server!: Server;
  private readonly router = new Router();
  private readonly tokens = new Map<string, Identity>();
  private readonly oauthCodes = new Map<string, { login: string; clientId: string; expires: number; scope: string }>();
  private nextId = 1000;
  /** Pull requests and issues share one number sequence on GitHub. */
  private nextNumber = 1;
  private readonly started = Date.now();
  private readonly appUserTokens = new AppUserTokens();
  /** Added to the real clock: a test moves time on (e.g. past a user token's eight hours) without waiting. */
  clockOffsetMs = 0;

  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  private constructor(private readonly options: FakeGitHubOptions) {
    this.owner = options.owner ?? 'weval-org';
    this.repo = options.repo ?? 'configs';
    this.branch = options.branch ?? 'main';
    this.webhook = options.webhook;
    if (options.token) this.tokens.set(options.token, { kind: 'token', login: 'assay-bot', scopes: options.tokenScopes ?? ['repo'] });
    this.git.commit(this.branch, options.files ?? corpusFiles(), 'Initial import of the blueprint repository');
    this.routes();
  }

  static async start(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
    const gh = new FakeGitHub(options);
    gh.server = createServer((req, res) => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://fake');
        const { rawBody, body } = await readRequest(req);
        const host = req.headers.host ?? `127.0.0.1`;
        const fake: FakeRequest = { method: req.method ?? 'GET', path: url.pathname, params: {}, query: url.searchParams, headers: req.headers, body, rawBody, origin: `http://${host}` };
        let reply: FakeReply;
        try {
          const hit = gh.router.match(fake.method, fake.path);
          const early = gh.limits.refuse(fake, gh.identify(fake)) ?? gh.forkGit.refuse(fake);
          reply = early ?? (hit ? await hit.handler({ ...fake, params: hit.params }) : notFound());
        } catch (e) {
          reply = { status: 500, body: { message: (e as Error).message } };
        }
        if (!fake.path.startsWith('/_fake/')) {
          const write = fake.method !== 'GET' && fake.method !== 'HEAD';
          const who = gh.identify(fake);
          gh.requests.push({ method: fake.method, path: fake.path, status: reply.status, by: who?.login, ...(write ? { body: fake.body } : {}) });
          reply = { ...reply, headers: { ...scopeHeaders(who), ...gh.limits.headers(fake, who), ...reply.headers } };
        }
        send(res, reply);
      })();
    });
    await new Promise<void>((done) => gh.server.listen(options.port ?? 0, options.host ?? '127.0.0.1', done));
    const { port } = gh.server.address() as AddressInfo;
    gh.url = `http://${options.host ?? '127.0.0.1'}:${port}`;
    return gh;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((done) => this.server.close(() => done()));
  }

  get fullName(): string {
    return `${this.owner}/${this.repo}`;
  }

  head(branch = this.branch): Commit {
    return this.git.resolve(branch)!;
  }

  /** Requests whose path matches, e.g. `count('GET', /\/git\/blobs\//)`. */
  count(method: string, path: RegExp): number {
    return this.requests.filter((r) => r.method === method && path.test(r.path)).length;
  }

  // ───────────── control: what a person does on GitHub (each delivers its webhook) ─────────────

  /** Pushes a commit to `branch` and delivers `push`. */
  async commit(changes: FileChanges, message = 'Update blueprints', opts: { branch?: string; author?: string } = {}): Promise<{ sha: string; delivery?: Delivery }> {
    const branch = opts.branch ?? this.branch;
    const before = this.git.branches.get(branch) ?? '0'.repeat(40);
    const c = this.git.commit(branch, changes, message, opts.author);
    const delivery = await this.deliverIfConfigured('push', {
      ref: `refs/heads/${branch}`,
      before,
      after: c.sha,
      repository: this.repository(),
      pusher: { name: c.author },
      sender: { login: c.author },
      head_commit: { id: c.sha, message, timestamp: c.date },
      commits: [{ id: c.sha, message, added: [], modified: Object.keys(changes), removed: [] }],
    });
    return { sha: c.sha, delivery };
  }

  /** Opens a pull request from a new branch holding `changes`; delivers `pull_request` opened. */
  async openPullRequest(o: { author: string; title: string; changes: FileChanges }): Promise<{ number: number; headSha: string; delivery?: Delivery }> {
    const number = this.nextNumber++;
    const headRef = `${o.author}/pr-${number}`;
    const base = this.head();
    const head = this.git.commit(headRef, o.changes, o.title, o.author, base.sha);
    const pr: FakePull = { number, title: o.title, author: o.author, state: 'open', headRef, headSha: head.sha, baseRef: this.branch, baseSha: base.sha, labels: [] };
    this.pulls.set(number, pr);
    const delivery = await this.deliverIfConfigured('pull_request', this.pullEvent('opened', pr, o.author));
    return { number, headSha: head.sha, delivery };
  }

  /** Pushes more changes to a pull request's branch; delivers `pull_request` synchronize. */
  async pushToPullRequest(number: number, changes: FileChanges): Promise<{ headSha: string; delivery?: Delivery }> {
    const pr = this.pull(number);
    const head = this.git.commit(`${pr.headOwner ? `${pr.headOwner}/` : ''}${pr.headRef}`, changes, 'Update', pr.author);
    pr.headSha = head.sha;
    const delivery = await this.deliverIfConfigured('pull_request', this.pullEvent('synchronize', pr, pr.author));
    return { headSha: head.sha, delivery };
  }

  /** `by` adds a label to a pull request; delivers `pull_request` labeled. */
  async addLabel(number: number, label: string, by: string): Promise<{ delivery?: Delivery }> {
    const pr = this.pull(number);
    if (!pr.labels.includes(label)) pr.labels.push(label);
    const delivery = await this.deliverIfConfigured('pull_request', { ...this.pullEvent('labeled', pr, by), label: { name: label } });
    return { delivery };
  }

  /** `by` comments on a pull request; delivers `issue_comment` created. */
  async commentOn(number: number, by: string, body: string): Promise<{ comment: FakeComment; delivery?: Delivery }> {
    const pr = this.pull(number);
    const comment = this.addComment(number, by, body);
    const delivery = await this.deliverIfConfigured('issue_comment', {
      action: 'created',
      issue: { number, title: pr.title, user: { login: pr.author }, state: pr.state, pull_request: { url: `${this.url}/repos/${this.fullName}/pulls/${number}` } },
      comment: this.commentJson(comment),
      repository: this.repository(),
      sender: { login: by },
    });
    return { comment, delivery };
  }

  setPermission(login: string, permission: Permission): void {
    this.permissions.set(login, permission);
  }

  commentsOn(number: number): FakeComment[] {
    return this.comments.filter((c) => c.issueNumber === number);
  }

  checkRunsFor(sha: string): FakeCheckRun[] {
    return this.checkRuns.filter((c) => c.headSha === sha);
  }

  /** POSTs a webhook like GitHub: JSON body, X-GitHub-Event, X-GitHub-Delivery, X-Hub-Signature-256. */
  async deliver(event: string, payload: unknown, o: { url?: string; secret?: string; signature?: string } = {}): Promise<Delivery> {
    const url = o.url ?? this.webhook?.url;
    if (!url) throw new Error('no webhook URL: pass { url } or configure options.webhook');
    const body = JSON.stringify(payload);
    const secret = o.secret ?? this.webhook?.secret ?? '';
    const signature = o.signature ?? `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    const id = randomUUID();
    const res = await fetch(url, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'GitHub-Hookshot/fake',
        'x-github-event': event,
        'x-github-delivery': id,
        'x-hub-signature-256': signature,
      },
    });
    const delivery = { id, event, status: res.status, response: await res.text() };
    this.deliveries.push(delivery);
    return delivery;
  }

  pullEvent(action: string, pr: FakePull, sender: string): Record<string, unknown> {
    return { action, number: pr.number, pull_request: this.pullJson(pr), repository: this.repository(), sender: { login: sender } };
  }

  private async deliverIfConfigured(event: string, payload: unknown): Promise<Delivery | undefined> {
    return this.webhook ? this.deliver(event, payload) : undefined;
  }

  private pull(number: number): FakePull {
    const pr = this.pulls.get(number);
    if (!pr) throw new Error(`no pull request #${number}`);
    return pr;
  }

  private addComment(issueNumber: number, user: string, body: string): FakeComment {
    const now = new Date().toISOString();
    const c = { id: this.nextId++, issueNumber, body, user, createdAt: now, updatedAt: now };
    this.comments.push(c);
    return c;
  }

  // ───────────── JSON shapes ─────────────

  /** This repository's JSON, or a fork's (`forkOwner`). */
  private repository(forkOwner?: string) {
    const owner = forkOwner ?? this.owner;
    return { id: forkOwner ? hashId(`${forkOwner}/${this.repo}`) : 1, name: this.repo, full_name: `${owner}/${this.repo}`, owner: { login: owner }, default_branch: this.branch, private: false, fork: !!forkOwner, ...(forkOwner ? { parent: { full_name: this.fullName } } : {}), html_url: `https://github.com/${owner}/${this.repo}` };
  }

  private pullJson(pr: FakePull) {
    return {
      number: pr.number,
      title: pr.title,
      state: pr.state,
      user: { login: pr.author, type: 'User' },
      labels: pr.labels.map((name) => ({ name })),
      head: { ref: pr.headRef, sha: pr.headSha, label: `${pr.headOwner ?? this.owner}:${pr.headRef}`, repo: pr.headOwner ? this.repository(pr.headOwner) : this.repository() },
      body: pr.body ?? null,
      base: { ref: pr.baseRef, sha: pr.baseSha, repo: this.repository() },
      html_url: `https://github.com/${this.fullName}/pull/${pr.number}`,
    };
  }

  private commentJson(c: FakeComment) {
    return issueCommentJson({ ...c, userId: hashId(c.user) }, this.url, this.fullName);
  }

  private checkRunJson(c: FakeCheckRun) {
    return checkRunJson({ ...c, annotationsCount: c.annotations.length }, this.url, this.fullName);
  }

  private commitJson(c: Commit) {
    return { sha: c.sha, message: c.message, tree: { sha: c.treeSha }, parents: c.parents.map((sha) => ({ sha })), author: { name: c.author, date: c.date }, committer: { name: c.author, date: c.date } };
  }

  // ───────────── authentication ─────────────

  identify(req: FakeRequest): Identity | null {
    const header = req.headers.authorization ?? '';
    const m = /^(?:token|bearer)\s+(.+)$/i.exec(header);
    const who = m ? (this.tokens.get(m[1]!) ?? null) : null;
    return who?.expiresAt !== undefined && who.expiresAt <= this.now() ? null : who; // an expired token: Bad credentials
  }

  /** With a token or an app configured, the API refuses anonymous calls (as for a private repository). */
  private guard(req: FakeRequest, write = false): Identity | FakeReply {
    const who = this.identify(req);
    if (who?.kind === 'user' && this.rateLimitedUntil && Date.now() / 1000 < this.rateLimitedUntil) {
      return { status: 403, body: { message: `API rate limit exceeded for user ${who.login}.`, documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api' }, headers: { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(this.rateLimitedUntil) } };
    }
    if (who) return who;
    if (req.headers.authorization) return { status: 401, body: { message: 'Bad credentials' } };
    if (write || this.options.token || this.options.app) return { status: 401, body: { message: 'Requires authentication' } };
    return { kind: 'token', login: 'anonymous' };
  }

  private verifyAppJwt(req: FakeRequest): boolean {
    const app = this.options.app;
    const m = /^bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (!app || !m) return false;
    const [h, p, s] = m[1]!.split('.');
    if (!h || !p || !s) return false;
    const ok = createVerify('RSA-SHA256').update(`${h}.${p}`).verify(app.publicKeyPem, Buffer.from(s, 'base64url'));
    if (!ok) return false;
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as { iss?: unknown; exp?: number; iat?: number };
    const now = Date.now() / 1000;
    return String(claims.iss) === app.appId && typeof claims.exp === 'number' && claims.exp > now && claims.exp - (claims.iat ?? 0) <= 600;
  }

  // ───────────── routes ─────────────

  private routes(): void {
    const r = this.router;
    const repo = `/repos/:owner/:repo`;
    /** `forks`: the route also serves the users' forks (owner = the fork's login), once they exist. */
    const inRepo = (handler: (req: FakeRequest, who: Identity) => FakeReply | Promise<FakeReply>, write = false, forks = false) => (req: FakeRequest) => {
      const prefix = this.prefixOf(req.params.owner, req.params.repo);
      if (prefix === null || (prefix && (!forks || this.forks.get(req.params.owner!)!.pendingPolls > 0))) return notFound();
      const who = this.guard(req, write);
      return 'status' in who ? who : handler(req, who);
    };

    r.on('GET', `${repo}/branches/:branch`, inRepo((req) => {
      const c = this.git.resolve(req.params.branch!);
      if (!c || !this.git.branches.has(req.params.branch!)) return notFound('Branch not found');
      return { status: 200, body: { name: req.params.branch, commit: { sha: c.sha, commit: this.commitJson(c) } } };
    }));
    r.on('GET', `${repo}/git/ref/*ref`, inRepo((req) => {
      const prefix = this.prefixOf(req.params.owner, req.params.repo)!;
      const name = req.params.ref!.replace(/^heads\//, '');
      const c = prefix ? this.git.commits.get(this.git.branches.get(prefix + name) ?? '') : this.git.resolve(req.params.ref!);
      return c ? { status: 200, body: { ref: `refs/${req.params.ref}`, object: { sha: c.sha, type: 'commit' } } } : notFound();
    }, false, true));
    r.on('GET', `${repo}/git/commits/:sha`, inRepo((req) => {
      const c = this.git.commits.get(req.params.sha!);
      return c ? { status: 200, body: this.commitJson(c) } : notFound();
    }));
    r.on('GET', `${repo}/commits/:ref`, inRepo((req) => {
      const c = this.git.resolve(req.params.ref!);
      return c ? { status: 200, body: { sha: c.sha, commit: this.commitJson(c) } } : notFound('No commit found for SHA');
    }));
    r.on('GET', `${repo}/git/trees/:sha`, inRepo((req) => {
      // like GitHub, a commit SHA or branch name is accepted as a tree-ish
      const sha = this.git.resolve(req.params.sha!)?.treeSha ?? req.params.sha!;
      const recursive = !!req.query.get('recursive') && req.query.get('recursive') !== '0' && req.query.get('recursive') !== 'false';
      const entries = this.git.listTree(sha, recursive);
      if (!entries) return notFound();
      const limit = this.options.treeEntryLimit ?? 100_000;
      const truncated = entries.length > limit;
      const tree = entries.slice(0, limit).map((e) => ({ ...e, url: `${req.origin}${repo.replace(':owner', this.owner).replace(':repo', this.repo)}/git/${e.type}s/${e.sha}` }));
      return { status: 200, body: { sha, url: `${req.origin}${req.path}`, tree, truncated } };
    }));
    r.on('GET', `${repo}/git/blobs/:sha`, inRepo((req) => {
      const blob = this.git.blobs.get(req.params.sha!);
      if (!blob) return notFound();
      const content = blob.toString('base64').replace(/.{60}/g, '$&\n');
      return { status: 200, body: { sha: req.params.sha, size: blob.length, encoding: 'base64', content } };
    }));
    r.on('GET', `${repo}/contents/*path`, inRepo((req) => {
      const prefix = this.prefixOf(req.params.owner, req.params.repo)!;
      const ref = req.query.get('ref') ?? this.branch;
      const c = this.git.commits.get(this.git.branches.get(prefix + ref) ?? '') ?? this.git.resolve(ref);
      if (!c) return notFound('No commit found for the ref');
      const path = req.params.path!.replace(/\/$/, '');
      const sha = c.files.get(path);
      if (sha) {
        const blob = this.git.blobs.get(sha)!;
        return { status: 200, body: { type: 'file', encoding: 'base64', size: blob.length, name: path.split('/').at(-1), path, sha, content: blob.toString('base64') } };
      }
      const dir = this.git.directory(c, path);
      if (!dir) return notFound();
      return { status: 200, body: dir.map((e) => ({ type: e.type === 'tree' ? 'dir' : 'file', name: e.path.split('/').at(-1), path: e.path, sha: e.sha, size: e.size ?? 0 })) };
    }, false, true));
    this.pullRequestWriteRoutes(repo, inRepo);
    archiveRoutes(r, repo, inRepo, this.git);
    limitControlRoutes(r, this.limits);

    r.on('GET', `${repo}/pulls/:number`, inRepo((req) => {
      const pr = this.pulls.get(Number(req.params.number));
      return pr ? { status: 200, body: this.pullJson(pr) } : notFound();
    }));
    r.on('GET', `${repo}/pulls/:number/files`, inRepo((req) => {
      const pr = this.pulls.get(Number(req.params.number));
      if (!pr) return notFound();
      const base = this.git.commits.get(pr.baseSha)!.files;
      const head = this.git.commits.get(pr.headSha)!.files;
      const files: Record<string, unknown>[] = [];
      for (const path of new Set([...base.keys(), ...head.keys()])) {
        const before = base.get(path);
        const after = head.get(path);
        if (before === after) continue;
        const status = !before ? 'added' : !after ? 'removed' : 'modified';
        files.push({ filename: path, status, sha: after ?? before, additions: 0, deletions: 0, changes: 0 });
      }
      files.sort((a, b) => String(a.filename).localeCompare(String(b.filename)));
      return paginate(req, files);
    }));

    r.on('GET', `${repo}/issues/:number/comments`, inRepo((req) => paginate(req, this.commentsOn(Number(req.params.number)).map((c) => this.commentJson(c)))));
    r.on('POST', `${repo}/issues/:number/comments`, inRepo((req, who) => {
      const body = (req.body as { body?: unknown }).body;
      const refused = commentBodyProblem(body, false);
      if (refused) return refused;
      return { status: 201, body: this.commentJson(this.addComment(Number(req.params.number), who.login, body as string)) };
    }, true));
    r.on('PATCH', `${repo}/issues/comments/:id`, inRepo((req) => {
      const c = this.comments.find((x) => x.id === Number(req.params.id));
      if (!c) return notFound();
      const refused = commentBodyProblem((req.body as { body?: unknown }).body, true);
      if (refused) return refused;
      c.body = String((req.body as { body?: unknown }).body);
      c.updatedAt = new Date().toISOString();
      return { status: 200, body: this.commentJson(c) };
    }, true));
    r.on('POST', `${repo}/issues/:number/labels`, inRepo((req) => {
      const pr = this.pulls.get(Number(req.params.number));
      if (!pr) return notFound();
      for (const l of ((req.body as { labels?: string[] }).labels ?? [])) if (!pr.labels.includes(l)) pr.labels.push(l);
      return { status: 200, body: pr.labels.map((name) => ({ name })) };
    }, true));
    r.on('DELETE', `${repo}/issues/:number/labels/:name`, inRepo((req) => {
      const pr = this.pulls.get(Number(req.params.number));
      if (!pr) return notFound();
      pr.labels = pr.labels.filter((l) => l !== req.params.name);
      return { status: 200, body: pr.labels.map((name) => ({ name })) };
    }, true));

    r.on('POST', `${repo}/check-runs`, inRepo((req, who) => {
      const b = req.body as { name?: string; head_sha?: string; status?: string; conclusion?: string; details_url?: string; started_at?: string; completed_at?: string; output?: { title?: string; summary?: string; text?: string; annotations?: Record<string, unknown>[] } };
      const refused = checksRefusal(who.kind, who.appUser) ?? checkOutputProblem(b.output);
      if (refused) return refused;
      if (!b.name || !b.head_sha) return { status: 422, body: { message: 'name and head_sha are required' } };
      if (!this.git.commits.has(b.head_sha)) return { status: 422, body: { message: 'No commit found for SHA: ' + b.head_sha } };
      const annotations = b.output?.annotations ?? [];
      if (annotations.length > 50) return { status: 422, body: { message: 'at most 50 annotations per request' } };
      const run: FakeCheckRun = { id: this.nextId++, name: b.name, headSha: b.head_sha, status: b.conclusion ? 'completed' : (b.status ?? 'queued'), conclusion: b.conclusion ?? null, output: { title: b.output?.title, summary: b.output?.summary, text: b.output?.text }, annotations, detailsUrl: b.details_url, by: who.login, startedAt: b.started_at ?? new Date(this.now()).toISOString(), completedAt: b.conclusion ? (b.completed_at ?? new Date(this.now()).toISOString()) : null };
      this.checkRuns.push(run);
      return { status: 201, body: this.checkRunJson(run) };
    }, true));
    r.on('PATCH', `${repo}/check-runs/:id`, inRepo((req, who) => {
      const run = this.checkRuns.find((c) => c.id === Number(req.params.id));
      const refused = checksRefusal(who.kind, who.appUser) ?? checkOutputProblem((req.body as { output?: { summary?: unknown; text?: unknown } }).output);
      if (refused) return refused;
      if (!run) return notFound();
      const b = req.body as { status?: string; conclusion?: string; details_url?: string; completed_at?: string; output?: { title?: string; summary?: string; text?: string; annotations?: Record<string, unknown>[] } };
      const annotations = b.output?.annotations ?? [];
      if (annotations.length > 50) return { status: 422, body: { message: 'at most 50 annotations per request' } };
      if (b.status) run.status = b.status;
      if (b.conclusion) {
        run.conclusion = b.conclusion;
        run.status = 'completed';
        run.completedAt = b.completed_at ?? new Date(this.now()).toISOString();
      }
      if (b.details_url) run.detailsUrl = b.details_url;
      if (b.output) run.output = { title: b.output.title ?? run.output.title, summary: b.output.summary ?? run.output.summary, text: b.output.text ?? run.output.text };
      run.annotations.push(...annotations); // GitHub appends annotations across updates
      return { status: 200, body: this.checkRunJson(run) };
    }, true));
    r.on('GET', `${repo}/commits/:ref/check-runs`, inRepo((req) => {
      const c = this.git.resolve(req.params.ref!);
      const runs = c ? this.checkRunsFor(c.sha).map((x) => this.checkRunJson(x)) : [];
      return { status: 200, body: { total_count: runs.length, check_runs: runs } };
    }));
    r.on('GET', `${repo}/check-runs/:id/annotations`, inRepo((req) => {
      const run = this.checkRuns.find((c) => c.id === Number(req.params.id));
      return run ? paginate(req, run.annotations) : notFound();
    }));

    r.on('GET', `${repo}/collaborators/:user/permission`, inRepo((req) => {
      const permission = this.permissions.get(req.params.user!) ?? 'none';
      // GitHub folds `maintain` into `write` and `triage` into `read`, and names the role in role_name
      const legacy = permission === 'maintain' ? 'write' : permission === 'triage' ? 'read' : permission;
      return { status: 200, body: { permission: legacy, role_name: permission, user: { login: req.params.user } } };
    }));

    r.on('POST', '/app/installations/:id/access_tokens', (req) => {
      if (!this.verifyAppJwt(req)) return { status: 401, body: { message: 'A JSON web token could not be decoded' } };
      if (Number(req.params.id) !== this.options.app!.installationId) return notFound();
      const token = `ghs_${randomBytes(16).toString('hex')}`;
      this.tokens.set(token, { kind: 'installation', login: 'assay-app[bot]' });
      return { status: 201, body: { token, expires_at: new Date(Date.now() + 3600_000).toISOString(), permissions: { contents: 'read', pull_requests: 'write', checks: 'write', issues: 'write' } } };
    });

    this.oauthRoutes();
    this.controlRoutes();
  }

  // ───────────── what an author's own token does: repository permissions, forks, refs, contents, pulls ─────────────

  /** `''` for this repository, `<login>/` for a login's fork (its branches live in the same store under that prefix), null for any other. */
  private prefixOf(owner: string | undefined, repo: string | undefined): string | null {
    if (repo !== this.repo || !owner) return null;
    if (owner === this.owner) return '';
    return this.forks.has(owner) ? `${owner}/` : null;
  }

  /** An OAuth user token writes only with `public_repo` or `repo` (GitHub names them in X-Accepted-OAuth-Scopes). */
  private missingScope(who: Identity): FakeReply | null {
    // a GitHub App's user token has no scopes: the app's permissions decide (github-server-apps.ts)
    if (who.kind !== 'user' || who.appUser || who.scopes?.some((s) => s === 'public_repo' || s === 'repo')) return null;
    return { status: 403, body: { message: 'Resource not accessible by integration' }, headers: { 'x-accepted-oauth-scopes': 'public_repo, repo', 'x-oauth-scopes': (who.scopes ?? []).join(', ') } };
  }

  /** Pushing to this repository takes write permission; to a fork, being its owner. */
  private mayPush(who: Identity, prefix: string): boolean {
    if (who.kind !== 'user') return true; // the bot token and the app write everywhere
    if (prefix) return prefix === `${who.login}/`;
    const p = this.permissions.get(who.login) ?? 'none';
    return p === 'admin' || p === 'maintain' || p === 'write';
  }

  /** Revokes every token of `login` (the user removed the app's access on GitHub): its calls answer 401. */
  revokeTokensOf(login: string): void {
    for (const [token, who] of this.tokens) if (who.login === login) this.tokens.delete(token);
  }

  /** The open pull request from `head` (`owner:branch`), if any. */
  pullFrom(headOwner: string, headRef: string): FakePull | undefined {
    const owner = headOwner === this.owner ? null : headOwner;
    return [...this.pulls.values()].find((p) => p.state === 'open' && (p.headOwner ?? null) === owner && p.headRef === headRef);
  }

  private pullRequestWriteRoutes(repo: string, inRepo: (h: (req: FakeRequest, who: Identity) => FakeReply | Promise<FakeReply>, write?: boolean, forks?: boolean) => (req: FakeRequest) => FakeReply | Promise<FakeReply>): void {
    const r = this.router;
    const prefixOf = (req: FakeRequest) => this.prefixOf(req.params.owner, req.params.repo)!;
    const invalid = (message: string): FakeReply => ({ status: 422, body: { message, documentation_url: 'https://docs.github.com/rest' } });

    r.on('GET', `${repo}`, (req) => {
      const prefix = this.prefixOf(req.params.owner, req.params.repo);
      if (prefix === null) return notFound();
      const fork = prefix ? this.forks.get(req.params.owner!)! : null;
      if (fork && fork.pendingPolls > 0) {
        fork.pendingPolls--; // still being created
        return notFound();
      }
      const who = this.guard(req);
      if ('status' in who) return who;
      const push = this.mayPush(who, prefix);
      const admin = prefix ? push : who.kind === 'user' && this.permissions.get(who.login) === 'admin';
      return { status: 200, body: { ...this.repository(prefix ? req.params.owner : undefined), permissions: { admin, maintain: admin, push, triage: push, pull: true } } };
    });
    r.on('POST', `${repo}/forks`, inRepo((req, who) => {
      const refused = this.missingScope(who);
      if (refused) return refused;
      if (who.kind !== 'user') return invalid('Only a user can fork here');
      if (!this.forks.has(who.login)) {
        this.forks.set(who.login, { pendingPolls: this.forkPolls });
        this.forkGit.created(who.login);
        this.git.branches.set(`${who.login}/${this.branch}`, this.head().sha); // a fork starts with the default branch
      }
      return { status: 202, body: this.repository(who.login) };
    }, true));
    r.on('POST', `${repo}/git/refs`, inRepo((req, who) => {
      const prefix = prefixOf(req);
      const refused = this.missingScope(who);
      if (refused) return refused;
      if (!this.mayPush(who, prefix)) return { status: 403, body: { message: 'Resource not accessible by integration' } };
      const b = req.body as { ref?: string; sha?: string };
      if (!b.ref?.startsWith('refs/heads/') || !b.sha) return invalid('ref must start with refs/heads/ and sha is required');
      const key = prefix + b.ref.slice('refs/heads/'.length);
      if (this.git.branches.has(key)) return invalid('Reference already exists');
      if (!this.git.commits.has(b.sha)) return invalid('Object does not exist');
      this.git.branches.set(key, b.sha);
      return { status: 201, body: { ref: b.ref, object: { sha: b.sha, type: 'commit' } } };
    }, true, true));
    r.on('PUT', `${repo}/contents/*path`, inRepo((req, who) => {
      const prefix = prefixOf(req);
      const refused = this.missingScope(who);
      if (refused) return refused;
      if (!this.mayPush(who, prefix)) return notFound(); // GitHub hides what you cannot write
      const b = req.body as { message?: string; content?: string; branch?: string; sha?: string };
      if (!b.message || typeof b.content !== 'string') return invalid('message and content are required');
      const branch = b.branch ?? this.branch;
      const head = this.git.commits.get(this.git.branches.get(prefix + branch) ?? '');
      if (!head) return notFound(`Branch ${branch} not found`);
      const path = req.params.path!;
      const existing = head.files.get(path);
      if (existing && !b.sha) return invalid('Invalid request.\n\n"sha" wasn\'t supplied.');
      if (existing && b.sha !== existing) return { status: 409, body: { message: `${path} does not match ${b.sha}` } };
      const c = this.git.commit(prefix + branch, { [path]: Buffer.from(b.content, 'base64').toString('utf8') }, b.message, who.login);
      return { status: existing ? 200 : 201, body: { content: { name: path.split('/').at(-1), path, sha: c.files.get(path) }, commit: { sha: c.sha, message: b.message } } };
    }, true, true));
    r.on('GET', `${repo}/pulls`, inRepo((req) => {
      const state = req.query.get('state') ?? 'open';
      const head = req.query.get('head');
      let list = [...this.pulls.values()].filter((p) => state === 'all' || p.state === state);
      if (head) {
        const [owner, ref] = head.includes(':') ? head.split(':', 2) as [string, string] : [this.owner, head];
        list = list.filter((p) => (p.headOwner ?? this.owner) === owner && p.headRef === ref);
      }
      return paginate(req, list.map((p) => this.pullJson(p)));
    }));
    r.on('POST', `${repo}/pulls`, inRepo((req, who) => {
      const refused = this.missingScope(who);
      if (refused) return refused;
      const b = req.body as { title?: string; head?: string; base?: string; body?: string };
      if (!b.title || !b.head || !b.base) return invalid('title, head and base are required');
      const tooLong = pullBodyProblem(b.body);
      if (tooLong) return tooLong;
      const [owner, ref] = b.head.includes(':') ? b.head.split(':', 2) as [string, string] : [this.owner, b.head];
      const prefix = this.prefixOf(owner, this.repo);
      const head = prefix === null ? undefined : this.git.commits.get(this.git.branches.get(prefix + ref) ?? '');
      const base = this.git.resolve(b.base);
      if (!head || !base || !this.git.branches.has(b.base)) return { status: 422, body: { message: 'Validation Failed', errors: [{ resource: 'PullRequest', field: 'head', code: 'invalid' }] } };
      if (this.pullFrom(owner, ref)) return { status: 422, body: { message: 'Validation Failed', errors: [{ resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${owner}:${ref}.` }] } };
      if (head.sha === base.sha) return { status: 422, body: { message: 'Validation Failed', errors: [{ resource: 'PullRequest', code: 'custom', message: `No commits between ${b.base} and ${ref}` }] } };
      const pr: FakePull = { number: this.nextNumber++, title: b.title, author: who.login, state: 'open', headRef: ref, headSha: head.sha, baseRef: b.base, baseSha: base.sha, labels: [], headOwner: prefix ? owner : null, body: b.body ?? '' };
      this.pulls.set(pr.number, pr);
      // GitHub delivers the webhook after answering, not during the request
      setTimeout(() => void this.deliverIfConfigured('pull_request', this.pullEvent('opened', pr, who.login)).catch(() => undefined), 0);
      return { status: 201, body: this.pullJson(pr) };
    }));
  }

  private oauthRoutes(): void {
    const r = this.router;
    const authorize = (req: FakeRequest, login: string | null): FakeReply => {
      const oauth = this.options.oauth;
      const clientId = req.query.get('client_id');
      const redirectUri = req.query.get('redirect_uri');
      if (!oauth || clientId !== oauth.clientId || !redirectUri) return { status: 404, body: 'unknown OAuth application' };
      if (!login) {
        // the fake github.com sign-in page: who are you?
        const hidden = [...req.query].map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`).join('');
        return {
          status: 200,
          headers: { 'content-type': 'text/html; charset=utf-8' },
          body: `<!doctype html><title>Sign in to GitHub (fake)</title><h1>Sign in to GitHub (fake)</h1><form method="get" action="/login/oauth/authorize/confirm">${hidden}<label>Username <input name="login" autocomplete="off"></label><button type="submit">Authorize</button></form>`,
        };
      }
      const code = randomBytes(10).toString('hex');
      this.oauthCodes.set(code, { login, clientId, expires: Date.now() + 600_000, scope: req.query.get('scope') ?? '' });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      const state = req.query.get('state');
      if (state) back.searchParams.set('state', state);
      return { status: 302, headers: { location: back.toString() } };
    };
    r.on('GET', '/login/oauth/authorize', (req) => authorize(req, this.browserUser));
    r.on('GET', '/login/oauth/authorize/confirm', (req) => authorize(req, req.query.get('login') || null));
    r.on('POST', '/login/oauth/access_token', (req) => {
      const b = req.body as { client_id?: string; client_secret?: string; code?: string; grant_type?: string; refresh_token?: string };
      const oauth = this.options.oauth;
      const grant = b.code ? this.oauthCodes.get(b.code) : undefined;
      const json = (req.headers.accept ?? '').includes('application/json');
      const answer = (body: Record<string, string | number>): FakeReply =>
        json ? { status: 200, body } : { status: 200, body: new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
      if (!oauth || b.client_id !== oauth.clientId || b.client_secret !== oauth.clientSecret) return answer({ error: 'incorrect_client_credentials' });
      if (b.grant_type === 'refresh_token') {
        const renewed = oauth.githubApp && b.refresh_token ? this.appUserTokens.refresh(b.refresh_token, this.now()) : null;
        if (!renewed) return answer({ error: 'bad_refresh_token', error_description: 'The refresh token passed is incorrect or expired.' });
        this.tokens.delete(renewed.retired); // the old user token stops working with its refresh token
        this.tokens.set(renewed.grant.accessToken, { kind: 'user', login: renewed.grant.login, appUser: true, expiresAt: renewed.grant.expiresAt });
        return answer(AppUserTokens.reply(renewed.grant, this.now()));
      }
      if (!grant || grant.expires < Date.now() || grant.clientId !== b.client_id) return answer({ error: 'bad_verification_code' });
      this.oauthCodes.delete(b.code!); // a code works once
      if (oauth.githubApp) {
        const issued = this.appUserTokens.issue(grant.login, this.now());
        this.tokens.set(issued.accessToken, { kind: 'user', login: grant.login, appUser: true, expiresAt: issued.expiresAt });
        return answer(AppUserTokens.reply(issued, this.now()));
      }
      const token = `gho_${randomBytes(16).toString('hex')}`;
      // GitHub grants what the authorize URL asked for (space- or comma-separated), reported comma-separated
      const scopes = grant.scope.split(/[\s,]+/).filter(Boolean);
      this.tokens.set(token, { kind: 'user', login: grant.login, scopes });
      return answer({ access_token: token, token_type: 'bearer', scope: scopes.join(',') });
    });
    r.on('GET', '/user', (req) => {
      const who = this.identify(req);
      if (!who || who.kind !== 'user') return { status: 401, body: { message: 'Requires authentication' } };
      return { status: 200, body: { login: who.login, id: hashId(who.login), name: who.login, type: 'User' } };
    });
  }

  /** `/_fake/*`: the control API, for tests and demos driving the fake from another process. */
  private controlRoutes(): void {
    const r = this.router;
    const ok = (body: unknown): FakeReply => ({ status: 200, body });
    type Body = Record<string, unknown>;
    r.on('GET', '/_fake/state', () => ok({ url: this.url, owner: this.owner, repo: this.repo, branch: this.branch, head: this.head().sha, startedAt: this.started }));
    r.on('GET', '/_fake/requests', () => ok(this.requests));
    r.on('GET', '/_fake/deliveries', () => ok(this.deliveries));
    r.on('POST', '/_fake/commits', async (req) => {
      const b = req.body as Body;
      return ok(await this.commit(b.changes as FileChanges, String(b.message ?? 'Update'), { author: b.author as string | undefined }));
    });
    r.on('POST', '/_fake/pulls', async (req) => {
      const b = req.body as Body;
      return ok(await this.openPullRequest({ author: String(b.author), title: String(b.title), changes: b.changes as FileChanges }));
    });
    r.on('POST', '/_fake/pulls/:number/commits', async (req) => ok(await this.pushToPullRequest(Number(req.params.number), (req.body as Body).changes as FileChanges)));
    r.on('POST', '/_fake/pulls/:number/labels', async (req) => {
      const b = req.body as Body;
      return ok(await this.addLabel(Number(req.params.number), String(b.label), String(b.by)));
    });
    r.on('POST', '/_fake/pulls/:number/comments', async (req) => {
      const b = req.body as Body;
      return ok(await this.commentOn(Number(req.params.number), String(b.by), String(b.body)));
    });
    r.on('GET', '/_fake/pulls/:number/comments', (req) => ok(this.commentsOn(Number(req.params.number))));
    r.on('GET', '/_fake/check-runs/:sha', (req) => ok(this.checkRunsFor(req.params.sha!)));
    r.on('PUT', '/_fake/permissions/:login', (req) => {
      this.setPermission(req.params.login!, String((req.body as Body).permission) as Permission);
      return ok({ login: req.params.login, permission: this.permissions.get(req.params.login!) });
    });
    r.on('PUT', '/_fake/rate-limit', (req) => {
      const until = (req.body as Body).until;
      this.rateLimitedUntil = typeof until === 'number' ? until : null;
      return ok({ rateLimitedUntil: this.rateLimitedUntil });
    });
    r.on('POST', '/_fake/revoke/:login', (req) => {
      this.revokeTokensOf(req.params.login!);
      return ok({ revoked: req.params.login });
    });
    r.on('GET', '/_fake/forks', () => ok([...this.forks.keys()]));
    r.on('PUT', '/_fake/browser-user', (req) => {
      const login = (req.body as Body).login;
      this.browserUser = typeof login === 'string' && login ? login : null;
      return ok({ browserUser: this.browserUser });
    });
    r.on('PUT', '/_fake/webhook', (req) => {
      const b = req.body as Body;
      this.webhook = b.url ? { url: String(b.url), secret: String(b.secret ?? '') } : undefined;
      return ok({ webhook: this.webhook ? { url: this.webhook.url } : null });
    });
  }
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function hashId(login: string): number {
  let h = 7;
  for (const ch of login) h = (h * 31 + ch.charCodeAt(0)) % 1_000_000_007;
  return h;
}
