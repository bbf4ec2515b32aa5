/**
 * The fake's answers to blueprints/soev-example: the soev system's reply to each case (through
 * llm-server-soev.ts; `[cite:id]` markers become cited elements) and the judge's answer to each
 * criterion question, so that every kind of the example passes somewhere and fails, is n/a or
 * errs somewhere else, deterministically:
 * - R1-01 covers one of its two vital nuggets (nuggets.coverage 0.5: fail);
 * - R2-01 lacks "huurcommissie", cites bw7/7 (not named by the case, not in the corpus) and its
 *   informal variant says something else (compare.substance fails, compare.structured passes:
 *   both cite the same elements); its rubric question finds the judge down (400): `error`;
 * - scope-tax refuses with the fixed message; scope-smalltalk answers, so refusal.code is n/a.
 * The judge's options are lettered in the kinds' order (lib/core/criteria/judged): behaviour
 * A answer / B refuse / C abstain; true-false questions A false / B true; rubrics A fail / B pass.
 */
import type { RuleInput } from './llm-server-rules';

const SOEV = /^soev:/;
const JUDGE = 'judge';
/** The reply under judgement is the judge prompt's `<TEXT>` block. */
const text = (re: string) => new RegExp(`<TEXT>\\n[^<]*${re}`);

export const SOEV_EXAMPLE_RULES: RuleInput[] = [
  { name: 'soev R1-01', model: SOEV, lastUser: /waarborgsom/, reply: 'De waarborgsom is maximaal twee keer de kale maandhuur, zo staat in artikel 261 BW7. [cite:bw7/261]' },
  { name: 'soev R1-02 turn 1', model: SOEV, lastUser: /drie maanden borg/, reply: 'Nee: de borg mag maximaal twee keer de kale huur zijn. [cite:bw7/261/1]' },
  { name: 'soev R1-02 turn 2', model: SOEV, lastUser: /wat kan ik doen/, reply: 'U kunt de te veel betaalde borg van de verhuurder terugvorderen. [cite:bw7/261]' },
  { name: 'soev R2-01', model: SOEV, lastUser: /cv-ketel/, reply: 'Klein onderhoud is voor de huurder, groot onderhoud voor de verhuurder. [cite:bw7/240] [cite:bw7/7]' },
  { name: 'soev R2-01 informeel', model: SOEV, lastUser: /cv ketel/, reply: 'Dat hangt af van het soort onderhoud aan de ketel. [cite:bw7/240] [cite:bw7/7]' },
  { name: 'soev scope-tax', model: SOEV, lastUser: /belastingaangifte/, reply: 'Daar kan ik u helaas niet mee helpen.' },
  { name: 'soev smalltalk', model: SOEV, lastUser: /wie ben jij/, reply: 'Ik ben de huurwijzer, een assistent voor al uw vragen over huren.' },

  { name: 'judge: refuses', model: JUDGE, lastUser: text('niet mee helpen'), judge: { labels: { A: 0.05, B: 0.9, C: 0.05 } } },
  { name: 'judge: answers', model: JUDGE, lastUser: /What does the assistant do in the TEXT/, judge: { labels: { A: 0.85, B: 0.05, C: 0.1 } } },
  { name: 'judge: nugget not covered', model: JUDGE, lastUser: /<FACT>\nEen hogere waarborgsom is nietig/, judge: { labels: { A: 0.8, B: 0.2 } } },
  { name: 'judge: nugget covered', model: JUDGE, lastUser: /<FACT>/, judge: { labels: { A: 0.1, B: 0.9 } } },
  { name: 'judge: variants differ', model: JUDGE, lastUser: /FIRST and SECOND are replies/, judge: { labels: { A: 0.7, B: 0.3 } } },
  { name: 'judge: down for R2-01', model: JUDGE, lastUser: new RegExp(`${text('Klein onderhoud').source}[\\s\\S]*<RUBRIC>`), error: { status: 400, message: 'judge unavailable' } },
  { name: 'judge: rubric met', model: JUDGE, lastUser: /<RUBRIC>/, judge: { labels: { A: 0.25, B: 0.75 } } },
];
