import type { GroupsView } from '@/lib/views/groups-view';
import { muted, Section } from './ui';

/** Scores per category and per rule, and the per-attempt pass rate (soev's report), per model; nothing without groups. */
export function GroupScoresSection({ view, description }: { view: GroupsView | null; description: string }) {
  if (!view) return null;
  return (
    <Section id="groups-h" title="By category and rule" description={description}>
      <div className="space-y-6" data-testid="group-scores">
        {view.models.map((m) => (
          <div key={m.modelId} data-testid="group-scores-model" data-model={m.modelId} className="space-y-2">
            <h3 className="text-sm font-medium" title={m.modelId}>
              {m.label}
            </h3>
            <p className={`text-sm ${muted}`} data-testid="attempt-pass">
              {m.passText}
            </p>
            <div className="flex flex-wrap gap-6">
              {m.tables.map((t) => (
                <table key={t.axis} className="text-sm" data-testid={`group-table-${t.axis}`}>
                  <caption className="mb-1 text-left font-medium">{t.title}</caption>
                  <thead>
                    <tr className={`border-b border-zinc-200 text-xs dark:border-zinc-800 ${muted}`}>
                      <th scope="col" className="py-1 pr-4 text-left font-normal">
                        {t.axis}
                      </th>
                      <th scope="col" className="py-1 pr-4 text-right font-normal">
                        score
                      </th>
                      <th scope="col" className="py-1 pr-4 text-right font-normal">
                        95% interval
                      </th>
                      <th scope="col" className="py-1 pr-4 text-right font-normal">
                        prompts
                      </th>
                      <th scope="col" className="py-1 pr-4 text-right font-normal">
                        attempts passed
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {t.rows.map((r) => (
                      <tr key={r.key} className="border-b border-zinc-100 dark:border-zinc-900" data-testid="group-row" data-key={r.key}>
                        <th scope="row" className="py-1 pr-4 text-left font-normal">
                          {r.key}
                        </th>
                        <td className="py-1 pr-4 text-right tabular-nums">{r.score}</td>
                        <td className="py-1 pr-4 text-right tabular-nums" title={r.intervalTitle}>
                          {r.interval}
                        </td>
                        <td className="py-1 pr-4 text-right tabular-nums">{r.prompts}</td>
                        <td className="py-1 pr-4 text-right tabular-nums">{r.passed}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ))}
            </div>
          </div>
        ))}
      </div>
    </Section>
  );
}
