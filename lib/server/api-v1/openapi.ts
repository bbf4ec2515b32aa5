/**
 * The OpenAPI 3.1 document of `/api/v1`, written from the endpoint table (endpoints.ts) and the
 * zod schemas the routes validate with, through zod's own `z.toJSONSchema` at JSON Schema draft
 * 2020-12 (the dialect of OpenAPI 3.1). Requests are described as zod reads them (`io: 'input'`:
 * `limit` arrives as text), answers as they are sent (`io: 'output'`).
 */
import { z } from 'zod';
import { ENDPOINTS, type AnyEndpoint } from './endpoints';
import { RunRequestBody, RunRequestedAnswer } from './run-request';
import { ErrorAnswer } from './schemas';

export type JsonSchema = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  jsonSchemaDialect: string;
  paths: Record<string, { get?: OpenApiOperation; post?: OpenApiOperation }>;
  components: { schemas: Record<string, JsonSchema>; responses: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description: string;
  parameters: OpenApiParameter[];
  requestBody?: { required: boolean; content: { 'application/json': { schema: JsonSchema } } };
  security?: Array<Record<string, string[]>>;
  responses: Record<string, unknown>;
}

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** A schema as JSON Schema 2020-12, without its `$schema` line (the document names the dialect once). */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'throw' }) as JsonSchema;
  return rest;
}

function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query'): OpenApiParameter[] {
  if (!schema) return [];
  const json = jsonSchemaOf(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => {
    const { description, ...rest } = s as JsonSchema & { description?: string };
    return { name, in: where, required: where === 'path' || (json.required ?? []).includes(name), ...(description ? { description } : {}), schema: rest };
  });
}

const ERRORS: Record<string, string> = {
  '400': 'The request is malformed (a bad `limit` or `cursor`, an id too long).',
  '404': 'No such thing, or one that is not public (a draft run answers as an unknown one).',
  '429': 'Too many requests from this client: wait the `Retry-After` seconds.',
};

function operationOf(e: AnyEndpoint): OpenApiOperation {
  const errors = Object.fromEntries(
    Object.keys(ERRORS)
      .filter((code) => code !== '404' || e.params || e.docParams)
      .map((code) => [code, { $ref: `#/components/responses/Error${code}` }]),
  );
  return {
    operationId: e.operationId,
    summary: e.summary,
    description: e.description,
    parameters: [...parametersOf(e.docParams ?? e.params, 'path'), ...parametersOf(e.query, 'query')],
    responses: {
      '200': {
        description: e.summary,
        headers: {
          ETag: { description: 'A tag of these exact bytes: send it back in `If-None-Match` to get a 304 when nothing changed.', schema: { type: 'string' } },
          'Cache-Control': { description: 'One hour for a completed run, `no-cache` for a run still going, one minute for the rest.', schema: { type: 'string' } },
        },
        content: { 'application/json': { schema: jsonSchemaOf(e.response, 'output') } },
      },
      '304': { description: 'Not modified: the `If-None-Match` tag is still the answer’s.' },
      ...errors,
    },
  };
}

/** The one write: a maintainer's run request (run-request.ts). */
function requestRunOperation(): OpenApiOperation {
  const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
  const answer = (description: string) => ({ description, headers: { Location: { description: 'The run in this API.', schema: { type: 'string' } } }, content: { 'application/json': { schema: jsonSchemaOf(RunRequestedAnswer, 'output') } } });
  return {
    operationId: 'requestRun',
    summary: 'Run a blueprint',
    description:
      'Requests a run of a blueprint (a maintainer’s admin token as `Authorization: Bearer …`, or a maintainer’s session). Idempotent on the run’s identity: asking again for the same version, models, judges and settings while that run is under way or done answers it (200, `deduplicated: true`) and starts nothing. Poll `api_url` for its status.',
    parameters: [],
    requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(RunRequestBody, 'input') } } },
    security: [{ maintainerToken: [] }],
    responses: {
      '201': answer('The run was requested.'),
      '200': answer('An identical run is already under way or done: it is the answer.'),
      '400': error('The body is not valid (the message names the field).'),
      '401': error('No token or session, or not the admin token.'),
      '403': error('Signed in, but not a maintainer.'),
      '404': error('No such blueprint or version, or one with errors.'),
      '409': error('The run cannot be configured as asked (an unknown model or judge, a cost cap over an unpriced model…).'),
      '429': { $ref: '#/components/responses/Error429' },
    },
  };
}

let built: OpenApiDocument | undefined;

/** The document (made once per process: it depends on the code alone). */
export function openApiDocument(): OpenApiDocument {
  built ??= {
    openapi: '3.1.0',
    info: {
      title: 'Assay public API',
      version: '1',
      description:
        'JSON for what Assay’s pages show: leaderboards, blueprints, runs and their prompts, models, read by anyone; and one write for maintainers, a run request. Field names in v1 never change; fields may be added. Sealed prompts and draft runs are never in any answer. See docs/api.md.',
    },
    jsonSchemaDialect: DIALECT,
    paths: {
      ...Object.fromEntries((Object.values(ENDPOINTS) as AnyEndpoint[]).map((e) => [e.path, { get: operationOf(e) }])),
      '/api/v1/runs': { post: requestRunOperation() },
    },
    components: {
      securitySchemes: { maintainerToken: { type: 'http', scheme: 'bearer', description: 'The admin token (ASSAY_ADMIN_TOKEN); a maintainer’s signed-in session also serves.' } },
      schemas: { Error: jsonSchemaOf(ErrorAnswer, 'output') },
      responses: Object.fromEntries(
        Object.entries(ERRORS).map(([code, description]) => [
          `Error${code}`,
          {
            description,
            ...(code === '429' ? { headers: { 'Retry-After': { description: 'Seconds until the client’s window opens again.', schema: { type: 'integer' } } } } : {}),
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        ]),
      ),
    },
  };
  return built;
}
