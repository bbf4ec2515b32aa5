/** The kinds that ask a judge (issue 12, "judged kinds" helper): behaviour.*, refusal.code, nuggets.coverage, rubric.judge, compare.*. */
import type { CriterionKindDef } from '../types';

export const JUDGED_KINDS: CriterionKindDef<never>[] = [];
