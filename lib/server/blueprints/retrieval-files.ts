/**
 * Reads a retrieval blueprint's three data files (corpus, queries, qrels) through a reader
 * the caller gives (the CLI reads the disk, the GitHub sync reads blobs at the synced commit)
 * and checks them with lib/core's `parseRetrievalFiles`. Paths are the block's, relative to
 * the blueprint's directory; one that leaves the repository (`../../etc/passwd`, or an
 * absolute path) is refused before anything is read, since blueprints are untrusted.
 *
 * `contentHash` identifies the three files' bytes for the run identity: a changed qrels line
 * is a different run, as a changed prompt is.
 */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { embeddingLimitIssues } from './embedding-input-limits';
import { readConfinedText } from './confined-file';
import { parseRetrievalFiles, RETRIEVAL_LIMITS, type BlueprintIssue, type RetrievalBlock, type RetrievalData, type RetrievalLimits } from '@/lib/core';

export type LoadRetrievalFilesResult = { ok: true; data: RetrievalData; contentHash: string; warnings: BlueprintIssue[]; paths: RetrievalFilePaths } | { ok: false; issues: BlueprintIssue[] };

export interface RetrievalFilePaths {
  corpus: string;
  queries: string;
  qrels: string;
}

const ROLES = ['corpus', 'queries', 'qrels'] as const;

/**
 * `blueprints/retrieval/x.yml` + `data/corpus.jsonl` → `blueprints/retrieval/data/corpus.jsonl`;
 * null when the result would leave the repository root.
 */
export function resolveRetrievalPath(blueprintPath: string, written: string): string | null {
  const slashed = written.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:\//.test(slashed) || slashed.includes('\0')) return null;
  const joined = posix.normalize(posix.join(posix.dirname(blueprintPath.replace(/\\/g, '/')), slashed));
  if (joined === '..' || joined.startsWith('../') || joined.startsWith('/') || joined === '.') return null;
  return joined;
}

/**
 * The reader for data files in a folder on disk (the CLI, the local source): kept inside `root`
 * after symlinks are resolved, regular files only, at most the data-file limit each.
 */
export function folderDataReader(root: string, limits: Pick<RetrievalLimits, 'maxFileBytes'> = RETRIEVAL_LIMITS): (repoRelativePath: string) => Promise<string> {
  return (path) => readConfinedText(root, path, limits.maxFileBytes);
}

/** sha256 over the three files, each length-prefixed so that no two triples hash alike. */
export function retrievalContentHash(texts: { corpus: string; queries: string; qrels: string }): string {
  const hash = createHash('sha256');
  for (const role of ROLES) {
    const bytes = Buffer.from(texts[role], 'utf8');
    hash.update(`${role}:${bytes.length}:`);
    hash.update(bytes);
  }
  return hash.digest('hex');
}

export async function loadRetrievalFiles(
  block: RetrievalBlock,
  blueprintPath: string,
  readText: (repoRelativePath: string) => Promise<string>,
  limits: RetrievalLimits = RETRIEVAL_LIMITS,
): Promise<LoadRetrievalFilesResult> {
  const issues: BlueprintIssue[] = [];
  const paths: Partial<RetrievalFilePaths> = {};
  for (const role of ROLES) {
    const resolved = resolveRetrievalPath(blueprintPath, block[role]);
    if (resolved === null) {
      issues.push(blueprintIssue(blueprintPath, `the ${role} path ${JSON.stringify(block[role])} leaves the repository`, `Put the file beside the blueprint (or below it) and write a relative path such as \`${role}: ${role}.jsonl\`.`));
    } else paths[role] = resolved;
  }
  if (issues.length > 0) return { ok: false, issues };
  const texts: Partial<Record<(typeof ROLES)[number], string>> = {};
  await Promise.all(
    ROLES.map(async (role) => {
      try {
        texts[role] = await readText(paths[role]!);
      } catch (error) {
        issues.push(blueprintIssue(blueprintPath, `the ${role} file ${JSON.stringify(block[role])} (${paths[role]}) cannot be read: ${error instanceof Error ? error.message : String(error)}`, `Check the path: it is relative to the blueprint's folder.`));
      }
    }),
  );
  if (issues.length > 0) return { ok: false, issues };
  const full = paths as RetrievalFilePaths;
  const sources = Object.fromEntries(ROLES.map((role) => [role, { path: full[role], text: texts[role]! }])) as Record<(typeof ROLES)[number], { path: string; text: string }>;
  const parsed = parseRetrievalFiles(sources, limits);
  if (!parsed.ok) return parsed;
  const tooLong = await embeddingLimitIssues(block, parsed.data, sources);
  if (tooLong.length > 0) return { ok: false, issues: tooLong };
  return { ok: true, data: parsed.data, contentHash: retrievalContentHash(texts as Record<(typeof ROLES)[number], string>), warnings: parsed.warnings, paths: full };
}

function blueprintIssue(file: string, message: string, hint: string): BlueprintIssue {
  return { severity: 'error', code: 'schema', file, line: 1, col: 1, message, hint };
}
