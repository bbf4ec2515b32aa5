/**
 * The fake GitHub's object store: real git objects (blobs, trees, commits) with real SHA-1
 * ids, so blob SHAs behave as on GitHub: the same content has the same SHA, and a changed
 * file gets a new one. That is what an incremental sync relies on.
 */
import { createHash } from 'node:crypto';

export type FileChanges = Record<string, string | null>;

export interface TreeEntry {
  path: string;
  mode: '100644' | '040000';
  type: 'blob' | 'tree';
  sha: string;
  size?: number;
}

export interface Commit {
  sha: string;
  treeSha: string;
  parents: string[];
  message: string;
  author: string;
  date: string;
  /** path → blob SHA of every file in the commit (kept flat for diffs and lookups). */
  files: Map<string, string>;
}

function gitSha(kind: 'blob' | 'tree' | 'commit', body: Buffer): string {
  return createHash('sha1').update(`${kind} ${body.length}\0`).update(body).digest('hex');
}

export class GitStore {
  readonly blobs = new Map<string, Buffer>();
  /** tree SHA → its direct entries (names, not paths). */
  private readonly trees = new Map<string, TreeEntry[]>();
  readonly commits = new Map<string, Commit>();
  /** branch name → commit SHA */
  readonly branches = new Map<string, string>();
  private clock = Date.UTC(2025, 0, 1);

  writeBlob(content: string | Buffer): string {
    const body = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const sha = gitSha('blob', body);
    this.blobs.set(sha, body);
    return sha;
  }

  /** Builds the nested trees of a flat file map and returns the root tree's SHA. */
  private writeTrees(files: Map<string, string>): string {
    const root: Dir = new Map();
    for (const [path, sha] of files) {
      const parts = path.split('/');
      let dir = root;
      for (const part of parts.slice(0, -1)) {
        let next = dir.get(part);
        if (!(next instanceof Map)) {
          next = new Map();
          dir.set(part, next);
        }
        dir = next;
      }
      dir.set(parts.at(-1)!, sha);
    }
    return this.writeDir(root);
  }

  private writeDir(dir: Dir): string {
    const entries: TreeEntry[] = [];
    for (const [name, value] of dir) {
      if (value instanceof Map) entries.push({ path: name, mode: '040000', type: 'tree', sha: this.writeDir(value) });
      else entries.push({ path: name, mode: '100644', type: 'blob', sha: value, size: this.blobs.get(value)?.length ?? 0 });
    }
    // git orders entries by name, a directory compared as if its name ended in '/'
    const key = (e: TreeEntry) => (e.type === 'tree' ? `${e.path}/` : e.path);
    entries.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    const body = Buffer.concat(
      entries.flatMap((e) => [Buffer.from(`${e.type === 'tree' ? '40000' : '100644'} ${e.path}\0`), Buffer.from(e.sha, 'hex')]),
    );
    const sha = gitSha('tree', body);
    this.trees.set(sha, entries);
    return sha;
  }

  /** Commits `changes` (path → new text, or null to delete) on top of `branch`, moving it. */
  commit(branch: string, changes: FileChanges, message: string, author = 'fake-author', from?: string): Commit {
    const parentSha = from ?? this.branches.get(branch);
    const parent = parentSha ? this.commits.get(parentSha) : undefined;
    const files = new Map(parent?.files ?? []);
    for (const [path, text] of Object.entries(changes)) {
      if (text === null) files.delete(path);
      else files.set(path, this.writeBlob(text));
    }
    const treeSha = this.writeTrees(files);
    this.clock += 60_000;
    const date = new Date(this.clock).toISOString();
    const stamp = `${author} <${author}@users.noreply.github.com> ${Math.floor(this.clock / 1000)} +0000`;
    const body = Buffer.from(
      `tree ${treeSha}\n${parent ? `parent ${parent.sha}\n` : ''}author ${stamp}\ncommitter ${stamp}\n\n${message}\n`,
    );
    const commit: Commit = { sha: gitSha('commit', body), treeSha, parents: parent ? [parent.sha] : [], message, author, date, files };
    this.commits.set(commit.sha, commit);
    this.branches.set(branch, commit.sha);
    return commit;
  }

  /** A branch name, `heads/<branch>`, `refs/heads/<branch>` or a commit SHA → the commit. */
  resolve(ref: string): Commit | undefined {
    const name = ref.replace(/^refs\//, '').replace(/^heads\//, '');
    const sha = this.branches.get(name) ?? ref;
    return this.commits.get(sha);
  }

  /** A tree's entries; recursive lists every descendant with its full path, as GitHub does. */
  listTree(treeSha: string, recursive: boolean, prefix = ''): TreeEntry[] | undefined {
    const entries = this.trees.get(treeSha);
    if (!entries) return undefined;
    const out: TreeEntry[] = [];
    for (const e of entries) {
      const path = prefix ? `${prefix}/${e.path}` : e.path;
      out.push({ ...e, path });
      if (recursive && e.type === 'tree') out.push(...(this.listTree(e.sha, true, path) ?? []));
    }
    return out;
  }

  /** The files of a commit under `dir` (a directory listing for the contents API). */
  directory(commit: Commit, dir: string): TreeEntry[] | undefined {
    let sha = commit.treeSha;
    for (const part of dir.split('/').filter(Boolean)) {
      const next = this.trees.get(sha)?.find((e) => e.path === part && e.type === 'tree');
      if (!next) return undefined;
      sha = next.sha;
    }
    return this.listTree(sha, false, dir.replace(/\/$/, ''));
  }
}

type Dir = Map<string, Dir | string>;
