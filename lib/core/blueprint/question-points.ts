/**
 * Judge questions written as points (docs/judging.md):
 *
 *   - noul: "Every figure in the reply appears in a tool output"
 *   - score: "How grounded is the reply?"
 *     levels: [Fabricated, Mostly fabricated, Mostly grounded, Fully grounded]   # worst first
 *   - choice: "How does the reply handle missing information?"
 *     options: { left_it_out: 1, hedged_it: 0.5, stated_it_as_fact: 0, nothing_missing: null }
 *
 * A Score's value is its expected level over the top level, so the order of the levels is the
 * whole meaning and nothing downstream can check it: the loader accepts only an explicit list,
 * written worst first, and says so when it gets anything else.
 */
import { JudgeQuestionSchema, type JudgeQuestion } from '../judging/questions';
import type { Issues } from './errors';
import { describe, get, str, toJS, type YMap, type YNode } from './positions';

export const QUESTION_KEYS = ['noul', 'score', 'choice'] as const;
export type QuestionKey = (typeof QUESTION_KEYS)[number];

export function questionKeyOf(map: YMap): QuestionKey | undefined {
  return QUESTION_KEYS.find((key) => get(map, key) !== undefined);
}

/** The question of a `noul`/`score`/`choice` point mapping, or null (issues recorded). */
export function buildQuestion(map: YMap, key: QuestionKey, issues: Issues): JudgeQuestion | null {
  const head = get(map, key)!;
  const text = str(head)?.trim();
  if (!text) {
    issues.error(head.loc, 'invalid_question', `\`${key}:\` must be followed by the question as a non-empty string, not ${describe(head)}`, EXAMPLES[key]);
    return null;
  }
  if (key === 'noul') return { type: 'noul', statement: text };
  if (key === 'score') return scoreQuestion(map, text, issues);
  return choiceQuestion(map, text, issues);
}

function scoreQuestion(map: YMap, question: string, issues: Issues): JudgeQuestion | null {
  const levels = get(map, 'levels');
  if (!levels || levels.kind !== 'seq') {
    issues.error(
      (levels ?? map).loc,
      'invalid_question',
      levels
        ? `the levels of a \`score\` question must be an explicit list written worst first, not ${describe(levels)}`
        : 'a `score` question needs `levels:`, an explicit list written worst first',
      `The order is the meaning (value = expected level ÷ top level), so it cannot be inferred. ${EXAMPLES.score}`,
    );
    return null;
  }
  const names: string[] = [];
  let ok = true;
  for (const item of levels.items) {
    const name = str(item)?.trim();
    if (!name) {
      issues.error(item.loc, 'invalid_question', `each level of a \`score\` question must be a non-empty string, not ${describe(item)}`, EXAMPLES.score);
      ok = false;
    } else if (names.includes(name)) {
      issues.error(item.loc, 'invalid_question', `the level "${name}" is listed twice`, 'Give every level a distinct label, worst first.');
      ok = false;
    } else names.push(name);
  }
  if (ok && names.length < 2) {
    issues.error(levels.loc, 'invalid_question', 'a `score` question needs at least two levels', EXAMPLES.score);
    ok = false;
  }
  return ok ? validated({ type: 'score', question, levels: names }, levels, issues) : null;
}

function choiceQuestion(map: YMap, question: string, issues: Issues): JudgeQuestion | null {
  const options = get(map, 'options');
  if (!options || options.kind !== 'map' || options.entries.length === 0) {
    issues.error((options ?? map).loc, 'invalid_question', 'a `choice` question needs `options:`, a mapping from each option to its credit (0–1) or null ("does not apply")', EXAMPLES.choice);
    return null;
  }
  const credits: Record<string, number | null> = {};
  let ok = true;
  for (const { key, value } of options.entries) {
    const credit = value.kind === 'scalar' ? value.value : undefined;
    if (credit === null || (typeof credit === 'number' && credit >= 0 && credit <= 1)) credits[key] = credit;
    else {
      issues.error(value.loc, 'invalid_question', `the credit of option "${key}" must be a number from 0 to 1, or null for "does not apply"; got ${describe(value)}`, EXAMPLES.choice);
      ok = false;
    }
  }
  if (ok && Object.values(credits).every((c) => c === null)) {
    issues.error(options.loc, 'invalid_question', 'every option of this `choice` question is credited null, so it could never apply', 'Give at least one option a credit from 0 to 1.');
    ok = false;
  }
  return ok ? validated({ type: 'choice', question, options: credits }, options, issues) : null;
}

/** The judging module's schema has the last word on the shape. */
function validated(question: unknown, at: YNode, issues: Issues): JudgeQuestion | null {
  const parsed = JudgeQuestionSchema.safeParse(question);
  if (parsed.success) return parsed.data;
  issues.error(at.loc, 'invalid_question', `invalid judge question: ${parsed.error.issues[0]?.message ?? JSON.stringify(toJS(at))}`, 'See the examples in the documentation of judge questions.');
  return null;
}

const EXAMPLES: Readonly<Record<QuestionKey, string>> = {
  noul: 'Example: `- noul: "Every figure in the reply appears in a tool output"` (phrase it so that true is the behaviour you want).',
  score: 'Example: `- score: "How grounded is the reply?"` with `levels: [Fabricated, Mostly fabricated, Mostly grounded, Fully grounded]` (worst first).',
  choice: 'Example: `- choice: "How does it handle missing information?"` with `options: { left_it_out: 1, hedged_it: 0.5, stated_it_as_fact: 0, nothing_missing: null }`.',
};
