/** GET a run's visible prompts with their cell scores, a page at a time: lib/server/api-v1/runs.ts. */
import { route } from '@/lib/server/http';
import { ENDPOINTS } from '@/lib/server/api-v1/endpoints';
import { readRunPrompts } from '@/lib/server/api-v1/runs';
import { cachedAnswer, v1Spec } from '@/lib/server/api-v1/v1-route';
import { getDb } from '@/lib/server/platform';
import { limitClient } from '../../../limit';

export const dynamic = 'force-dynamic';

const endpoint = ENDPOINTS.runPrompts;
export const GET = cachedAnswer(endpoint, route(v1Spec(endpoint, limitClient), ({ params, query }) => readRunPrompts(getDb(), params.runId, query)));
