/**
 * `nuggets.coverage` (soev's `Nugget`): one true/false judge question per `vital` nugget,
 * with the ids (and, when the run has a corpus, the text) of its sources; `okay` nuggets are not
 * asked. The score is the share of vital nuggets covered; pass when it reaches `min_share`.
 */
import { z } from 'zod';
import type { CriterionKindDef, CriterionServices } from '../types';
import type { Nugget } from '../../blueprint/schema';
import { ask, errorVerdict, expectOf, judgeOf, notApplicable, percent } from './ask';
import { block, compose, promptBlock, questionBlock } from './prompts';

const Params = z
  .object({
    /** The share of vital nuggets that must be covered to pass (default 1: all of them). */
    min_share: z.number().min(0).max(1).optional(),
  })
  .strict();

const QUESTION = 'Does the TEXT state the FACT, or something that clearly implies it? Paraphrase counts; a contradicting or missing fact does not.';

function sourcesBlock(nugget: Nugget, corpus: CriterionServices['corpus']): string | null {
  if (nugget.sources.length === 0) return null;
  const lines = nugget.sources.map((id) => {
    const text = corpus?.text(id);
    return text === undefined ? id : `${id}: ${text}`;
  });
  return `The FACT is supported by these sources:\n${block('SOURCES', lines.join('\n\n'))}`;
}

export function nuggetPrompt(evidence: { messages: Parameters<typeof promptBlock>[0]; reply: string }, nugget: Nugget, corpus?: CriterionServices['corpus']): string {
  return compose([promptBlock(evidence.messages), block('TEXT', evidence.reply), block('FACT', nugget.text), sourcesBlock(nugget, corpus), questionBlock(QUESTION)]);
}

export const nuggetsCoverage: CriterionKindDef<z.infer<typeof Params>> = {
  name: 'nuggets.coverage',
  params: Params,
  summary: 'Share of the vital nuggets (expect.nuggets) the reply covers, one true/false judge question each; pass at min_share (default 1).',
  example: '- kind: nuggets.coverage\n  min_share: 0.5',
  needs: ['judge'],
  async evaluate(evidence, params, services) {
    const minShare = params.min_share ?? 1;
    const vital = (expectOf(evidence)?.nuggets ?? []).filter((n) => n.importance === 'vital');
    if (vital.length === 0) return notApplicable('the prompt has no vital nuggets (expect.nuggets)');
    const j = judgeOf('nuggets.coverage', services);
    if ('verdict' in j) return j.verdict;
    const answers = await Promise.all(vital.map((n) => ask(j.judge, { task: 'nuggets.coverage', prompt: nuggetPrompt(evidence, n, services.corpus), options: ['false', 'true'] })));
    const perNugget = vital.map((n, i) => {
      const a = answers[i]!;
      return a.ok ? { text: n.text, covered: a.top === 'true', p_true: a.distribution.true! } : { text: n.text, error: a.verdict.detail };
    });
    const failed = perNugget.filter((n) => 'error' in n);
    // One unanswered nugget leaves the share unknown: unscored, never a guess.
    if (failed.length > 0) return errorVerdict(`${failed.length} of ${vital.length} vital nuggets got no judge answer: ${failed.map((f) => ('error' in f ? f.error : '')).join('; ')}`, { nuggets: perNugget });
    const covered = perNugget.filter((n) => 'covered' in n && n.covered).length;
    const share = covered / vital.length;
    return {
      status: share >= minShare ? 'pass' : 'fail',
      score: share,
      detail: `${covered} of ${vital.length} vital nuggets covered (${percent(share)}; needs ${percent(minShare)})`,
      data: { nuggets: perNugget, min_share: minShare },
    };
  },
};
