/**
 * Stores one blueprint file as read from a source: the blueprint row (id from path), its
 * version (deduplicated by content hash), the version's prompts, and the pointer to the
 * latest version. Idempotent: storing the same content again changes nothing.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../client';
import { storableText, storedPoint, StoredPointsSchema, type Blueprint, type BlueprintIssue } from '@/lib/core';
import { Prisma } from '@/generated/prisma/client';
import { retryOnUniqueViolation } from '../unique-retry';

export interface BlueprintFile {
  /** Path inside the source, e.g. `weval/en/greetings.yml`. */
  path: string;
  rawText: string;
  sourceCommit: string | null;
  blobSha: string | null;
}

export type ParsedFile = { ok: true; blueprint: Blueprint } | { ok: false; errors: BlueprintIssue[] };

export const PARSER_VERSION = 'assay-1';

export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export interface StoredVersion {
  blueprintId: string;
  versionId: string;
  /** False when this exact content was already stored. */
  created: boolean;
}

export interface StoreOptions {
  /**
   * Default true: the version becomes the blueprint's latest and the blueprint row takes its
   * metadata. False stores a version that is not at the source's head (a pull request's):
   * the latest pointer and metadata stay, and a blueprint that did not exist yet is created
   * hidden (removedAt set) until a sync finds it on the branch.
   */
  publish?: boolean;
}

const STORE_TIMEOUT_MS = 60_000;

export async function storeBlueprintVersion(
  db: Db,
  sourceId: string,
  blueprintId: string,
  file: BlueprintFile,
  parsed: ParsedFile,
  options: StoreOptions = {},
): Promise<StoredVersion> {
  const publish = options.publish ?? true;
  const hash = contentHash(file.rawText);
  const bp = parsed.ok ? parsed.blueprint : null;
  const meta = {
    path: file.path,
    title: bp?.title || blueprintId,
    description: bp?.description ?? null,
    tags: bp?.tags ?? [],
    author: bp?.author == null ? Prisma.DbNull : (bp.author as Prisma.InputJsonValue),
    promptCount: bp?.prompts.length ?? 0,
    removedAt: null,
  };
  // Prisma's default 5 s is not enough for a blueprint of hundreds of prompts on a busy machine
  // (the 500-prompt page benchmark's blueprint took 8 s); the transaction holds one blueprint's rows.
  // Two processes storing the same file at once (two `assay run` on a fresh database) both see
  // no row and both insert; the loser retries and finds the winner's rows.
  return retryOnUniqueViolation(() => db.$transaction(async (tx) => {
    await tx.blueprint.upsert({
      where: { id: blueprintId },
      create: { id: blueprintId, sourceId, ...meta, removedAt: publish ? null : new Date() },
      update: publish ? { sourceId, ...meta } : {},
    });
    const existing = await tx.blueprintVersion.findUnique({
      where: { blueprintId_contentHash: { blueprintId, contentHash: hash } },
      select: { id: true },
    });
    let versionId = existing?.id;
    if (!versionId) {
      const version = await tx.blueprintVersion.create({
        data: {
          blueprintId,
          contentHash: hash,
          sourceCommit: file.sourceCommit,
          blobSha: file.blobSha,
          path: file.path,
          // a rejected file may hold text PostgreSQL refuses (a NUL): stored with U+FFFD, hashed as read
          rawText: storableText(file.rawText),
          normalized: bp ? (bp as unknown as Prisma.InputJsonValue) : Prisma.DbNull,
          validationErrors: parsed.ok ? [] : (parsed.errors as unknown as Prisma.InputJsonValue),
          valid: parsed.ok,
          parserVersion: PARSER_VERSION,
          promptCount: bp?.prompts.length ?? 0,
        },
        select: { id: true },
      });
      versionId = version.id;
      if (bp) {
        await tx.versionPrompt.createMany({
          data: bp.prompts.map((p, position) => ({
            versionId: version.id,
            promptKey: p.id,
            position,
            messages: p.messages as unknown as Prisma.InputJsonValue,
            system: p.system,
            ideal: p.ideal,
            weight: p.weight,
            citation: p.citation,
            split: p.split,
            status: p.status,
            category: p.category,
            // a question point keeps its labels in written order (JSONB reorders object keys)
            points: StoredPointsSchema.parse(p.points.map(storedPoint)) as unknown as Prisma.InputJsonValue,
            pointCount: p.points.length,
            repeats: p.repeats,
          })),
          skipDuplicates: true,
        });
      }
    }
    if (publish) await tx.blueprint.update({ where: { id: blueprintId }, data: { latestVersionId: versionId } });
    return { blueprintId, versionId, created: !existing };
  }, { timeout: STORE_TIMEOUT_MS }));
}
