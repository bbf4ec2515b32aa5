/** GET the OpenAPI 3.1 document of /api/v1, generated from the routes' own zod schemas: lib/server/api-v1/openapi.ts. */
import { route } from '@/lib/server/http';
import { ENDPOINTS } from '@/lib/server/api-v1/endpoints';
import { openApiDocument } from '@/lib/server/api-v1/openapi';
import { cachedAnswer, v1Spec } from '@/lib/server/api-v1/v1-route';
import { limitClient } from '../limit';

export const dynamic = 'force-dynamic';

const endpoint = ENDPOINTS.openapi;
export const GET = cachedAnswer(endpoint, route(v1Spec(endpoint, limitClient), async () => ({ ...openApiDocument() })));
