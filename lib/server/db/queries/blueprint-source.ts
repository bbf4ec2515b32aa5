/**
 * A blueprint's source file as stored at its latest version (the exact commit), with the
 * sealed prompts taken out (rebuilt from the parsed document: see redact-sealed.ts). A version's text never changes (it is content-addressed), so
 * the redacted text is kept per version in a small in-process cache: parsing a large file
 * on every view would cost more than the rest of the page. The parse runs in the untrusted-work
 * pool, never on the thread that answers pages; a file it stops (past 5 s or its memory) is
 * not shown, and not cached, so a later view tries again.
 */
import type { Db } from '../client';
import { sharedUntrustedPool, UNTRUSTED_TIME_LIMITS, UntrustedWorkStopped } from '../../untrusted/untrusted-pool';

export interface BlueprintSource {
  versionId: string;
  path: string;
  sourceCommit: string | null;
  /** Null when the file cannot be shown (it mentions sealed prompts but does not parse). */
  text: string | null;
  /** Whether `text` is the stored file itself (false: sealed prompts were taken out, or it cannot be shown). */
  verbatim: boolean;
}

const cache = new Map<string, string | null>();
const CACHE_SIZE = 32;

async function redacted(versionId: string, raw: string, path: string): Promise<string | null> {
  if (cache.has(versionId)) return cache.get(versionId) ?? null;
  let text: string | null;
  try {
    text = await sharedUntrustedPool().run('redact-sealed-source', { text: raw, file: path }, { what: `showing ${path}`, timeoutMs: UNTRUSTED_TIME_LIMITS.interactiveMs });
  } catch (e) {
    if (e instanceof UntrustedWorkStopped) return null;
    throw e;
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(versionId, text);
  return text;
}

export async function getBlueprintSource(db: Db, blueprintId: string): Promise<BlueprintSource | null> {
  const b = await db.blueprint.findUnique({
    where: { id: blueprintId },
    select: { latestVersion: { select: { id: true, rawText: true, path: true, sourceCommit: true } } },
  });
  const v = b?.latestVersion;
  if (!v) return null;
  const text = await redacted(v.id, v.rawText, v.path);
  return { versionId: v.id, path: v.path, sourceCommit: v.sourceCommit, text, verbatim: text === v.rawText };
}
