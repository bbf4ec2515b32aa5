/**
 * `reply.max_length`, `reply.contains`, `reply.regex`: thin kinds over the point functions of
 * the one registry (lib/core/points), so a soev criterion and a Weval `$fn` point mean the same
 * thing. A graded function (contains_all_of) passes only when its score is 1.
 */
import { z } from 'zod';
import { evaluatePoint } from '../../points/evaluate';
import { resolvePointFunction } from '../../points/registry';
import { compilePattern } from '../../untrusted';
import { defineKind, errorVerdict, judged } from '../define';
import type { CriterionVerdict } from '../types';

/** Runs a registered point function on the reply; its outcome becomes a pass (score 1) or a fail. */
async function viaPointFunction(name: string, reply: string, args: unknown): Promise<CriterionVerdict> {
  const resolved = resolvePointFunction(name);
  if (!resolved.ok) return errorVerdict(`internal: point function ${name} is not registered`);
  const outcome = await evaluatePoint(resolved, reply, args, {});
  if ('error' in outcome) return errorVerdict(outcome.error);
  return judged(outcome.score >= 1, outcome.score, outcome.detail);
}

const characters = (text: string) => [...text].length;

export const maxLength = defineKind({
  name: 'reply.max_length',
  params: z.strictObject({
    max: z.number().int().min(1, 'max must be a whole number ≥ 1 (characters, or words with `unit: words`)'),
    unit: z.enum(['characters', 'words']).default('characters'),
  }),
  summary: 'The reply is at most `max` characters (Unicode code points) long, or `max` words with `unit: words`.',
  example: '- kind: reply.max_length\n  max: 2000\n  gate: true',
  needs: [],
  async evaluate(evidence, params) {
    // words: word_count_between([0, max]) of the registry, Weval's word count
    if (params.unit === 'words') return viaPointFunction('word_count_between', evidence.reply, [0, params.max]);
    const n = characters(evidence.reply);
    return judged(n <= params.max, n <= params.max ? 1 : 0, `${n} characters; at most ${params.max} allowed`, { length: n, max: params.max });
  },
});

const Needles = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)], { error: 'text must be a non-empty string or a non-empty list of strings' });

export const contains = defineKind({
  name: 'reply.contains',
  params: z.strictObject({ text: Needles, ignore_case: z.boolean().default(false) }),
  summary: 'The reply contains the text (every one of them, for a list); `ignore_case: true` folds case. Over $contains / $contains_all_of.',
  example: '- kind: reply.contains\n  text: ["Awb", "artikel 4:13"]\n  ignore_case: true',
  needs: [],
  evaluate(evidence, params) {
    const i = params.ignore_case ? 'i' : '';
    return typeof params.text === 'string'
      ? viaPointFunction(`${i}contains`, evidence.reply, params.text)
      : viaPointFunction(`${i}contains_all_of`, evidence.reply, params.text);
  },
});

export const regex = defineKind({
  name: 'reply.regex',
  params: z
    .strictObject({ pattern: z.string().min(1), ignore_case: z.boolean().default(false) })
    .superRefine((p, ctx) => {
      // A criterion has no sandbox, so a pattern RE2 cannot run (lookaround, backreferences) is refused now, not an error at every reply.
      const compiled = compilePattern(p.pattern, p.ignore_case);
      if (!compiled.ok) ctx.addIssue({ code: 'custom', path: ['pattern'], message: compiled.message });
      else if (!compiled.re2) ctx.addIssue({ code: 'custom', path: ['pattern'], message: `the pattern needs the JavaScript engine (${compiled.needsJs}); reply.regex runs in RE2 only: write it without lookaround and backreferences, or use \`$matches\` in should` });
    }),
  summary: 'The reply matches the regular expression (JavaScript syntax, matched in linear time). Over $matches / $imatches.',
  example: '- kind: reply.regex\n  pattern: "\\\\bartikel \\\\d+"\n  ignore_case: true',
  needs: [],
  evaluate(evidence, params) {
    return viaPointFunction(params.ignore_case ? 'imatches' : 'matches', evidence.reply, params.pattern);
  },
});
