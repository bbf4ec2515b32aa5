/** GET the leaderboard (overall, or one tag's with `?tag=`): lib/server/api-v1/leaderboard.ts. */
import { route } from '@/lib/server/http';
import { ENDPOINTS } from '@/lib/server/api-v1/endpoints';
import { readLeaderboard } from '@/lib/server/api-v1/leaderboard';
import { cachedAnswer, v1Spec } from '@/lib/server/api-v1/v1-route';
import { getDb, leaderboardMinCoverage } from '@/lib/server/platform';
import { limitClient } from '../limit';

export const dynamic = 'force-dynamic';

const endpoint = ENDPOINTS.leaderboard;
export const GET = cachedAnswer(endpoint, route(v1Spec(endpoint, limitClient), ({ query }) => readLeaderboard(getDb(), { tag: query.tag, minCoverage: leaderboardMinCoverage() })));
