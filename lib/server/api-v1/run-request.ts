/**
 * The API's one write: `POST /api/v1/runs`, a maintainer's request to run a blueprint
 * (admin/actions.ts requestRunAsMaintainer: authorised, rate-limited, idempotent on the run's
 * identity). Its body and answer schemas live here, read by the route and by the OpenAPI
 * document alike.
 */
import { z } from 'zod';
import type { MaintainerRunRequest } from '../admin/actions';
import type { RequestedRun } from '../runs/contracts';

const ModelId = z.string().min(1).max(200);

export const RunRequestBody = z
  .strictObject({
    blueprint_id: z.string().min(1).max(200).describe('The blueprint to run.'),
    version_id: z.string().min(1).max(200).optional().describe('One of its stored versions; default: the latest.'),
    models: z.array(ModelId).min(1).max(100).optional().describe('Model ids to run; default: the blueprint’s own models.'),
    judges: z.array(ModelId).min(1).max(10).optional().describe('Judge models (`model` or `model#approach`); default: the blueprint’s or the platform’s panel.'),
    repeats: z.number().int().min(1).max(20).optional().describe('Attempts per prompt × model; default: the blueprint’s.'),
    budget: z
      .strictObject({
        max_calls: z.number().int().positive().optional().describe('Stop after this many provider calls.'),
        max_cost_usd: z.number().positive().optional().describe('Stop once the calls cost this much (US dollars); refused when a model has no known price.'),
      })
      .optional(),
  })
  .describe('What to run. Everything but the blueprint defaults to what the blueprint and the platform say.');

export const RunRequestedAnswer = z
  .strictObject({
    run_id: z.string(),
    identity_hash: z.string().describe('The run’s identity: its blueprint version’s content and every setting that shapes it.'),
    deduplicated: z.boolean().describe('True when an identical run was already under way or done: that run is answered and nothing new is started.'),
    url: z.string().describe('The run’s page, relative to the site.'),
    api_url: z.string().describe('The run in this API (`GET`), to poll its status.'),
  })
  .describe('The run requested (201), or the identical one already there (200).');

export function maintainerRequest(body: z.infer<typeof RunRequestBody>): MaintainerRunRequest {
  return {
    blueprintId: body.blueprint_id,
    ...(body.version_id ? { versionId: body.version_id } : {}),
    ...(body.models ? { models: body.models } : {}),
    ...(body.judges ? { judges: body.judges } : {}),
    ...(body.repeats ? { repeats: body.repeats } : {}),
    ...(body.budget
      ? { budget: { ...(body.budget.max_calls ? { maxCalls: body.budget.max_calls } : {}), ...(body.budget.max_cost_usd ? { maxCostUsd: body.budget.max_cost_usd } : {}) } }
      : {}),
  };
}

export function runRequestedAnswer(run: RequestedRun): z.infer<typeof RunRequestedAnswer> {
  const id = encodeURIComponent(run.runId);
  return { run_id: run.runId, identity_hash: run.identityHash, deduplicated: run.deduplicated, url: `/runs/${id}`, api_url: `/api/v1/runs/${id}` };
}
