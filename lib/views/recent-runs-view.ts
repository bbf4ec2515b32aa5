/** The home page's recent runs: where each goes (results, or live progress while working). */
import type { RecentRun } from '@/lib/server/db/queries/recent-runs';
import { formatAgo, plural } from './format';
import { runStatus, type StatusTone } from './run-view';
import { href } from './urls';

export interface RecentRunView {
  id: string;
  href: string;
  blueprintTitle: string;
  blueprintHref: string;
  statusLabel: string;
  statusTone: StatusTone;
  when: string;
  detail: string;
}

/** What a run's calls are: replies for a chat run; texts embedded for a retrieval run (its counters count texts). */
function workDone(r: RecentRun, working: boolean): string {
  const [one, many] = r.kind === 'retrieval' ? ['text embedded', 'texts embedded'] : ['reply', 'replies'];
  return working ? `${r.doneCalls} of ${r.totalCalls} ${many}` : plural(r.totalCalls, one, many);
}

export function recentRunsView(runs: RecentRun[], now: Date): RecentRunView[] {
  return runs.map((r) => {
    const s = runStatus(r.status);
    const models = Array.isArray(r.models) ? r.models.length : 0;
    const errors = r.errorCalls + r.errorVerdicts;
    return {
      id: r.id,
      href: s.working ? href.progress(r.id) : href.run(r.id),
      blueprintTitle: r.blueprint.title,
      blueprintHref: href.blueprint(r.blueprint.id),
      statusLabel: s.label,
      statusTone: s.tone,
      when: formatAgo(r.createdAt, now),
      detail: [plural(models, 'model'), workDone(r, s.working), ...(errors ? [plural(errors, 'error')] : [])].join(' · '),
    };
  });
}
