/**
 * `rubric.judge`: the judge grades the reply against a rubric, with the case's
 * reference answer (`expect.answer`) beside it when there is one. The rubric is written inline,
 * or names a rubric the run loaded (`services.rubrics`, soev's rubric files by path).
 */
import { z } from 'zod';
import type { CriterionKindDef } from '../types';
import { ask, expectOf, judgeOf, percent } from './ask';
import { block, compose, promptBlock, questionBlock } from './prompts';

const Params = z
  .object({
    /** The rubric text, or the path of a rubric file the run loaded. */
    rubric: z.string().min(1),
    /** A reference answer; replaces the case's `expect.answer`. */
    answer: z.string().min(1).optional(),
  })
  .strict();

export const rubricJudge: CriterionKindDef<z.infer<typeof Params>> = {
  name: 'rubric.judge',
  params: Params,
  summary: 'The judge grades the reply against a rubric and the reference answer (expect.answer); pass when "pass" is the more likely label.',
  example: '- kind: rubric.judge\n  rubric: "Names the deadline and who must act; no advice beyond the sources."',
  needs: ['judge'],
  async evaluate(evidence, params, services) {
    const j = judgeOf('rubric.judge', services);
    if ('verdict' in j) return j.verdict;
    const rubric = services.rubrics?.[params.rubric] ?? params.rubric;
    const reference = params.answer ?? expectOf(evidence)?.answer ?? null;
    const prompt = compose([
      promptBlock(evidence.messages),
      block('TEXT', evidence.reply),
      reference === null ? null : `A reference answer (what a good reply says; wording may differ):\n${block('REFERENCE', reference)}`,
      `The rubric the TEXT is graded by:\n${block('RUBRIC', rubric)}`,
      questionBlock(reference === null ? 'Does the TEXT meet the RUBRIC?' : 'Does the TEXT meet the RUBRIC, judged against the REFERENCE answer?'),
    ]);
    const a = await ask(j.judge, { task: 'rubric.judge', prompt, options: ['fail', 'pass'] });
    if (!a.ok) return a.verdict;
    const p = a.distribution.pass!;
    // `normalise` gives a tie to the first option, `fail`: an undecided judge is no pass.
    return { status: a.top === 'pass' ? 'pass' : 'fail', score: null, detail: `the judge gives the rubric pass ${percent(p)}, fail ${percent(1 - p)}${reference === null ? ' (no reference answer)' : ''}`, data: { distribution: a.distribution, reference: reference !== null } };
  },
};
