/**
 * Which run's replies a run grades. A rescore calls no model: it grades its parent run's
 * stored replies again (and a rescore of a rescore is linked to the original run by
 * request-rescore, so its parent is the run that holds the replies); every other run grades
 * its own. The one statement of that rule: the steps, the summaries, the results and the pages
 * all ask it here.
 */
export interface ReplySourceInput {
  id: string;
  trigger: string;
  parentRunId: string | null;
}

export function replySourceOf(run: ReplySourceInput): string {
  return run.trigger === 'rescore' && run.parentRunId ? run.parentRunId : run.id;
}

/** True when the run grades replies another run stored (a rescore): it calls no model. */
export function gradesStoredReplies(run: ReplySourceInput): boolean {
  return replySourceOf(run) !== run.id;
}
