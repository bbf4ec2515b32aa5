/**
 * `compare.*` (soev's `Case.variants`; docs/criteria-judged.md): each variant of a prompt ran on
 * its own conversation; these kinds compare each variant's reply with the reply to the prompt's own
 * turns. `compare.substance` asks a judge whether the two say the same in substance;
 * `compare.structured` compares fields of an HTTP system's JSON replies, with no judge.
 */
import { z } from 'zod';
import type { ConversationEvidence, CriterionEvidence, CriterionKindDef, CriterionVerdict } from '../types';
import { ask, errorVerdict, judgeOf, notApplicable, percent } from './ask';
import { atPath } from './fixed-messages';
import { block, compose, questionBlock } from './prompts';

const Common = {
  /** The variants to compare (default: every variant of the prompt). */
  variants: z.array(z.string().min(1)).min(1).optional(),
  /** The share of variants that must agree to pass (default 1: all of them). */
  min_share: z.number().min(0).max(1).optional(),
};

/** The variants to compare, or the verdict when there are none or one is missing or failed. */
function variantsOf(kind: string, evidence: CriterionEvidence, names: readonly string[] | undefined): { variants: [string, ConversationEvidence][] } | { verdict: CriterionVerdict } {
  const all = Object.keys(evidence.variants);
  if (all.length === 0 && names === undefined) return { verdict: notApplicable('the prompt has no variants') };
  const wanted = names ?? all;
  const missing = wanted.filter((n) => !(n in evidence.variants));
  if (missing.length > 0) return { verdict: errorVerdict(`${kind}: no variant named ${missing.map((m) => `"${m}"`).join(', ')} (the prompt's variants: ${all.join(', ') || 'none'})`) };
  const failed = wanted.filter((n) => evidence.variants[n]!.error);
  // A variant whose conversation failed has no reply to compare: unscored, never "inconsistent".
  if (failed.length > 0) return { verdict: errorVerdict(`${kind}: variant ${failed.map((n) => `"${n}" failed: ${evidence.variants[n]!.error}`).join('; ')}`) };
  return { variants: wanted.map((n) => [n, evidence.variants[n]!]) };
}

function shareVerdict(agreeing: number, total: number, minShare: number, what: string, data: unknown): CriterionVerdict {
  const share = agreeing / total;
  return { status: share >= minShare ? 'pass' : 'fail', score: share, detail: `${agreeing} of ${total} variants ${what} (${percent(share)}; needs ${percent(minShare)})`, data };
}

const SubstanceParams = z.object(Common).strict();

const SUBSTANCE_QUESTION =
  'FIRST and SECOND are replies to two wordings of the same request. Do they give the same substance: the same answer or decision, the same key facts, and nothing that contradicts the other? Wording, order and length may differ.';

export function substancePrompt(first: ConversationEvidence, second: ConversationEvidence): string {
  return compose([block('FIRST', first.reply), block('SECOND', second.reply), questionBlock(SUBSTANCE_QUESTION)]);
}

export const compareSubstance: CriterionKindDef<z.infer<typeof SubstanceParams>> = {
  name: 'compare.substance',
  params: SubstanceParams,
  summary: "The judge says whether each variant's reply gives the same substance as the prompt's reply; the score is the share that does.",
  example: '- kind: compare.substance\n  # variants: [informal]   # default: every variant',
  needs: ['judge', 'variants'],
  async evaluate(evidence, params, services) {
    const v = variantsOf('compare.substance', evidence, params.variants);
    if ('verdict' in v) return v.verdict;
    const j = judgeOf('compare.substance', services);
    if ('verdict' in j) return j.verdict;
    const answers = await Promise.all(v.variants.map(([, variant]) => ask(j.judge, { task: 'compare.substance', prompt: substancePrompt(evidence, variant), options: ['false', 'true'] })));
    const unanswered = answers.flatMap((a, i) => (a.ok ? [] : [`${v.variants[i]![0]}: ${a.verdict.detail}`]));
    if (unanswered.length > 0) return errorVerdict(`compare.substance: ${unanswered.join('; ')}`);
    const per = v.variants.map(([name], i) => {
      const a = answers[i] as Extract<(typeof answers)[number], { ok: true }>;
      return { variant: name, same: a.top === 'true', p_same: a.distribution.true! };
    });
    return shareVerdict(per.filter((p) => p.same).length, per.length, params.min_share ?? 1, 'give the same substance', { variants: per });
  },
};

const StructuredParams = z
  .object({
    ...Common,
    /** Dotted paths compared in each JSON reply (`answer.decision`); default: the whole body. */
    paths: z.array(z.string().min(1)).min(1).optional(),
  })
  .strict();

/** JSON with sorted keys, so `{a,b}` and `{b,a}` compare equal. */
function canonical(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const o = value as Record<string, unknown>;
  return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
}

export const compareStructured: CriterionKindDef<z.infer<typeof StructuredParams>> = {
  name: 'compare.structured',
  params: StructuredParams,
  summary: "Each variant's JSON reply has the same values at `paths` (default: the same body) as the prompt's; no judge.",
  example: '- kind: compare.structured\n  paths: [decision, refusal.code]',
  needs: ['variants'],
  async evaluate(evidence, params) {
    const v = variantsOf('compare.structured', evidence, params.variants);
    if ('verdict' in v) return v.verdict;
    const unstructured = [...(evidence.structured === undefined ? ['the prompt'] : []), ...v.variants.filter(([, e]) => e.structured === undefined).map(([n]) => `variant "${n}"`)];
    if (unstructured.length > 0) return errorVerdict(`compare.structured compares JSON replies, but ${unstructured.join(', ')} replied in plain text (use compare.substance)`);
    const paths = params.paths ?? [null];
    const read = (body: unknown, path: string | null) => canonical(path === null ? body : atPath(body, path));
    const per = v.variants.map(([name, e]) => {
      const differs = paths.filter((p) => read(evidence.structured, p) !== read(e.structured, p)).map((p) => p ?? '(body)');
      return { variant: name, same: differs.length === 0, differs };
    });
    return shareVerdict(per.filter((p) => p.same).length, per.length, params.min_share ?? 1, `match on ${params.paths ? params.paths.join(', ') : 'the whole body'}`, { variants: per });
  },
};
