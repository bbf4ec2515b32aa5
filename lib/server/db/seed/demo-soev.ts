/**
 * The fake's answers to the soev example (blueprints/soev-example) in the demo: the system under
 * test, a rent assistant, is good at deposits and declines what it should, and is weaker on
 * maintenance: its answer to the informal wording of R2-01 is vaguer than to the formal one
 * (compare.substance fails there), and its answers never say the deposit comes back at the end
 * of the lease (a nugget of importance "okay" left out).
 *
 * A soev reply cites with `[cite:id]` markers: the fake's soev threads API turns each into a
 * cited element (`metadata.unit_id`, what the project's citation mapping reads).
 * The judge's options are lettered in the criterion kinds' order: behaviour A answer / B refuse /
 * C abstain; true-false questions A false / B true; rubrics A fail / B pass.
 */
import { literal, pattern } from '@/lib/core';
import type { DemoRule } from './demo-models';

const SOEV = /^soev:/;
/** A judge prompt whose reply under judgement (its `<TEXT>` block) says `phrase`. */
const text = (phrase: string) => pattern()`<TEXT>\\n[^<]*${literal(phrase)}`;

export const SOEV_DEMO_RULES: DemoRule[] = [
  {
    name: 'soev R1-01',
    model: SOEV,
    lastUser: /waarborgsom/,
    reply: 'De waarborgsom is maximaal twee keer de kale maandhuur (artikel 261 BW7). Vraagt de verhuurder meer, dan is het deel daarboven nietig. [cite:bw7/261] [cite:bw7/261/1]',
  },
  { name: 'soev R1-02 turn 1', model: SOEV, lastUser: /drie maanden borg/, reply: 'Nee: de borg mag maximaal twee keer de kale huur zijn. [cite:bw7/261/1]' },
  { name: 'soev R1-02 turn 2', model: SOEV, lastUser: /wat kan ik doen/, reply: 'U kunt het te veel betaalde deel van de borg van de verhuurder terugvorderen. [cite:bw7/261]' },
  {
    name: 'soev R2-01',
    model: SOEV,
    lastUser: /cv-ketel/,
    reply: 'Klein onderhoud, zoals het bijvullen van de ketel, is voor de huurder; het jaarlijkse onderhoud en reparaties zijn voor de verhuurder. Bij onenigheid kunt u naar de huurcommissie. [cite:bw7/240]',
  },
  { name: 'soev R2-01 informeel', model: SOEV, lastUser: /cv ketel/, reply: 'Dat hangt af van het soort onderhoud aan de ketel. [cite:bw7/240]' },
  { name: 'soev scope-tax', model: SOEV, lastUser: /belastingaangifte/, reply: 'Daar kan ik u helaas niet mee helpen.' },
  { name: 'soev smalltalk', model: SOEV, lastUser: /wie ben jij/, reply: 'Ik ben de huurwijzer, een assistent voor al uw vragen over huren.' },

  { name: 'judge: refuses', lastUser: text('niet mee helpen'), judge: { labels: { A: 0.05, B: 0.9, C: 0.05 }, reasoning: 'The reply declines with the fixed message.' } },
  { name: 'judge: answers', lastUser: /What does the assistant do in the TEXT/, judge: { labels: { A: 0.85, B: 0.05, C: 0.1 }, reasoning: 'The reply answers the question.' } },
  { name: 'judge: deposit returned not said', lastUser: /<FACT>\nDe verhuurder moet de borg/, judge: { labels: { A: 0.8, B: 0.2 }, reasoning: 'The reply does not say that the deposit is paid back.' } },
  { name: 'judge: nugget covered', lastUser: /<FACT>/, judge: { labels: { A: 0.1, B: 0.9 }, reasoning: 'The reply states the fact.' } },
  { name: 'judge: variants differ', lastUser: /FIRST and SECOND are replies/, judge: { labels: { A: 0.7, B: 0.3 }, reasoning: 'The informal answer does not say who pays for what.' } },
  { name: 'judge: rubric met', lastUser: /<RUBRIC>/, judge: { labels: { A: 0.2, B: 0.8 }, reasoning: 'The reply does what the rubric asks.' } },
];
