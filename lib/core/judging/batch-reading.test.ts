import { describe, expect, it } from 'vitest';
import { buildJudgeBatchRequest } from './batch-prompt';
import { readJudgeBatchOutput, readJudgeBatchSamples } from './batch-reading';
import type { JudgeOutputToken } from './prompt';
import type { JudgeQuestion } from './questions';
import { judgeScaleQuestion, judgeScaleValue } from './scale';
import { questionValue } from './values';

const scale = judgeScaleQuestion('Mentions the order number');
const noul: JudgeQuestion = { type: 'noul', statement: 'The reply is polite.' };
const choice: JudgeQuestion = { type: 'choice', question: 'What does it do about the refund?', options: { offers_refund: 1, refuses: 0, not_asked: null } };
const request = buildJudgeBatchRequest({ approach: 'standard', questions: [scale, noul, choice], reply: 'Your order 48213 ships today.' });

/** Tokens of an output, one per character run, with `top` at the given offsets. */
function tokensOf(pieces: { token: string; top?: Record<string, number> }[]): JudgeOutputToken[] {
  return pieces.map((p) => ({
    token: p.token,
    logprob: -0.01,
    top: p.top ? Object.entries(p.top).map(([token, prob]) => ({ token, logprob: Math.log(prob) })) : [],
  }));
}

