/**
 * The orders a run's results can be read in, one vocabulary each: the query orders by it, the
 * view model lists its choices, the URL (`?sort=`) is parsed with it.
 */
import { z } from 'zod';

/** The run page's heatmap of prompts: the blueprint's order, or by the mean over models. */
export const HeatmapSortSchema = z.enum(['position', 'hardest', 'easiest']);
export type HeatmapSort = z.infer<typeof HeatmapSortSchema>;
export const DEFAULT_HEATMAP_SORT: HeatmapSort = 'position';

/** One model's prompts on a run: its weakest first by default. */
export const RunModelSortSchema = z.enum(['weakest', 'strongest', 'position']);
export type RunModelSort = z.infer<typeof RunModelSortSchema>;
export const DEFAULT_RUN_MODEL_SORT: RunModelSort = 'weakest';
