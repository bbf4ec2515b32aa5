/**
 * Per-request memoised reads shared by a run page, its metadata and its sections, so the
 * run header or ranking is read once per request however many parts need it.
 */
import { cache } from 'react';
import { getDb } from '@/lib/server/compose/database';
import { getRunJudgeReliability } from '@/lib/server/db/queries/judge-reliability';
import { getRunHeader } from '@/lib/server/db/queries/run-header';
import { getRunRanking } from '@/lib/server/db/queries/run-ranking';
import { decodeSegment } from '@/lib/views/urls';
import { mayViewRun } from '@/lib/server/runs/draft-visibility';
import { currentUser } from '../../admin/session';

/** The run's header, or null when there is none or the viewer may not see it (a draft run: its author and maintainers only). */
export const loadRunHeader = cache(async (runIdSegment: string) => {
  const [header, viewer] = await Promise.all([getRunHeader(getDb(), decodeSegment(runIdSegment)), currentUser()]);
  return header && mayViewRun(header, viewer) ? header : null;
});
export const loadRunRanking = cache(async (runId: string) => getRunRanking(getDb(), runId));
/** The run's judge reliability, read once whether the run line, the per-model table or both show it. */
export const loadRunJudges = cache(async (runId: string) => getRunJudgeReliability(getDb(), runId));
