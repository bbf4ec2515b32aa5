/** GET the retrieval leaderboard: lib/server/api-v1/retrieval.ts. */
import { route } from '@/lib/server/http';
import { ENDPOINTS } from '@/lib/server/api-v1/endpoints';
import { readRetrievalBoard } from '@/lib/server/api-v1/retrieval';
import { cachedAnswer, v1Spec } from '@/lib/server/api-v1/v1-route';
import { getDb } from '@/lib/server/platform';
import { limitClient } from '../../limit';

export const dynamic = 'force-dynamic';

const endpoint = ENDPOINTS.retrievalLeaderboard;
export const GET = cachedAnswer(endpoint, route(v1Spec(endpoint, limitClient), ({ query }) => readRetrievalBoard(getDb(), query.tag ?? null)));
