/**
 * A blueprint's source file as stored at its latest version (the exact commit), with the
 * sealed prompts taken out (rebuilt from the parsed document: see redact-sealed.ts). A version's text never changes (it is content-addressed), so
 * the redacted text is kept per version in a small in-process cache: parsing a large file
 * on every view would cost more than the rest of the page.
 */
import type { Db } from '../client';
import { redactSealedSource } from './redact-sealed';

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

function redacted(versionId: string, raw: string, path: string): string | null {
  if (cache.has(versionId)) return cache.get(versionId) ?? null;
  const text = redactSealedSource(raw, path);
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
  const text = redacted(v.id, v.rawText, v.path);
  return { versionId: v.id, path: v.path, sourceCommit: v.sourceCommit, text, verbatim: text === v.rawText };
}
