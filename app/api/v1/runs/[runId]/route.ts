/** GET one run's header and per-model summaries: lib/server/api-v1/runs.ts. */
import { route } from '@/lib/server/http';
import { ENDPOINTS } from '@/lib/server/api-v1/endpoints';
import { readRun } from '@/lib/server/api-v1/runs';
import { cachedAnswer, v1Spec } from '@/lib/server/api-v1/v1-route';
import { getDb } from '@/lib/server/platform';
import { limitClient } from '../../limit';

export const dynamic = 'force-dynamic';

const endpoint = ENDPOINTS.run;
export const GET = cachedAnswer(endpoint, route(v1Spec(endpoint, limitClient), ({ params }) => readRun(getDb(), params.runId)));
