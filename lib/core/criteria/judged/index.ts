/** The kinds that ask a judge (docs/criteria-judged.md): behaviour.*, refusal.code, nuggets.coverage, rubric.judge, compare.*. */
import type { CriterionKindDef } from '../types';
import { behaviourExpected, behaviourMessage, refusalCode } from './behaviour';
import { compareStructured, compareSubstance } from './compare';
import { nuggetsCoverage } from './nuggets';
import { rubricJudge } from './rubric';

export const JUDGED_KINDS: CriterionKindDef<never>[] = [behaviourExpected, behaviourMessage, refusalCode, nuggetsCoverage, rubricJudge, compareSubstance, compareStructured] as CriterionKindDef<never>[];

export { JudgeUnavailableError, type JudgeChoice } from './ask';
export { choiceRequest } from './prompts';
