/** The kinds that need no judge (docs/criteria.md): reply.*, citations.*. */
import type { CriterionKindDef } from '../types';
import { citationsForbidden, citationsMentionsInCorpus, citationsRequired, citationsUnseen } from './citations';
import { replyLanguage } from './language';
import { contains, maxLength, regex } from './reply';

export const DETERMINISTIC_KINDS: CriterionKindDef<never>[] = [
  replyLanguage,
  maxLength,
  contains,
  regex,
  citationsRequired,
  citationsForbidden,
  citationsUnseen,
  citationsMentionsInCorpus,
];
