/** Builders for tests of the scoring levels (not part of the public surface). */
import type { CorrectPoint, FunctionPoint, Point, QuestionPoint, TextPoint } from '../blueprint/schema';
import { verdictFromOutcome, type Outcome, type Verdict } from './verdict';

const common = { weight: 1, citation: null, path: null, source: 'should' as const, gate: false, loc: null };

export function textPoint(text: string, over: Partial<TextPoint> = {}): TextPoint {
  return { kind: 'text', text, ...common, ...over };
}
export function fnPoint(fn: string, args: unknown, over: Partial<FunctionPoint> = {}): FunctionPoint {
  return { kind: 'function', text: `${fn} ${JSON.stringify(args)}`, fn, args, ...common, ...over };
}
export function correctPoint(check: CorrectPoint['check'], over: Partial<CorrectPoint> = {}): CorrectPoint {
  return { kind: 'correct', text: 'correct', check, ...common, ...over };
}
export function questionPoint(question: QuestionPoint['question'], over: Partial<QuestionPoint> = {}): QuestionPoint {
  return { kind: 'question', text: 'question', question, ...common, ...over };
}

/** A verdict for a text point with the given outcome and policy. */
export function verdict(outcome: Outcome, over: Partial<Pick<Point, 'weight' | 'gate' | 'path' | 'source'>> = {}, index = 0): Verdict {
  return verdictFromOutcome(textPoint(`p${index}`, over), index, outcome);
}
export const scored = (score: number, over: Parameters<typeof verdict>[1] = {}, index = 0) => verdict({ score }, over, index);
export const errored = (over: Parameters<typeof verdict>[1] = {}, index = 0) => verdict({ error: 'judge failed' }, over, index);
export const notApplicable = (over: Parameters<typeof verdict>[1] = {}, index = 0) => verdict({ notApplicable: true }, over, index);
