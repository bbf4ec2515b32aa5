/**
 * POST a run request (a maintainer's token or session): lib/server/api-v1/run-request.ts. 201 with
 * the new run, or 200 with the identical run already under way or done.
 */
import { route } from '@/lib/server/http';
import { requestRunAsMaintainer } from '@/lib/server/admin/actions';
import { maintainerRequest, RunRequestBody, RunRequestedAnswer, runRequestedAnswer } from '@/lib/server/api-v1/run-request';
import { authenticateActor, githubServices } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';

export const POST = route({ authenticate: authenticateActor, body: RunRequestBody, response: RunRequestedAnswer, headers: { 'cache-control': 'no-store' } }, async ({ principal, body }) => {
  const s = githubServices();
  const run = await requestRunAsMaintainer(s.db, s.runs, principal, maintainerRequest(body));
  const answer = RunRequestedAnswer.parse(runRequestedAnswer(run));
  return Response.json(answer, { status: run.deduplicated ? 200 : 201, headers: { location: answer.api_url } });
});
