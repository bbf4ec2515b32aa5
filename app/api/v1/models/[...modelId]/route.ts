/** GET one model's boards, blueprints and history (its id's own `/` may stay in the path): lib/server/api-v1/models.ts. */
import { route } from '@/lib/server/http';
import { ENDPOINTS } from '@/lib/server/api-v1/endpoints';
import { readModel } from '@/lib/server/api-v1/models';
import { cachedAnswer, v1Spec } from '@/lib/server/api-v1/v1-route';
import { getDb, leaderboardMinCoverage } from '@/lib/server/platform';
import { limitClient } from '../../limit';

export const dynamic = 'force-dynamic';

const endpoint = ENDPOINTS.model;
export const GET = cachedAnswer(endpoint, route(v1Spec(endpoint, limitClient), ({ params }) => readModel(getDb(), params.modelId, { minCoverage: leaderboardMinCoverage() })));
