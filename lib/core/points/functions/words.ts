/** word_count_between: graded length check, Weval's formula. */
import { z } from 'zod';
import { defineFunction, graded } from './define';

const MESSAGE = 'word_count_between expects [min, max] with 0 ≤ min ≤ max, e.g. `$word_count_between: [50, 100]`';

/** Words are runs of non-whitespace, as in Weval (CJK text without spaces counts as one word). */
export function countWords(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}

export const wordFunctions = [
  defineFunction<[number, number]>({
    name: 'word_count_between',
    description: 'Graded: 1 inside [min, max]; below min, count/min; above max, max/count.',
    // 1 − score of a distance-like grade says nothing useful; write the range you want instead.
    negatable: true,
    args: z
      .tuple([z.number({ error: MESSAGE }).min(0, { error: MESSAGE }), z.number({ error: MESSAGE }).min(0, { error: MESSAGE })], { error: MESSAGE })
      .refine(([min, max]) => min <= max, { error: MESSAGE }),
    evaluate(response, [min, max]) {
      const count = countWords(response);
      let score = 1;
      if (count < min) score = min === 0 ? 1 : count / min;
      else if (count > max) score = max === 0 ? 0 : max / count;
      return graded(score, `word_count_between [${min}, ${max}]: ${count} words`);
    },
  }),
];
