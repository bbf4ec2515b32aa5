/**
 * A scripted `JudgePort` for the kinds' unit tests: our own port implemented by a plain object
 * (not a mock of a module). Each question is answered by the first rule whose `when` matches its
 * prompt; every question asked is recorded, so a test can read the prompt the judge got.
 */
import type { Expect } from '../../blueprint/schema';
import type { ConversationEvidence, CriterionEvidence, JudgePort } from '../types';
import type { JudgeChoice } from './ask';

export interface ScriptRule {
  when?: RegExp;
  answer: Record<string, number> | Error;
}

export function scriptedJudge(rules: ScriptRule[]): JudgePort & { asked: JudgeChoice[] } {
  const asked: JudgeChoice[] = [];
  return {
    asked,
    async choose(question) {
      asked.push(question);
      const rule = rules.find((r) => !r.when || r.when.test(question.prompt));
      if (!rule) throw new Error(`the scripted judge has no rule for: ${question.prompt.slice(0, 200)}`);
      if (rule.answer instanceof Error) throw rule.answer;
      return { distribution: rule.answer };
    },
  };
}

export function expectWith(partial: Partial<Expect>): Expect {
  return { behaviour: 'answer', message: null, answer: null, nuggets: [], sources: { required: {}, supporting: [], forbidden: [] }, ...partial };
}

export function evidenceOf(e: { reply: string; question?: string; expect?: Expect | null; structured?: unknown; variants?: Record<string, Partial<ConversationEvidence> & { reply: string }> }): CriterionEvidence {
  const question = e.question ?? 'What is the deadline to object?';
  const variants: Record<string, ConversationEvidence> = {};
  for (const [name, v] of Object.entries(e.variants ?? {})) variants[name] = { messages: [{ role: 'user', content: `(${name}) ${question}` }], citations: [], ...v };
  return {
    promptId: 'p1',
    messages: [
      { role: 'user', content: question },
      { role: 'assistant', content: e.reply },
    ],
    reply: e.reply,
    citations: [],
    ...(e.structured === undefined ? {} : { structured: e.structured }),
    variants,
    expect: e.expect ?? null,
  };
}
