/**
 * The fake soev system's answers to blueprints/soev-example (llm-server-soev.ts): each case's
 * reply with its `[cite:id]` markers, which the fake turns into cited elements. One case
 * (R2-01) cites a source the case does not require and misses "verhuurder" in one wording,
 * so the example's category and rule scores differ.
 */
import type { RuleInput } from './llm-server-rules';

const SOEV = /^soev:/;

export const SOEV_EXAMPLE_RULES: RuleInput[] = [
  { name: 'soev R1-01', model: SOEV, lastUser: /waarborgsom/, reply: 'De waarborgsom is maximaal twee keer de kale maandhuur. [cite:bw7/261]' },
  { name: 'soev R1-02 turn 1', model: SOEV, lastUser: /drie maanden borg/, reply: 'Nee: de borg mag maximaal twee keer de kale huur zijn. [cite:bw7/261/1]' },
  { name: 'soev R1-02 turn 2', model: SOEV, lastUser: /wat kan ik doen/, reply: 'U kunt de te veel betaalde borg terugvorderen. [cite:bw7/261]' },
  { name: 'soev R2-01', model: SOEV, lastUser: /cv-ketel/, reply: 'Klein onderhoud is voor de huurder, groot onderhoud voor de verhuurder. [cite:bw7/240]' },
  { name: 'soev R2-01 informeel', model: SOEV, lastUser: /cv ketel/, reply: 'Dat hangt af van het soort onderhoud. [cite:bw7/240]' },
  { name: 'soev scope-tax', model: SOEV, lastUser: /belastingaangifte/, reply: 'Daar kan ik u helaas niet mee helpen.' },
  { name: 'soev smalltalk', model: SOEV, lastUser: /wie ben jij/, reply: 'Ik ben de huurwijzer, een assistent voor vragen over huren.' },
];
