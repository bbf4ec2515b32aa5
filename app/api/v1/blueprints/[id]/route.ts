/** GET one blueprint with its versions and recent runs: lib/server/api-v1/blueprints.ts. */
import { route } from '@/lib/server/http';
import { readBlueprint } from '@/lib/server/api-v1/blueprints';
import { ENDPOINTS } from '@/lib/server/api-v1/endpoints';
import { cachedAnswer, v1Spec } from '@/lib/server/api-v1/v1-route';
import { getDb } from '@/lib/server/platform';
import { limitClient } from '../../limit';

export const dynamic = 'force-dynamic';

const endpoint = ENDPOINTS.blueprint;
export const GET = cachedAnswer(endpoint, route(v1Spec(endpoint, limitClient), ({ params }) => readBlueprint(getDb(), params.id)));
