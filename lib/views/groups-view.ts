/**
 * soev's report on a page: per model, the per-attempt pass rate and a table of scores per
 * category and per rule (each with its interval and how it was made, as the model scores
 * elsewhere). Null when no prompt of the run has a category or a rule: nothing to show.
 */
import type { GroupScore, PassRate } from '@/lib/core';
import { formatInterval, formatPercent, formatScore, modelShortName, plural } from './format';
import { intervalNote } from './interval-view';

export interface GroupRowView {
  key: string;
  score: string;
  interval: string;
  /** How the interval was made (method, n), for the row's title. */
  intervalTitle: string;
  prompts: string;
  passed: string;
}

export interface GroupsView {
  models: {
    modelId: string;
    label: string;
    passText: string;
    tables: { axis: 'category' | 'rule'; title: string; rows: GroupRowView[] }[];
  }[];
}

type ModelGroups = { model: string; pass: PassRate; byCategory: GroupScore[]; byRule: GroupScore[] };

export function groupsView(models: readonly ModelGroups[], names: ReadonlyMap<string, string | null> = new Map()): GroupsView | null {
  const shown = models.filter((m) => m.byCategory.length > 0 || m.byRule.length > 0);
  if (shown.length === 0) return null;
  return {
    models: shown.map((m) => ({
      modelId: m.model,
      label: modelShortName(m.model, names.get(m.model)),
      passText: `${passText(m.pass)} of attempts passed (every criterion pass or not applicable, none an error)`,
      tables: [
        { axis: 'category' as const, title: 'By category', rows: m.byCategory.map(row) },
        { axis: 'rule' as const, title: 'By rule', rows: m.byRule.map(row) },
      ].filter((t) => t.rows.length > 0),
    })),
  };
}

function passText(p: PassRate): string {
  return p.rate === null ? '—' : `${formatPercent(p.rate)} (${p.passed} of ${p.attempts})`;
}

function row(g: GroupScore): GroupRowView {
  const note = intervalNote(g.interval);
  return {
    key: g.key,
    score: formatScore(g.score),
    interval: formatInterval(g.interval?.low ?? null, g.interval?.high ?? null) ?? '—',
    intervalTitle: note ? `${note.label} · ${note.basis}` : 'no interval: one prompt that is not a pass rate',
    prompts: plural(g.prompts, 'prompt'),
    passed: passText(g.pass),
  };
}
