/**
 * Every address a reader can follow or share, built in one place. Model ids carry ':' and
 * '/' (`openrouter:openai/gpt-4o`), so they travel as several path segments, each
 * percent-encoded: readable, and safe whether or not the router decodes `%2F`.
 */

import { DEFAULT_HEATMAP_SORT, DEFAULT_RUN_MODEL_SORT, type HeatmapSort, type RunModelSort } from '@/lib/core';

const seg = (s: string) => encodeURIComponent(s);

function query(params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** A model id as path segments: `openrouter:openai/gpt-4o` → `openrouter%3Aopenai/gpt-4o`. */
export function modelPath(modelId: string): string {
  return modelId.split('/').map(seg).join('/');
}

/** Decodes a path segment that the router may or may not have decoded already. */
export function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The model id from the segments of a catch-all route (`[...modelId]`). */
export function modelIdFromSegments(segments: readonly string[]): string {
  return segments.map(decodeSegment).join('/');
}

export type RunView = 'prompts' | 'models' | 'points';

export const href = {
  home: (tag?: string | null) => `/${query({ tag })}`,
  /** The leaderboard of people's pairwise preferences (the home page's second board). */
  peopleBoard: () => `/${query({ board: 'people' })}#leaderboard-h`,
  /** A blueprint's "Judges checked against people" section. */
  blueprintCalibration: (id: string) => `/blueprints/${seg(id)}#human-calibration`,
  review: (blueprintId?: string) => (blueprintId ? `/review/${seg(blueprintId)}` : '/review'),
  reviewPairs: (blueprintId: string) => `/review/${seg(blueprintId)}/pairs`,
  blueprint: (id: string, params: { page?: number } = {}) => `/blueprints/${seg(id)}${query({ page: params.page && params.page > 1 ? params.page : null })}`,
  blueprintSource: (id: string) => `/blueprints/${seg(id)}/source`,
  /** The browser editor, starting from a copy of that blueprint's source (sealed prompts taken out). */
  editCopy: (id: string) => `/author${query({ from: id })}`,
  run: (runId: string, params: { view?: RunView; page?: number; sort?: HeatmapSort } = {}) =>
    `/runs/${seg(runId)}${query({
      view: params.view && params.view !== 'prompts' ? params.view : null,
      sort: params.sort && params.sort !== DEFAULT_HEATMAP_SORT ? params.sort : null,
      page: params.page && params.page > 1 ? params.page : null,
    })}`,
  prompt: (runId: string, promptKey: string, params: { model?: string | null; compare?: number; grid?: number } = {}) =>
    `/runs/${seg(runId)}/prompts/${seg(promptKey)}${query({ model: params.model, compare: params.compare && params.compare > 1 ? params.compare : null, grid: params.grid ?? null })}`,
  /** A prompt × model cell: the prompt page focused on that model's reply. */
  cell: (runId: string, promptKey: string, modelId: string) => `${href.prompt(runId, promptKey, { model: modelId })}#cell`,
  pointAnchor: (runId: string, promptKey: string, pointIndex: number, modelId?: string | null) =>
    `${href.prompt(runId, promptKey, { model: modelId })}#point-${pointIndex}`,
  point: (runId: string, promptKey: string, pointIndex: number, params: { page?: number } = {}) =>
    `/runs/${seg(runId)}/prompts/${seg(promptKey)}/points/${pointIndex}${query({ page: params.page && params.page > 1 ? params.page : null })}`,
  runModel: (runId: string, modelId: string, params: { page?: number; sort?: RunModelSort } = {}) =>
    `/runs/${seg(runId)}/models/${modelPath(modelId)}${query({ sort: params.sort && params.sort !== DEFAULT_RUN_MODEL_SORT ? params.sort : null, page: params.page && params.page > 1 ? params.page : null })}`,
  diff: (runId: string, otherRunId: string) => `/runs/${seg(runId)}/diff/${seg(otherRunId)}`,
  progress: (runId: string) => `/runs/${seg(runId)}/progress`,
  /** A run's records as a file (lib/server/exports/download.ts; the columns: docs/exports.md). */
  runExport: (runId: string, file: { table: 'replies' | 'verdicts' | 'attempts'; format: 'csv' | 'jsonl'; gzip?: boolean }) =>
    `/api/runs/${seg(runId)}/export${query({ table: file.table, format: file.format, gzip: file.gzip ? '1' : null })}`,
  /** A retrieval run's drill-down of one query (every model's ranking of it, or one model's). */
  retrievalQuery: (runId: string, queryId: string, params: { model?: string | null } = {}) => `/runs/${seg(runId)}/queries/${seg(queryId)}${query({ model: params.model })}`,
  progressApi: (runId: string) => `/api/runs/${seg(runId)}/progress`,
  model: (modelId: string) => `/models/${modelPath(modelId)}`,
  search: (q: string, params: { kind?: string; page?: number } = {}) =>
    `/search${query({ q, kind: params.kind && params.kind !== 'replies' ? params.kind : null, page: params.page && params.page > 1 ? params.page : null })}`,
};
