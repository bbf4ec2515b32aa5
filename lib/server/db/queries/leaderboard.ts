/**
 * What the leaderboards read: each model's score on each live blueprint from that
 * blueprint's latest completed run in which the model scored (blueprint_model_summaries, maintained by the run
 * summariser), with that run's cost, prompt count and median latency for the model
 * (run_model_summaries). One row per blueprint × model; the aggregation is a pure view model.
 *
 * `getBoard` adds the prompt scores behind every row (run_cell_summaries of the row's run,
 * weighted as that run's blueprint version weighs them), which the hierarchical bootstrap and
 * the paired tests of the tied bands need, in the same single round trip (a json_agg per row).
 * The prompts come in blueprint order, so the sums behind a board are made in the same order on
 * every read (floating-point sums in another order differ in the last bits).
 * Sealed prompts count in the statistics as they count in the scores, but their keys never leave
 * the database: each is replaced by a hash, stable across models, so pairs still match.
 */
import { Prisma } from '@/generated/prisma/client';
import type { Db } from '../client';
import { SEALED_SPLIT } from './sealed';
import { unpricedModelIds } from '../../providers';

export interface LeaderboardRow {
  blueprintId: string;
  blueprintTitle: string;
  tags: string[];
  modelId: string;
  runId: string;
  score: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  errorCount: number;
  judgedVerdicts: number;
  judgedScored: number;
  deterministicVerdicts: number;
  deterministicScored: number;
  /** The run's cost for this model (USD), its prompt count and median reply latency; null when the run has no summary. */
  costUsd?: number | null;
  promptCount?: number | null;
  latencyMsP50?: number | null;
}

/** One model's score on one prompt of a leaderboard row's run. */
export interface BoardPromptCell {
  blueprintId: string;
  modelId: string;
  runId: string;
  /** The prompt key, or `sealed-<hash>` for a sealed prompt (never shown, never linked). */
  promptKey: string;
  weight: number;
  score: number | null;
  sealed: boolean;
}

interface RawRow extends LeaderboardRow {
  cells: [string, number | null, number, boolean][] | null;
}

async function boardRows(db: Db, opts: { modelIds?: readonly string[]; blueprintId?: string; withCells: boolean }): Promise<RawRow[]> {
  const models = opts.modelIds ? Prisma.sql`AND s.model_id IN (${Prisma.join(opts.modelIds.length ? [...opts.modelIds] : [''])})` : Prisma.empty;
  const blueprint = opts.blueprintId ? Prisma.sql`AND s.blueprint_id = ${opts.blueprintId}` : Prisma.empty;
  const cells = opts.withCells
    ? Prisma.sql`(SELECT json_agg(json_build_array(
           CASE WHEN vp.split = ${SEALED_SPLIT} THEN 'sealed-' || md5(c.prompt_key) ELSE c.prompt_key END,
           c.score, vp.weight, vp.split = ${SEALED_SPLIT}) ORDER BY vp.position, c.prompt_key)
         FROM run_cell_summaries c
         JOIN version_prompts vp ON vp.version_id = r.version_id AND vp.prompt_key = c.prompt_key
         WHERE c.run_id = s.run_id AND c.model_id = s.model_id)`
    : Prisma.sql`NULL::json`;
  return db.$queryRaw<RawRow[]>`
    SELECT s.blueprint_id AS "blueprintId", b.title AS "blueprintTitle", b.tags, s.model_id AS "modelId", s.run_id AS "runId",
           s.score, s.ci_low AS "ciLow", s.ci_high AS "ciHigh", s.error_count AS "errorCount",
           s.judged_verdicts AS "judgedVerdicts", s.judged_scored AS "judgedScored",
           s.deterministic_verdicts AS "deterministicVerdicts", s.deterministic_scored AS "deterministicScored",
           m.cost_usd AS "costUsd", m.prompt_count AS "promptCount", m.latency_ms_p50 AS "latencyMsP50",
           ${cells} AS cells
    FROM blueprint_model_summaries s
    JOIN blueprints b ON b.id = s.blueprint_id AND b.removed_at IS NULL
    JOIN runs r ON r.id = s.run_id
    LEFT JOIN run_model_summaries m ON m.run_id = s.run_id AND m.model_id = s.model_id
    WHERE TRUE ${models} ${blueprint}
    ORDER BY s.blueprint_id, s.model_id
    LIMIT 100000`;
}

/**
 * A model priced nowhere (providers/cost.ts) has a summed cost of $0 only because its calls were not
 * counted: its cost is unknown (null, shown as "—"), never free.
 */
const plain = ({ cells: _cells, ...row }: RawRow): LeaderboardRow => (unpricedModelIds([row.modelId]).length ? { ...row, costUsd: null } : row);

export async function getLeaderboardRows(db: Db, opts: { modelId?: string } = {}): Promise<LeaderboardRow[]> {
  return (await boardRows(db, { modelIds: opts.modelId ? [opts.modelId] : undefined, withCells: false })).map(plain);
}

export interface Board {
  rows: LeaderboardRow[];
  prompts: BoardPromptCell[];
}

/**
 * The rows and the prompt scores behind them, in one query; `modelIds` / `blueprintId` narrow
 * it (a two-model comparison, one blueprint).
 */
export async function getBoard(db: Db, opts: { modelIds?: readonly string[]; blueprintId?: string } = {}): Promise<Board> {
  const raw = await boardRows(db, { ...opts, withCells: true });
  const prompts: BoardPromptCell[] = [];
  for (const r of raw) {
    for (const [promptKey, score, weight, sealed] of r.cells ?? []) prompts.push({ blueprintId: r.blueprintId, modelId: r.modelId, runId: r.runId, promptKey, score, weight, sealed });
  }
  return { rows: raw.map(plain), prompts };
}

/** Display names of models, for labels. */
export async function getModelNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.model.findMany({ where: { id: { in: ids } }, select: { id: true, displayName: true } });
  return new Map(rows.map((r) => [r.id, r.displayName]));
}
