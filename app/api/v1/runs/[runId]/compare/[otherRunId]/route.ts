/** GET two runs of one blueprint compared: lib/server/api-v1/run-comparison.ts. */
import { route } from '@/lib/server/http';
import { ENDPOINTS } from '@/lib/server/api-v1/endpoints';
import { readRunComparison } from '@/lib/server/api-v1/run-comparison';
import { cachedAnswer, v1Spec } from '@/lib/server/api-v1/v1-route';
import { getDb } from '@/lib/server/platform';
import { limitClient } from '../../../../limit';

export const dynamic = 'force-dynamic';

const endpoint = ENDPOINTS.runComparison;
export const GET = cachedAnswer(endpoint, route(v1Spec(endpoint, limitClient), ({ params }) => readRunComparison(getDb(), params.runId, params.otherRunId)));
