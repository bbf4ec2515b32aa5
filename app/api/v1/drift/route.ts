/** GET the stored drift checks, a page at a time: lib/server/api-v1/drift.ts. */
import { route } from '@/lib/server/http';
import { ENDPOINTS } from '@/lib/server/api-v1/endpoints';
import { readDrift } from '@/lib/server/api-v1/drift';
import { cachedAnswer, v1Spec } from '@/lib/server/api-v1/v1-route';
import { getDb } from '@/lib/server/platform';
import { limitClient } from '../limit';

export const dynamic = 'force-dynamic';

const endpoint = ENDPOINTS.drift;
export const GET = cachedAnswer(endpoint, route(v1Spec(endpoint, limitClient), ({ query }) => readDrift(getDb(), query)));
