/**
 * GET /api/v1/blueprints and /api/v1/blueprints/{id}: the home page's list of blueprints a page
 * at a time, and one blueprint as its page shows it, with its stored versions and recent runs.
 * A draft (try-it) blueprint and every draft run are left out: the public sees neither.
 */
import type { z } from 'zod';
import type { Db } from '../db/client';
import { getBlueprintDetail, getBlueprintVersions } from '../db/queries/blueprint-detail';
import { listBlueprints } from '../db/queries/blueprint-list';
import { getBlueprintRuns } from '../db/queries/blueprint-runs';
import { NotFoundError } from '../http/errors';
import { blueprintVisibleTo } from '../runs/draft-visibility';
import { BlueprintCursor, decodeCursor, encodeCursor } from './cursor';
import type { BlueprintAnswer, BlueprintListAnswer } from './schemas';

export async function readBlueprints(db: Db, page: { limit: number; cursor?: string }): Promise<z.infer<typeof BlueprintListAnswer>> {
  const after = decodeCursor('blueprints', BlueprintCursor, page.cursor);
  // one more than the page: whether it exists says if there is a next page, with no count query
  const rows = await listBlueprints(db, { limit: page.limit + 1, after });
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return {
    items: items.map((b) => ({
      id: b.id,
      title: b.title,
      description: b.description,
      tags: b.tags,
      prompt_count: b.promptCount,
      retrieval: b.retrieval,
      valid: b.valid,
      error_count: b.errorCount,
      updated_at: b.updatedAt.toISOString(),
    })),
    next_cursor: rows.length > page.limit && last ? encodeCursor('blueprints', { title: last.title, id: last.id }) : null,
  };
}

const noBlueprint = (id: string) => new NotFoundError(`No blueprint ${id}: GET /api/v1/blueprints lists them.`);

export async function readBlueprint(db: Db, id: string): Promise<z.infer<typeof BlueprintAnswer>> {
  if (!(await blueprintVisibleTo(db, id, null))) throw noBlueprint(id);
  const detail = await getBlueprintDetail(db, id, { promptPageSize: 1 });
  if (!detail) throw noBlueprint(id);
  const [versions, history] = await Promise.all([getBlueprintVersions(db, id), getBlueprintRuns(db, id, { limit: 30 })]);
  const runs = history.runs.filter((r) => !r.draft);
  const v = detail.latestVersion;
  return {
    id: detail.id,
    title: detail.title,
    description: detail.description,
    tags: detail.tags,
    path: detail.path,
    removed: detail.removedAt !== null,
    source: { kind: detail.source.kind, owner: detail.source.owner, repo: detail.source.repo, branch: detail.source.branch },
    latest_version: v
      ? {
          id: v.id,
          valid: v.valid,
          validation_error_count: Array.isArray(v.validationErrors) ? v.validationErrors.length : 0,
          source_commit: v.sourceCommit,
          created_at: v.createdAt.toISOString(),
          visible_prompt_count: detail.visibleCount,
          sealed_prompt_count: detail.sealedCount,
        }
      : null,
    versions: versions.map((x) => ({
      id: x.id,
      content_hash: x.contentHash,
      source_commit: x.sourceCommit,
      path: x.path,
      valid: x.valid,
      prompt_count: x.promptCount,
      created_at: x.createdAt.toISOString(),
    })),
    runs: runs.map((r) => ({
      id: r.id,
      status: r.status,
      trigger: r.trigger,
      version_id: r.versionId,
      source_commit: r.sourceCommit,
      created_at: r.createdAt.toISOString(),
      finished_at: r.finishedAt?.toISOString() ?? null,
    })),
    latest_completed_run_id: runs.find((r) => r.status === 'completed')?.id ?? null,
  };
}
