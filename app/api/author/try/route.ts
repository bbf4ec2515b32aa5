/**
 * "Try it" (docs/authoring.md, "Try it"). GET: the signed-in author's allowance today (the allowed
 * models, the day's budget and what is used). POST {yaml, name, models}: run the draft as a draft
 * run (lib/server/authoring/try-draft.ts); 201 with the run's links. A session's POST must come
 * from this site (principalOf checks the Origin); an invalid draft is a 400 naming file:line:col
 * with every issue in `details.issues`, and nothing is stored.
 */
import { authenticate, tryDeps } from '@/lib/server/platform';
import { route } from '@/lib/server/http';
import { tryAllowance, tryDraft } from '@/lib/server/authoring/try-draft';
import { TryAllowanceSchema, TryRequestSchema, TryStartedSchema } from '@/lib/views/try-it-view';
import { href } from '@/lib/views/urls';

export const dynamic = 'force-dynamic';

export const GET = route({ authenticate, response: TryAllowanceSchema, headers: { 'cache-control': 'no-store' } }, async ({ principal }) => {
  const a = await tryAllowance(tryDeps(), principal);
  return { ...a, resetsAt: a.resetsAt.toISOString() };
});

export const POST = route({ authenticate, body: TryRequestSchema, response: TryStartedSchema, status: 201 }, async ({ principal, body }) => {
  const { runId, plannedCalls } = await tryDraft(tryDeps(), principal, body);
  return { runId, progressUrl: href.progress(runId), resultsUrl: href.run(runId), apiProgressUrl: href.progressApi(runId), plannedCalls };
});
