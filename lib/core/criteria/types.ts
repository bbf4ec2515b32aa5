/**
 * The criterion-kind port (soev's criterion registry; docs/criteria.md): a kind has a name, a zod
 * parameter schema that the parser validates at load time (file:line:col), and an evaluator that
 * turns the evidence of one attempt into a verdict. The registry (`registry.ts`) holds every kind
 * next to the point functions.
 *
 * Every kind (deterministic/, judged/) and the soev readers are written against these types:
 * change a field here only by adding to it, so that none of them breaks.
 */
import type { z } from 'zod';
import type { Message } from '../blueprint/schema';

export type CriterionStatus = 'pass' | 'fail' | 'not_applicable' | 'error';

export interface CriterionVerdict {
  status: CriterionStatus;
  /** A share in [0,1] where the kind has one (nuggets covered, required groups cited); pass/fail otherwise. */
  score: number | null;
  /** Why, in words a reader understands (shown on the drill-down page). */
  detail: string;
  /** JSON-serialisable facts behind the verdict (matched ids, per-nugget answers, judge distribution). */
  data?: unknown;
}

/** One cited source, as a citation mapping or a plain-reply pattern resolved it. */
export interface Citation {
  /** The canonical source id (`law/1/2`), compared with the case's `expect.sources`. */
  id: string;
  /** The text as it appeared (a marker, a URL, a field value). */
  raw: string;
}

/** What a run produced for one conversation (the case's turns, or one variant's). */
export interface ConversationEvidence {
  messages: Message[];
  /** The final assistant reply. */
  reply: string;
  citations: Citation[];
  /** The HTTP system's parsed JSON body, when the reply was structured. */
  structured?: unknown;
  /** Why this conversation has no reply (a variant whose generation failed); absent when it has one. */
  error?: string | null;
  /**
   * Set when the provider itself marked the reply as a refusal (which signal: `message.refusal`,
   * `stop_reason: refusal`…, replies.refusal); `reply` then holds the refusal's text. Added by H4.
   */
  refusal?: string | null;
}

/** Everything a criterion may grade for one attempt of one case. */
export interface CriterionEvidence extends ConversationEvidence {
  promptId: string;
  /** By variant name (`variants:` of the case), each run on its own conversation. */
  variants: Record<string, ConversationEvidence>;
  /** The case's soev `expect` (behaviour, nuggets, sources) — see Prompt['expect'] in blueprint/schema.ts. */
  expect: unknown;
}

/** A judge asked a choice question; the answer is a probability per option (log-probabilities or samples). */
export interface JudgePort {
  choose(question: { task: string; prompt: string; options: readonly string[] }): Promise<{ distribution: Record<string, number>; raw?: string }>;
}

/** The corpus of a soev project (`corpus lookup` JSONL): ids, texts, law names. */
export interface CorpusPort {
  has(id: string): boolean;
  text(id: string): string | undefined;
  /** Every id in the corpus, for `citations.mentions_in_corpus`. */
  ids(): Iterable<string>;
  lawNames?: Record<string, string>;
}

/** What a kind may need; a missing service gives `error` with the reason, never a 0. */
export interface CriterionServices {
  judge?: JudgePort;
  /** Rubric texts by the name or path a `rubric.judge` criterion gives (soev's rubric files). */
  rubrics?: Record<string, string>;
  corpus?: CorpusPort;
  /** The project's fixed messages by key (`behaviour.message`, `refusal.code`). */
  messages?: Record<string, string>;
  /** How cited ids are compared with `expect.sources` (the header's `citations: { match }`); default hierarchical. Added by **kinds**. */
  citationMatch?: 'hierarchical' | 'exact';
}

export interface CriterionKindDef<P = unknown> {
  /** e.g. `reply.language`. */
  name: string;
  /** Validated at load time; issues carry the position of the offending key. */
  params: z.ZodType<P>;
  /** One line for docs, hover and completion. */
  summary: string;
  /** A YAML example of the entry, for docs and the editor. */
  example: string;
  needs: ReadonlyArray<'judge' | 'corpus' | 'variants' | 'messages'>;
  evaluate(evidence: CriterionEvidence, params: P, services: CriterionServices): Promise<CriterionVerdict>;
}
