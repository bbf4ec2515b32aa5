/**
 * `GET /api/v1/drift`: the stored drift checks between scheduled runs, as the drift page lists them
 * (db/queries/drift.ts: newest change first, flagged ones only unless `all`), a page at a time.
 * Their figures are the checks' stored ones; the prompts they name are visible ones only (the
 * check leaves sealed prompts out when it is made: runs/drift-check.ts).
 */
import type { z } from 'zod';
import type { Db } from '../db/client';
import { listDriftChecks } from '../db/queries/drift';
import { decodeCursor, DriftCursor, encodeCursor } from './cursor';
import type { DriftQuery } from './params';
import type { DriftListAnswer } from './schemas';

export async function readDrift(db: Db, query: z.infer<typeof DriftQuery>): Promise<z.infer<typeof DriftListAnswer>> {
  // a cursor names its filters: one walked under other filters is refused, not misread
  const list = `drift:${query.blueprint_id ?? ''}:${query.model_id ?? ''}:${query.all}`;
  const offset = decodeCursor(list, DriftCursor, query.cursor)?.offset ?? 0;
  // one more than the page: whether a next page exists, without counting the filtered list
  const found = await listDriftChecks(db, { blueprintId: query.blueprint_id, modelId: query.model_id, all: query.all }, query.limit + 1, offset);
  const checks = found.checks.slice(0, query.limit);
  return {
    total: found.total,
    flagged: found.flagged,
    items: checks.map((c) => ({
      id: c.id,
      blueprint_id: c.blueprintId,
      blueprint_title: c.blueprintTitle,
      model_id: c.modelId,
      from_run_id: c.fromRunId,
      from_run_at: c.fromRunAt.toISOString(),
      to_run_id: c.toRunId,
      to_run_at: c.toRunAt.toISOString(),
      paired: c.paired,
      difference: c.difference,
      ci_low: c.ciLow,
      ci_high: c.ciHigh,
      mde: c.mde,
      flagged: c.flagged,
      reason: c.reason,
      served_model_before: c.servedModelBefore,
      served_model_after: c.servedModelAfter,
      fingerprint_before: c.fingerprintBefore,
      fingerprint_after: c.fingerprintAfter,
      served_changed: c.servedChanged,
      moved: c.moved.map((m) => ({ prompt_key: m.promptKey, before: m.before, after: m.after, delta: m.delta })),
      created_at: c.createdAt.toISOString(),
    })),
    next_cursor: found.checks.length > query.limit ? encodeCursor(list, { offset: offset + query.limit }) : null,
  };
}