describe('reading batched answers', () => {
  const output = '<reflection>Order number given; polite; no refund asked.</reflection>\n<answers>\nA: 4\nB: 2\nC: 3\n</answers>';

  it('reads each question’s distribution from its own answer token (worked numbers)', () => {
    const tokens = tokensOf([
      { token: '<reflection>Order number given; polite; no refund asked.</reflection>\n<answers>\nA: ' },
      { token: '4', top: { '4': 0.6, '5': 0.3, '3': 0.1 } },
      { token: '\nB: ' },
      { token: '2', top: { '2': 0.8, '1': 0.2 } },
      { token: '\nC: ' },
      { token: '3', top: { '3': 0.7, '1': 0.2, '2': 0.05, x: 0.05 } },
      { token: '\n</answers>' },
    ]);
    const r = readJudgeBatchOutput(output, request, tokens);
    expect(r.ignored).toEqual([]);
    const [a, b, c] = r.answers;
    if (!a?.ok || !b?.ok || !c?.ok) throw new Error('every answer should read');
    // A: 0.6 × 0.75 + 0.3 × 1 + 0.1 × 0.5 = 0.8
    expect(a.distribution.method).toBe('logprobs');
    expect(a.distribution.probs.CLASS_MAJORLY_PRESENT).toBeCloseTo(0.6, 12);
    expect(judgeScaleValue(a.distribution.probs)).toBeCloseTo(0.8, 12);
    expect(a.label).toBe('CLASS_MAJORLY_PRESENT');
    // B: P(true) = 0.8
    expect(questionValue(noul, b.distribution.probs)).toEqual({ applicable: true, value: expect.closeTo(0.8, 12) });
    // C: renormalised over the options found (0.95): not_asked 0.7/0.95 ≥ 0.5 → does not apply
    expect(c.distribution.probs.not_asked).toBeCloseTo(0.7 / 0.95, 12);
    expect(c.distribution.coverage).toBeCloseTo(0.95, 12);
    expect(questionValue(choice, c.distribution.probs)).toMatchObject({ applicable: false });
    expect(a.reasoning).toBe('Order number given; polite; no refund asked.');
  });

  it('a missing answer makes that point an error with a reason; the others are still scored', () => {
    const r = readJudgeBatchOutput('<answers>\nA: 5\nC: 1\n</answers>', request, null);
    expect(r.answers[0]).toMatchObject({ letter: 'A', ok: true, label: 'CLASS_FULLY_PRESENT', distribution: { method: 'samples', n: 1 } });
    expect(r.answers[1]).toEqual({ letter: 'B', ok: false, error: "the judge's answers have no line for question B" });
    expect(r.answers[2]).toMatchObject({ letter: 'C', ok: true, label: 'offers_refund' });
  });

  it('a letter answered twice differently is an error; twice the same counts once', () => {
    const r = readJudgeBatchOutput('<answers>\nA: 2\nB: 1\nA: 4\nB: 1\nC: 2\n</answers>', request, null);
    expect(r.answers[0]).toMatchObject({ ok: false, error: expect.stringMatching(/question A was answered 2 times with different options \("A: 2", "A: 4"\)/) });
    expect(r.answers[1]).toMatchObject({ ok: true, label: 'false' });
    expect(r.answers[2]).toMatchObject({ ok: true, label: 'refuses' });
  });

  it('an option number out of range is an error; a letter that was not asked is ignored and recorded', () => {
    const r = readJudgeBatchOutput('<answers>\nA: 6\nB: 0\nC: 3\nD: 1\n</answers>', request, null);
    expect(r.answers[0]).toMatchObject({ ok: false, error: 'question A was answered 6, which is not one of its options (1–5)' });
    expect(r.answers[1]).toMatchObject({ ok: false, error: 'question B was answered 0, which is not one of its options (1–2)' });
    expect(r.answers[2]).toMatchObject({ ok: true, label: 'not_asked' });
    expect(r.ignored).toEqual(['D: 1']);
  });

  it('no answers block: every question is an error', () => {
    const r = readJudgeBatchOutput('A: 4\nB: 2', request, null);
    expect(r.answers.every((a) => 'error' in a && a.error.includes('no <answers> block'))).toBe(true);
  });

  it('reads only the last answers block (an earlier one quoted in the reasoning does not count)', () => {
    const r = readJudgeBatchOutput('<reflection>It says <answers>A: 1</answers> in jest.</reflection>\n<answers>\nA: 3\nB: 2\nC: 1\n</answers>', request, null);
    expect(r.answers[0]).toMatchObject({ ok: true, label: 'CLASS_PARTIALLY_PRESENT' });
  });

  it('forgives formatting around the letter and number', () => {
    const r = readJudgeBatchOutput('<answers>\n**A**: 4.\nb) 2\n- C = "1"\n</answers>', request, null);
    // "- C = …" does not start with the letter: it is not an answer line
    expect(r.answers.map((a) => a.ok)).toEqual([true, true, false]);
  });

  it('a token that carries text around the number has it stripped from its alternatives', () => {
    const tokens = tokensOf([
      { token: '<answers>\nA' },
      { token: ': 4\n', top: { ': 4\n': 0.5, ': 5\n': 0.5 } },
      { token: 'B:2', top: { 'B:2': 0.25, 'B:1': 0.75 } },
      { token: '\nC: 1\n</answers>' },
    ]);
    const r = readJudgeBatchOutput('<answers>\nA: 4\nB:2\nC: 1\n</answers>', request, tokens);
    const [a, b, c] = r.answers;
    if (!a?.ok || !b?.ok) throw new Error('A and B should read');
    expect(a.distribution).toMatchObject({ method: 'logprobs', probs: { CLASS_MAJORLY_PRESENT: expect.closeTo(0.5, 12), CLASS_FULLY_PRESENT: expect.closeTo(0.5, 12) } });
    expect(b.distribution.probs).toEqual({ true: expect.closeTo(0.25, 12), false: expect.closeTo(0.75, 12) });
    expect(b.distribution.method).toBe('logprobs');
    // C's number sits inside a token without alternatives: not readable there, so the caller samples
    // (never the point mass of the parsed answer passed off as a sampled distribution)
    expect(c).toEqual({ letter: 'C', ok: false, unreadable: expect.stringMatching(/no label \(1, 2, 3\) among the alternatives at the answer's token "\\nC: 1\\n<\/answers>" \(none\)/) });
  });

  it('a number split across tokens (option 10 as "1" + "0") is not read from the first token’s alternatives: the caller samples', () => {
    const levels = Array.from({ length: 10 }, (_, i) => `L${i + 1}`);
    const q: JudgeQuestion = { type: 'score', question: 'How good?', levels };
    const r1 = buildJudgeBatchRequest({ approach: 'standard', questions: [q], reply: 'x' });
    const tokens = tokensOf([{ token: '<answers>\nA: ' }, { token: '1', top: { '1': 0.9, '2': 0.1 } }, { token: '0', top: { '0': 1 } }, { token: '\n</answers>' }]);
    const [a] = readJudgeBatchOutput('<answers>\nA: 10\n</answers>', r1, tokens).answers;
    expect(a).toEqual({ letter: 'A', ok: false, unreadable: 'the answer "10" is split across tokens ("1" + "0"), so no one position\'s alternatives name the options' });
  });

  it('without log-probabilities, samples of the whole batch give each question its empirical distribution', () => {
    const outputs = ['<answers>\nA: 5\nB: 2\nC: 1\n</answers>', '<answers>\nA: 4\nB: 2\n</answers>', '<answers>\nA: 5\nB: 1\nC: 7\n</answers>'];
    const r = readJudgeBatchSamples(outputs, request);
    const [a, b, c] = r.answers;
    if (!a?.ok || !b?.ok || !c?.ok) throw new Error('every answer should read');
    // A: 2 × fully + 1 × majorly → (2 × 1 + 0.75) / 3
    expect(judgeScaleValue(a.distribution.probs)).toBeCloseTo(2.75 / 3, 12);
    expect(a.distribution).toMatchObject({ method: 'samples', n: 3, invalid: 0 });
    expect(b.distribution.probs.true).toBeCloseTo(2 / 3, 12);
    // C: one valid sample, two invalid (missing, out of range)
    expect(c.distribution).toMatchObject({ method: 'samples', n: 1, invalid: 2, probs: { offers_refund: 1 } });
  });

  it('without log-probabilities, a question no sample answered is an error naming why', () => {
    const r = readJudgeBatchSamples(['<answers>\nA: 1\n</answers>', 'no block'], request);
    expect(r.answers[0]).toMatchObject({ ok: true });
    expect(r.answers[1]).toMatchObject({ ok: false, error: expect.stringMatching(/none of 2 sampled judge answers.*no line for question B.*no <answers> block/) });
  });
});
