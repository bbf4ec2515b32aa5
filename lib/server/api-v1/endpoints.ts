/**
 * The table of the public API: each endpoint's path, what it answers, and its schemas. The routes
 * under app/api/v1 take their specs from here and the OpenAPI document (openapi.ts) is written from
 * it, so the two cannot list different endpoints or describe different fields.
 */
import { z } from 'zod';
import { runFreshness, type Freshness } from './caching';
import { BlueprintParams, DriftQuery, LeaderboardQuery, ModelParams, PageQuery, RunPairParams, RunParams } from './params';
import { BlueprintAnswer, BlueprintListAnswer, DriftListAnswer, LeaderboardAnswer, ModelAnswer, RetrievalBoardAnswer, RunAnswer, RunComparisonAnswer, RunPromptsAnswer } from './schemas';

export interface Endpoint<P, Q, R> {
  /** The path as the OpenAPI document writes it (`{name}` for a path parameter). */
  path: string;
  operationId: string;
  summary: string;
  description: string;
  params?: z.ZodType<P>;
  /** The path parameters as the document states them, when the route's schema reads another shape (a catch-all's segments). */
  docParams?: z.ZodObject;
  query?: z.ZodType<Q>;
  response: z.ZodType<R>;
  /** How long a cache may keep the answer (caching.ts). */
  freshness: (answer: R) => Freshness;
  /** The answer is one page of a list (`limit`, `cursor`, `next_cursor`). */
  paged?: boolean;
}

const endpoint = <P = undefined, Q = undefined, R = unknown>(e: Endpoint<P, Q, R>) => e;

export const OpenApiAnswer = z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) }).describe('This document.');

export const ENDPOINTS = {
  leaderboard: endpoint({
    path: '/api/v1/leaderboard',
    operationId: 'getLeaderboard',
    summary: 'The leaderboard',
    description:
      'The overall board (or one tag’s) as the home page shows it: each model’s mean score over the live blueprints, its interval, rank and statistically tied band. Read from the stored board, so the figures are the page’s.',
    query: LeaderboardQuery,
    response: LeaderboardAnswer,
    freshness: () => 'listing',
  }),
  retrievalLeaderboard: endpoint({
    path: '/api/v1/retrieval/leaderboard',
    operationId: 'getRetrievalLeaderboard',
    summary: 'The retrieval leaderboard',
    description:
      'Embedding models on the retrieval blueprints, as the home page’s retrieval board shows them: each blueprint’s primary metric from its latest completed run, with its stored interval over queries and the model’s status; models ordered by the mean over the blueprints they were scored on. `?tag=` for one tag’s blueprints.',
    query: LeaderboardQuery,
    response: RetrievalBoardAnswer,
    freshness: () => 'listing',
  }),
  blueprints: endpoint({
    path: '/api/v1/blueprints',
    operationId: 'listBlueprints',
    summary: 'Blueprints',
    description: 'The live blueprints, by title then id, a page at a time.',
    query: PageQuery,
    response: BlueprintListAnswer,
    freshness: () => 'listing',
    paged: true,
  }),
  blueprint: endpoint({
    path: '/api/v1/blueprints/{id}',
    operationId: 'getBlueprint',
    summary: 'One blueprint',
    description: 'A blueprint’s header, its latest version’s state, its stored versions and its recent runs.',
    params: BlueprintParams,
    response: BlueprintAnswer,
    freshness: () => 'listing',
  }),
  run: endpoint({
    path: '/api/v1/runs/{runId}',
    operationId: 'getRun',
    summary: 'One run',
    description: 'A run’s header (blueprint, version, status, models, counts, cost, timestamps) and its stored summary per model, with the interval each score rests on.',
    params: RunParams,
    response: RunAnswer,
    freshness: (r) => runFreshness(r.status),
  }),
  runPrompts: endpoint({
    path: '/api/v1/runs/{runId}/prompts',
    operationId: 'listRunPrompts',
    summary: 'A run’s prompts',
    description:
      'The run’s visible prompts by position, a page at a time, each with every model’s stored cell score. Sealed (held-out) prompts are counted in `sealed_count` and never listed. A running run’s list grows as prompts are graded: walk a completed run for a complete list.',
    params: RunParams,
    query: PageQuery,
    response: RunPromptsAnswer,
    freshness: (r) => runFreshness(r.run_status),
    paged: true,
  }),
  runComparison: endpoint({
    path: '/api/v1/runs/{runId}/compare/{otherRunId}',
    operationId: 'compareRuns',
    summary: 'Two runs compared',
    description:
      'Two runs of the same blueprint, older and newer by when they were requested (either order in the path): per model, each run’s stored score and the change over the prompts both scored (the drift check’s figure when one was stored); the visible cells that moved most. Runs of different blueprints answer 404.',
    params: RunPairParams,
    response: RunComparisonAnswer,
    freshness: (r) => (r.older.status === 'completed' && r.newer.status === 'completed' ? 'completed-run' : 'live'),
  }),
  model: endpoint({
    path: '/api/v1/models/{modelId}',
    operationId: 'getModel',
    summary: 'One model',
    description: 'A model’s place on the stored boards (overall and per tag), its result on each live blueprint, and its score in each completed run.',
    params: ModelParams,
    docParams: z.object({
      modelId: z.string().describe('The model id (e.g. `openai:gpt-4.1-mini`), percent-encoded as one segment; its own `/` may also be sent as path separators.'),
    }),
    response: ModelAnswer,
    freshness: () => 'listing',
  }),
  drift: endpoint({
    path: '/api/v1/drift',
    operationId: 'listDriftChecks',
    summary: 'Drift checks',
    description:
      'The stored checks of each model between consecutive scheduled runs of a blueprint version, as the drift page lists them: newest change first, the flagged ones only unless `all=true`, filtered by blueprint or model, a page at a time. Each check’s change, interval, MDE and verdict are the stored ones.',
    query: DriftQuery,
    response: DriftListAnswer,
    freshness: () => 'listing',
    paged: true,
  }),
  openapi: endpoint({
    path: '/api/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This document',
    description: 'The OpenAPI 3.1 document of the API, generated from the schemas the routes validate their answers with.',
    response: OpenApiAnswer,
    freshness: () => 'listing',
  }),
};

export type AnyEndpoint = Endpoint<unknown, unknown, unknown>;
