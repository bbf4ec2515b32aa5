/** Judge reliability beside a judged number, and the blueprint page's judge panel. View models from lib/views/judge-reliability-view.ts. */
import Link from 'next/link';
import type { JudgePanelView, ModelReliabilityRowView, ReliabilityLineView } from '@/lib/views/judge-reliability-view';
import { Section, link, muted } from './ui';

const READING_TONE = {
  reliable: 'text-emerald-800 dark:text-emerald-300',
  tentative: 'text-amber-800 dark:text-amber-300',
  unreliable: 'text-red-800 dark:text-red-300',
} as const;

function SelfJudging({ lines }: { lines: string[] }) {
  if (lines.length === 0) return null;
  return (
    <ul className="mt-1 space-y-0.5 text-amber-900 dark:text-amber-200" data-testid="self-judging">
      {lines.map((l) => (
        <li key={l}>⚠ {l}</li>
      ))}
    </ul>
  );
}

/**
 * α as a link to what it means: the number with its figure attributes (data-figure, data-value,
 * data-units), or, below the minimum of verdicts, the "too few verdicts to tell" sentence in the
 * neutral colour with no figure at all.
 */
function AlphaLink({ line, className = '', title }: { line: ReliabilityLineView; className?: string; title?: string }) {
  return (
    <Link href={line.methodologyHref} className={`tabular-nums ${line.alphaAttrs ? `font-semibold ${link}` : muted} ${className}`} data-testid="judge-alpha" title={title} {...(line.alphaAttrs ?? {})}>
      {line.alphaLabel}
    </Link>
  );
}

/** One line: α with what it rests on, its reading, coverage, disagreement, self-judging; nothing when nothing was judged. */
export function JudgeReliabilityLine({ view, label = 'Judges' }: { view: ReliabilityLineView; label?: string }) {
  if (!view.judged) return null;
  return (
    <div className="text-sm" data-testid="judge-reliability">
      <p>
        <span className={muted}>{label}: </span>
        <AlphaLink line={view} title="Krippendorff’s α over the judged verdicts here: what it means" />{' '}
        {view.basisLabel && <span className={`tabular-nums ${muted}`}>{view.basisLabel} </span>}
        <span className={view.reading ? READING_TONE[view.reading] : muted}>{view.readingLabel}</span>
        <span className={muted}>
          {' · '}
          {view.coverageLabel}
          {view.disagreementLabel && ` · ${view.disagreementLabel}`}
          {' · '}
          {view.assessmentsLabel}
        </span>
      </p>
      <SelfJudging lines={view.selfJudging} />
    </div>
  );
}

/** The run page's table: each model's judged score and how far its judges agreed. */
export function JudgeReliabilityByModel({ rows, description = 'How far the judges agreed on each model’s judged points in this run (pooled Krippendorff’s α, interval metric).' }: { rows: ModelReliabilityRowView[]; description?: string }) {
  if (rows.length === 0) return null;
  return (
    <Section id="judge-reliability-h" title="Judge reliability" description={description}>
      <div className="relative overflow-x-auto">
        <table className="w-full text-left text-sm" data-testid="judge-reliability-by-model">
          <thead className={`border-b border-zinc-200 text-xs uppercase dark:border-zinc-800 ${muted}`}>
            <tr>
              <th scope="col" className="py-2 pr-3 font-medium">Model</th>
              <th scope="col" className="py-2 pr-3 font-medium">
                Agreement <span className="normal-case">(α)</span>
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">Coverage</th>
              <th scope="col" className="py-2 pr-3 font-medium">Disagreement</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.modelId} className="border-b border-zinc-100 align-top dark:border-zinc-900">
                <td className="py-2 pr-3">
                  <Link href={r.href} className={link}>
                    {r.label}
                  </Link>
                </td>
                <td className="py-2 pr-3 tabular-nums">
                  <AlphaLink line={r.line} />{' '}
                  <span className={r.line.reading ? READING_TONE[r.line.reading] : muted}>{r.line.readingLabel}</span>
                  {r.line.basisLabel && <span className={`block text-xs ${muted}`}>{r.line.basisLabel}</span>}
                  <SelfJudging lines={r.line.selfJudging} />
                </td>
                <td className={`py-2 pr-3 ${muted}`}>
                  {r.line.coverageLabel}
                  <span className="block text-xs">{r.line.assessmentsLabel}</span>
                </td>
                <td className={`py-2 pr-3 ${muted}`}>{r.line.disagreementLabel ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  );
}

/** The blueprint page's judge panel summary, on its latest completed run. */
export function JudgePanel({ view }: { view: JudgePanelView }) {
  return (
    <Section
      id="judge-panel-h"
      title="Judge panel"
      description={
        <>
          The judges of the latest completed run and how far they agreed.{' '}
          {view.runHref && (
            <Link href={view.runHref} className={link}>
              That run’s models
            </Link>
          )}
        </>
      }
    >
      <div data-testid="judge-panel" className="space-y-3">
        <JudgeReliabilityLine view={view.line} label="Panel" />
        {/* five numeric columns do not fit a phone: the table scrolls, the page does not */}
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className={`border-b border-zinc-200 text-xs uppercase dark:border-zinc-800 ${muted}`}>
              <tr>
                <th scope="col" className="py-2 pr-3 font-medium">Judge</th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">Assessments</th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">No value</th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">Mean value</th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">Distance from the others</th>
                <th scope="col" className="py-2 pr-3 font-medium">Self-judging</th>
              </tr>
            </thead>
            <tbody>
              {view.rows.map((r) => (
                <tr key={r.id} className="border-b border-zinc-100 align-top dark:border-zinc-900" data-testid="judge-row">
                  <td className="py-2 pr-3">
                    {r.label}
                    <span className={`block font-mono text-xs ${muted}`}>{r.model}</span>
                  </td>
                  <td className="py-2 pr-3 text-right tabular-nums">{r.assessments}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{r.missing}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{r.meanScore}</td>
                  <td className="py-2 pr-3 text-right tabular-nums" title={r.deviationTitle}>
                    {r.deviation}
                  </td>
                  <td className="py-2 pr-3">{r.selfJudging ? <span className="text-amber-900 dark:text-amber-200">⚠ {r.selfJudging}</span> : <span className={muted}>—</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className={`text-xs ${muted}`}>{view.note}</p>
      </div>
    </Section>
  );
}
