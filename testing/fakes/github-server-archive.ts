/**
 * The fake GitHub's repository archive, as GitHub's REST description has it ("Download a
 * repository archive (tar)", GET /repos/{owner}/{repo}/tarball/{ref}, npm @octokit/openapi):
 * the API answers 302 with a `Location` on codeload.github.com, a separate download host outside
 * the REST API (so it spends none of the rate limit; the fake serves it under `/_codeload/`).
 * The archive is a gzipped tar whose entries sit under one top folder `{owner}-{repo}-{sha7}/`,
 * as GitHub's are.
 */
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import type { Commit, GitStore } from './github-server-git';
import { notFound, type FakeReply, type FakeRequest, type Router } from './github-server-http';

type Guarded = (handler: (req: FakeRequest) => FakeReply | Promise<FakeReply>) => (req: FakeRequest) => FakeReply | Promise<FakeReply>;

export function archiveRoutes(r: Router, repoPath: string, inRepo: Guarded, git: GitStore): void {
  r.on('GET', `${repoPath}/tarball/*ref`, inRepo((req) => {
    const c = git.resolve(req.params.ref!);
    if (!c) return notFound();
    return { status: 302, headers: { location: `${req.origin}/_codeload/${req.params.owner}/${req.params.repo}/legacy.tar.gz/${c.sha}` } };
  }));
  r.on('GET', '/_codeload/:owner/:repo/legacy.tar.gz/:sha', async (req) => {
    const c = git.commits.get(req.params.sha!);
    if (!c) return notFound();
    return { status: 200, headers: { 'content-type': 'application/x-gzip' }, body: await tarGz(git, c, `${req.params.owner}-${req.params.repo}-${c.sha.slice(0, 7)}`) };
  });
}

async function tarGz(git: GitStore, c: Commit, top: string): Promise<Buffer> {
  const tar = pack();
  const chunks: Buffer[] = [];
  tar.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
  const ended = new Promise<void>((done, fail) => {
    tar.on('end', () => done());
    tar.on('error', fail);
  });
  for (const [path, sha] of [...c.files].sort(([a], [b]) => a.localeCompare(b))) {
    tar.entry({ name: `${top}/${path}`, mode: 0o644 }, git.blobs.get(sha)!);
  }
  tar.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}
