import type { DiffPageView, Tone } from '@/lib/views/diff-view';
import { Empty, Section, link, muted } from './ui';
import { ColumnHeaders } from './score-cells';

const TONE: Record<Tone, string> = {
  better: 'text-emerald-800 dark:text-emerald-300',
  worse: 'text-red-800 dark:text-red-300',
  same: '',
};

export function DiffModels({ view }: { view: DiffPageView }) {
  return (
    <Section id="diff-models-h" title="Models" description={view.notes.join(' ')}>
      {view.models.length === 0 ? (
        <Empty>No model was scored in both runs.</Empty>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="diff-models">
            <ColumnHeaders columns={[{ label: 'Model' }, { label: 'Older run’s score', right: true }, { label: 'Newer run’s score', right: true }, { label: 'Change (paired prompts)', right: true }, { label: 'Prompts' }, { label: 'Sign test' }]} />
            <tbody>
              {view.models.map((m) => (
                <tr key={m.modelId} className="border-b border-zinc-100 dark:border-zinc-900">
                  <th scope="row" className="py-2 pr-3 font-medium">
                    <a href={m.href} className={link} title={m.modelId}>
                      {m.label}
                    </a>
                  </th>
                  <td className="py-2 pr-3 text-right tabular-nums">
                    <span {...m.olderFigure}>{m.olderLabel}</span>
                  </td>
                  <td className="py-2 pr-3 text-right tabular-nums">
                    <span {...m.newerFigure}>{m.newerLabel}</span>
                  </td>
                  <td className="py-2 pr-3 text-right tabular-nums">
                    <span className={`font-semibold ${TONE[m.tone]}`} {...m.figure}>
                      {m.deltaLabel}
                    </span>
                    <span className={`block text-xs ${muted}`}>{m.changeBasis}</span>
                  </td>
                  <td className={`py-2 pr-3 text-xs ${muted}`}>{m.counts}</td>
                  <td className="py-2 text-xs tabular-nums">
                    {m.pLabel}
                    {m.significant && <span className="ml-1 font-semibold">(significant)</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

export function DiffCells({ view }: { view: DiffPageView }) {
  return (
    <Section id="diff-cells-h" title="Largest changes" description="The prompt × model cells whose score moved most between the runs.">
      {view.unchanged && (
        <p className={`mb-2 text-sm ${muted}`} data-testid="diff-unchanged">
          {view.unchanged}
        </p>
      )}
      {view.cells.length === 0 ? (
        <Empty>{view.unchanged ? 'No cell scored in both runs moved.' : 'No cell was scored in both runs.'}</Empty>
      ) : (
        <table className="w-full text-left text-sm" data-testid="diff-cells">
          <ColumnHeaders columns={[{ label: 'Prompt' }, { label: 'Model' }, { label: 'Older', right: true }, { label: 'Newer', right: true }, { label: 'Change', right: true }]} />
          <tbody>
            {view.cells.map((c) => (
              <tr key={`${c.promptKey}-${c.modelLabel}`} className="border-b border-zinc-100 dark:border-zinc-900">
                <td className="py-1 pr-3 font-mono text-xs">{c.promptKey}</td>
                <td className="py-1 pr-3">{c.modelLabel}</td>
                <td className="py-1 pr-3 text-right tabular-nums">
                  <a href={c.olderHref} className={link} aria-label={`${c.promptKey} × ${c.modelLabel} in the older run: ${c.olderLabel}`}>
                    {c.olderLabel}
                  </a>
                </td>
                <td className="py-1 pr-3 text-right tabular-nums">
                  <a href={c.newerHref} className={link} aria-label={`${c.promptKey} × ${c.modelLabel} in the newer run: ${c.newerLabel}`}>
                    {c.newerLabel}
                  </a>
                </td>
                <td className={`py-1 text-right font-semibold tabular-nums ${TONE[c.tone]}`}>{c.deltaLabel}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}
