/**
 * The blueprint page's (and the methodology page's) "Judges checked against people": the panel's
 * α with people in one sentence, each rater's agreement, κ, bias and calibration error, people's
 * agreement with each other as the ceiling, the panel's calibration curve and the models' judged
 * means corrected by people's labels. View model: calibrationView (lib/views/human-figures-view.ts).
 */
import Link from 'next/link';
import { HUMAN_CALIBRATION_ANCHOR, type CalibrationView } from '@/lib/views/human-figures-view';
import { Section, link, muted } from '../ui';
import { CalibrationCurve } from './calibration-curve';
import { HumanAlpha } from './human-alpha';
import { PpiTable } from './ppi-table';

const th = 'py-2 pr-3 font-medium';
const td = 'py-2 pr-3 tabular-nums';

export function CalibrationSection({ view }: { view: CalibrationView }) {
  if (view.kind === 'empty') {
    return (
      <Section id={HUMAN_CALIBRATION_ANCHOR} title={view.title}>
        <p className={`max-w-3xl text-sm ${muted}`} data-testid="human-calibration-empty">
          {view.sentence}{' '}
          <Link href={view.reviewHref} prefetch={false} className={link}>
            Review replies
          </Link>
        </p>
      </Section>
    );
  }
  return (
    <Section id={HUMAN_CALIBRATION_ANCHOR} title={view.title} description={view.basis}>
      <div className="space-y-4" data-testid="human-calibration">
        <p className="text-sm" data-testid="human-calibration-headline">
          {view.headlineLead}: <HumanAlpha view={view.headlineAlpha} testId="human-alpha-headline" />
        </p>
        {/* seven columns do not fit a phone: the table scrolls, the page does not */}
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="human-agreement" aria-describedby="human-agreement-notes">
            <caption className="sr-only">Each rater against people’s labels</caption>
            <thead className={`border-b border-zinc-200 text-xs uppercase dark:border-zinc-800 ${muted}`}>
              <tr>
                <th scope="col" className={th}>Rater</th>
                <th scope="col" className={`${th} text-right`}>Items</th>
                <th scope="col" className={`${th} text-right`}>Labels</th>
                <th scope="col" className={th}>
                  Agreement <span className="normal-case">(α)</span>
                </th>
                <th scope="col" className={th}>
                  Weighted <span className="normal-case">κ</span>
                </th>
                <th scope="col" className={th}>Bias</th>
                <th scope="col" className={`${th} text-right`}>ECE</th>
              </tr>
            </thead>
            <tbody>
              {view.rows.map((r) => (
                <tr key={r.key} className="border-b border-zinc-100 align-top dark:border-zinc-900" data-testid="human-agreement-row" data-kind={r.kind}>
                  <th scope="row" className="py-2 pr-3 text-left font-normal">
                    {r.kind === 'panel' ? <span className="font-medium">{r.label}</span> : r.label}
                    {r.detail && <span className={`block font-mono text-xs ${muted}`}>{r.detail}</span>}
                  </th>
                  <td className={`${td} text-right`}>{r.items}</td>
                  <td className={`${td} text-right`}>{r.labels}</td>
                  <td className={td}>
                    <HumanAlpha view={r.alpha} />
                  </td>
                  <td className={`${td} whitespace-nowrap`}>{r.kappa}</td>
                  <td className={`${td} whitespace-nowrap`} title={r.biasTitle}>
                    {r.bias}
                  </td>
                  <td className={`${td} text-right`} title={r.eceTitle}>
                    {r.ece}
                  </td>
                </tr>
              ))}
              <tr className="align-top" data-testid="human-agreement-people">
                <th scope="row" className="py-2 pr-3 text-left font-normal">
                  <span className="font-medium">{view.people.label}</span>
                </th>
                <td className={`${td} text-right`}>{view.people.items}</td>
                <td className={`${td} text-right ${muted}`}>—</td>
                <td className={td}>
                  <HumanAlpha view={view.people.alpha} />
                </td>
                <td colSpan={3} className={`py-2 pr-3 text-xs ${muted}`}>
                  {view.people.note}
                </td>
              </tr>
            </tbody>
          </table>
        </div>
        <p id="human-agreement-notes" className={`max-w-3xl text-xs ${muted}`}>
          {view.notes.columns}
        </p>
        {view.curve && <CalibrationCurve view={view.curve} />}
        <PpiTable rows={view.models} notes={view.notes} />
      </div>
    </Section>
  );
}
