/** The kinds that need no judge (issue 12, "kinds" helper): reply.*, citations.*. */
import type { CriterionKindDef } from '../types';

export const DETERMINISTIC_KINDS: CriterionKindDef<never>[] = [];
