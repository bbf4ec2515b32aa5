/**
 * Many files of a repository in one request: GitHub's repository archive ("Download a
 * repository archive (tar)", GET /repos/{owner}/{repo}/tarball/{ref}, a 302 to codeload.github.com;
 * GitHub's REST description, npm @octokit/openapi) is a gzipped tar whose entries sit under one
 * top folder (`owner-repo-sha/`). Reading a first sync's 200 blueprints from it costs one REST
 * request instead of 200 blob requests, which matters most with GitHub's 60 requests an hour
 * for an unauthenticated client. Each file taken from it must hash to the blob SHA the tree
 * listing gave (Git's blob id: SHA-1 of `blob <size>\0<bytes>`), so content identity is kept.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';

/** Git's blob id of some bytes: what a tree listing calls the file's `sha`. */
export function gitBlobShaOf(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/**
 * The texts of the wanted files (path → blob SHA) found in a `.tar.gz` archive, by blob SHA.
 * A file missing from the archive or whose bytes do not hash to its SHA is left out (the caller
 * then reads that blob on its own).
 */
export async function blobsFromArchive(archive: Uint8Array, wanted: ReadonlyMap<string, string>): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const entries = extract();
  Readable.from([Buffer.from(archive)]).pipe(createGunzip()).on('error', (e) => entries.destroy(e)).pipe(entries);
  for await (const entry of entries) {
    // the first path segment is the archive's top folder
    const path = entry.header.name.split('/').slice(1).join('/');
    const sha = entry.header.type === 'file' ? wanted.get(path) : undefined;
    if (!sha) {
      entry.resume();
      continue;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    if (gitBlobShaOf(bytes) === sha) found.set(sha, bytes.toString('utf8'));
  }
  return found;
}
