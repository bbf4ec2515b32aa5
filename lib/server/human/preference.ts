/** A pair answer (as shown to the reviewer) read as the model preferred. */
import { z } from 'zod';

/** a: the reply shown first, b: the one shown second, tie: neither. */
export const PairAnswerSchema = z.enum(['a', 'b', 'tie']);
export type PairAnswer = z.infer<typeof PairAnswerSchema>;

/** The preferred model of a pair label: the model shown as A, the other one, or 'tie'. */
export function preferredModel(pair: { modelA: string; modelB: string }, shownFirst: string, answer: PairAnswer): string {
  if (answer === 'tie') return 'tie';
  const other = shownFirst === pair.modelA ? pair.modelB : pair.modelA;
  return answer === 'a' ? shownFirst : other;
}
