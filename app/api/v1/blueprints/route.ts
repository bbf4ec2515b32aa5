/** GET the live blueprints, a page at a time: lib/server/api-v1/blueprints.ts. */
import { route } from '@/lib/server/http';
import { readBlueprints } from '@/lib/server/api-v1/blueprints';
import { ENDPOINTS } from '@/lib/server/api-v1/endpoints';
import { cachedAnswer, v1Spec } from '@/lib/server/api-v1/v1-route';
import { getDb } from '@/lib/server/platform';
import { limitClient } from '../limit';

export const dynamic = 'force-dynamic';

const endpoint = ENDPOINTS.blueprints;
export const GET = cachedAnswer(endpoint, route(v1Spec(endpoint, limitClient), ({ query }) => readBlueprints(getDb(), query)));
