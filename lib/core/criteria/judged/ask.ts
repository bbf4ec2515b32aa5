/**
 * The one way a judged kind puts a question to the `JudgePort` and reads its answer: a missing
 * judge or a judge that could not answer is a verdict with status `error` and the reason (never
 * a 0: an unanswered question is unscored, not a failed one); anything else thrown (a bug, the run's budget) goes on up.
 */
import { ExpectSchema, type Expect } from '../../blueprint/schema';
import type { CriterionEvidence, CriterionServices, CriterionVerdict, JudgePort } from '../types';

/**
 * Thrown by a `JudgePort` when its judges gave no usable answer (provider error, malformed
 * output after every try). Kinds turn it into an `error` verdict; other errors propagate, so a
 * run that ran out of budget stops rather than storing a wall of judge errors.
 */
export class JudgeUnavailableError extends Error {
  override readonly name = 'JudgeUnavailableError';
}

export interface JudgeChoice {
  /** The kind's name (`rubric.judge`), so a judge or a log can tell the questions apart. */
  task: string;
  /** The question with its data blocks, already hardened (see prompts.ts); the port adds the options. */
  prompt: string;
  /** The labels the judge picks from, in presentation order. */
  options: readonly string[];
}

export type JudgeAnswer = { ok: true; distribution: Record<string, number>; top: string; raw?: string } | { ok: false; verdict: CriterionVerdict };

export function errorVerdict(detail: string, data?: unknown): CriterionVerdict {
  return { status: 'error', score: null, detail, ...(data === undefined ? {} : { data }) };
}

export function notApplicable(detail: string): CriterionVerdict {
  return { status: 'not_applicable', score: null, detail };
}

export function noJudge(kind: string): CriterionVerdict {
  return errorVerdict(`${kind} needs a judge: this run has no judge models configured (set judges in the run or the blueprint's evaluationConfig)`);
}

/**
 * The distribution over exactly the question's options, normalised to sum 1 (a judge may leave
 * an option out or spread mass over labels it was not offered), and its most likely option.
 * A tie goes to the option listed first, so the same answer always reads the same.
 */
export function normalise(distribution: Record<string, number>, options: readonly string[]): { distribution: Record<string, number>; top: string } | null {
  const total = options.reduce((s, o) => s + Math.max(0, distribution[o] ?? 0), 0);
  if (!(total > 0)) return null;
  const out: Record<string, number> = {};
  let top = options[0]!;
  for (const o of options) {
    out[o] = Math.max(0, distribution[o] ?? 0) / total;
    if (out[o]! > out[top]!) top = o;
  }
  return { distribution: out, top };
}

export async function ask(judge: JudgePort, question: JudgeChoice): Promise<JudgeAnswer> {
  try {
    const answer = await judge.choose(question);
    const read = normalise(answer.distribution, question.options);
    if (!read) return { ok: false, verdict: errorVerdict(`the judge gave no probability to any of ${question.options.join(', ')}`, { distribution: answer.distribution }) };
    return { ok: true, ...read, ...(answer.raw === undefined ? {} : { raw: answer.raw }) };
  } catch (e) {
    if (e instanceof JudgeUnavailableError) return { ok: false, verdict: errorVerdict(`the judge could not answer: ${e.message}`) };
    throw e;
  }
}

/** The judge of the services, or the `error` verdict a kind returns without one. */
export function judgeOf(kind: string, services: CriterionServices): { judge: JudgePort } | { verdict: CriterionVerdict } {
  return services.judge ? { judge: services.judge } : { verdict: noJudge(kind) };
}

/** The case's soev `expect`, read with the schema the parser wrote it with; null when the prompt has none. */
export function expectOf(evidence: CriterionEvidence): Expect | null {
  if (evidence.expect === null || evidence.expect === undefined) return null;
  const parsed = ExpectSchema.safeParse(evidence.expect);
  if (!parsed.success) throw new Error(`the evidence of prompt "${evidence.promptId}" carries an expect that is not Prompt['expect']: ${parsed.error.message}`);
  return parsed.data;
}

/** Probabilities as the drill-down shows them: three decimals. */
export function percent(p: number): string {
  return `${Math.round(p * 1000) / 10}%`;
}
