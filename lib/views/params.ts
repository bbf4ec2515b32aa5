/**
 * The query-string state of each page, parsed with zod. Anything malformed falls back to the
 * default (a shared link with a stale or mistyped parameter still opens the page).
 */
import { z } from 'zod';
import { DEFAULT_HEATMAP_SORT, DEFAULT_RUN_MODEL_SORT, HeatmapSortSchema, RunModelSortSchema } from '@/lib/core';

const page = z.coerce.number().int().min(1).max(100_000).catch(1);
const optionalString = z.string().min(1).max(500).optional().catch(undefined);

/** `board`: the rubric leaderboard (default) or people's pairwise ranking. */
export const HomeParams = z.object({ tag: optionalString, board: z.enum(['rubric', 'people']).optional().catch(undefined) });

/** A retrieval query's page: one model's ranking (`?model=`), or every model's. */
export const QueryParams = z.object({ model: optionalString });

/** A model id picked in a comparison form (ids carry ':' and '/'; only a bounded string is accepted). */
const modelId = z.string().min(1).max(300).optional().catch(undefined);

/** `a`, `b`: the two models of the comparison on the blueprint page. */
export const BlueprintParams = z.object({ page, a: modelId, b: modelId });

/** The compare page: two models on the overall board or on one tag's. */
export const CompareParams = z.object({ a: modelId, b: modelId, tag: optionalString });

/** The model page: `vs`, the model compared with it across the blueprints they share. */
export const ModelParams = z.object({ vs: modelId });

export const RunParams = z.object({
  view: z.enum(['prompts', 'models', 'points']).catch('prompts'),
  sort: HeatmapSortSchema.catch(DEFAULT_HEATMAP_SORT),
  page,
});

/**
 * `model`: the focused reply; `compare`: the page of other replies beside it; `grid`: the page of
 * models the points grid shows (absent: the page holding the focused model, else the first).
 */
export const PromptParams = z.object({ model: optionalString, compare: page, grid: z.coerce.number().int().min(1).max(100_000).optional().catch(undefined) });

/** A point's page: `page` of its verdicts, best first. */
export const PointParams = z.object({ page });

export const RunModelParams = z.object({ sort: RunModelSortSchema.catch(DEFAULT_RUN_MODEL_SORT), page });

/** A point's index in the path: a malformed one is a 404, not a fallback. */
export const PointIndex = z.coerce.number().int().min(0).max(10_000);

export const HEATMAP_PAGE_SIZE = 20;
/**
 * Cells one heatmap page holds at most: a cell is about 1 KB of the page (its HTML and the same
 * in the streamed payload), and 20 prompts of a 50-model run made a 1 MB page. A run of more
 * than 20 models shows fewer prompts a page (never fewer than 5).
 */
export const HEATMAP_MAX_CELLS = 400;

/** Prompts a heatmap page shows for a run of `models` models. */
export function heatmapPageSize(models: number): number {
  return Math.max(5, Math.min(HEATMAP_PAGE_SIZE, Math.floor(HEATMAP_MAX_CELLS / Math.max(1, models))));
}
/**
 * Cells the prompt page's points grid shows at most (a column per model; a row per point and one
 * for the prompt score). A cell is ~0.75 KB of the page (HTML and the same in the streamed
 * payload): 50 models × 11 rows made the grid 400 KB of a 590 KB page, beside four replies.
 */
export const PROMPT_GRID_MAX_CELLS = 250;

/** Models the points grid of a prompt with `points` points shows a page (never fewer than 5). */
export function promptGridModels(points: number): number {
  return Math.max(5, Math.floor(PROMPT_GRID_MAX_CELLS / (points + 1)));
}

/** Verdicts a point's page lists: each carries its reasoning and judges' answers (50 made a 660 KB page). */
export const POINT_VERDICTS_PAGE_SIZE = 20;
export const POINTS_PAGE_SIZE = 10;
export const RUN_MODEL_PAGE_SIZE = 50;
export const BLUEPRINT_PROMPTS_PAGE_SIZE = 50;
