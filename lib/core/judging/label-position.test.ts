/**
 * The judge readers on REAL OpenAI tokenizations: each answer text is tokenised by o200k_base
 * and cl100k_base (js-tiktoken, through the fake's llm-server-tokens.ts), with the alternatives a
 * model has at each position, and read as the run reads it. The reference is the same answer
 * with the label as its own token carrying every label's log-probability (the shape the fake
 * used to send): where the tokens hold the distribution, both readings agree; where they cannot
 * (a glued `>E` whose sibling `>` leads to F, a number split across tokens) the reading says so.
 */
import { describe, expect, it } from 'vitest';
import { candidateTokens, tokenStrings, type EncodingName } from '@/testing/fakes/llm-server-tokens';
import { buildJudgeBatchRequest } from './batch-prompt';
import { readJudgeBatchOutput } from './batch-reading';
import { readLabelPosition, UNSEEN_LABEL_TOLERANCE, type JudgeOutputToken } from './label-position';
import { buildJudgeRequest, LETTERS, readJudgeOutput } from './prompt';
import type { JudgeQuestion } from './questions';

const ENCODINGS: EncodingName[] = ['o200k_base', 'cl100k_base'];
const K = 20; // OpenAI's most top_logprobs: every label with mass fits, so both readings see the same labels

function choiceOf(n: number): JudgeQuestion {
  return { type: 'choice', question: 'Which fits?', options: Object.fromEntries(Array.from({ length: n }, (_, i) => [`option_${i + 1}`, i / Math.max(1, n - 1)])) };
}

/**
 * A judge's distribution over `labels` answering the one at `c`: most on it, some on its
 * neighbours, and (`spread`) a little on up to 17 more, nearest first (at most 20 labels hold
 * mass, so no top-20 list cuts one off).
 */
function distribution(labels: readonly string[], c: number, spread: boolean): Map<string, number> {
  const d = new Map<string, number>([[labels[c]!, 1]]);
  const near = [c - 1, c + 1].filter((i) => i >= 0 && i < labels.length);
  const far = spread ? labels.map((_, i) => i).filter((i) => i !== c && !near.includes(i)).sort((a, b) => Math.abs(a - c) - Math.abs(b - c)).slice(0, 17) : [];
  d.set(labels[c]!, near.length + far.length === 0 ? 1 : 0.5);
  for (const i of near) d.set(labels[i]!, (far.length ? 0.3 : 0.5) / near.length);
  for (const i of far) d.set(labels[i]!, 0.2 / far.length);
  return d;
}

/** The label as its own token, every label's log(p) among its alternatives. */
function ownTokenShape(text: string, start: number, end: number, d: Map<string, number>, chosen: string): JudgeOutputToken[] {
  return [
    { token: text.slice(0, start), logprob: 0, top: [] },
    { token: chosen, logprob: Math.log(d.get(chosen)!), top: [...d].map(([token, p]) => ({ token, logprob: Math.log(p) })) },
    { token: text.slice(end), logprob: 0, top: [] },
  ];
}

/** The tokens a model sends for the answer `render(chosen)`, the others being `render(label)` with their p. */
function realTokens(render: (label: string) => string, d: Map<string, number>, chosen: string, encoding: EncodingName): JudgeOutputToken[] {
  const labels = [...d.keys()];
  return candidateTokens(labels.map((l) => ({ text: render(l), p: d.get(l)! })), labels.indexOf(chosen), K, encoding);
}

/** Whether the tokenizer writes the label in one token with other visible text (`>D`), in this format. */
function glued(render: (label: string) => string, label: string, encoding: EncodingName): boolean {
  const text = render(label);
  const at = text.lastIndexOf(label, text.lastIndexOf('</answer>'));
  let start = 0;
  for (const t of tokenStrings(text, encoding)) {
    if (at >= start && at < start + t.length) return t.replace(label, '').trim() !== '';
    start += t.length;
  }
  throw new Error(`no token covers ${label}`);
}

const REFLECTION = '<reflection>It gives the order number and the date, not the carrier.</reflection>\n';
const FORMATS: Record<string, (l: string) => string> = {
  'as asked': (l) => `${REFLECTION}<answer>${l}</answer>`,
  'spaces inside': (l) => `${REFLECTION}<answer> ${l} </answer>`,
  'on its own line': (l) => `${REFLECTION}<answer>\n${l}\n</answer>`,
  'emphasised': (l) => `${REFLECTION}<answer>**${l}**</answer>`,
  'reasoning in prose first': (l) => `The reply gives the number. Answer: <answer>${l}</answer>`,
  'no reasoning': (l) => `<answer>${l}</answer>`,
};

describe('the label position on real OpenAI tokens', () => {
  it('o200k_base and cl100k_base glue the letter to ">", and the reader maps ">A", ">B"… back to letters', () => {
    const text = '<reflection>ok</reflection>\n<answer>D</answer>';
    for (const encoding of ENCODINGS) {
      expect(tokenStrings(text, encoding)).toEqual(['<', 'reflection', '>', 'ok', '</', 'reflection', '>\n', '<', 'answer', '>D', '</', 'answer', '>']);
    }
    const request = buildJudgeRequest({ approach: 'standard', question: choiceOf(5), reply: 'r' });
    const tokens: JudgeOutputToken[] = tokenStrings(text, 'o200k_base').map((token) => ({ token, logprob: 0, top: [{ token, logprob: 0 }] }));
    tokens[9] = { token: '>D', logprob: Math.log(0.6), top: [{ token: '>D', logprob: Math.log(0.6) }, { token: '>E', logprob: Math.log(0.3) }, { token: '>C', logprob: Math.log(0.1) }] };
    const r = readJudgeOutput(text, request, tokens);
    expect(r).toMatchObject({ ok: true, label: 'option_4', distribution: { method: 'logprobs', probs: { option_3: expect.closeTo(0.1, 12), option_4: expect.closeTo(0.6, 12), option_5: expect.closeTo(0.3, 12) } } });
  });

  for (const n of [2, 5, 12, LETTERS.length]) {
    describe(`per-point answers, ${n} options (letters A–${LETTERS[n - 1]})`, () => {
      const request = buildJudgeRequest({ approach: 'standard', question: choiceOf(n), reply: 'r' });
      const letters = Object.keys(request.letters);
      for (const [format, render] of Object.entries(FORMATS)) {
        it(`${format}: the same distribution as the label-as-its-own-token case, or "unreadable" exactly where the tokens hide labels`, () => {
          let read = 0;
          let unreadable = 0;
          for (const encoding of ENCODINGS) {
            for (const spread of [false, true]) {
              for (const [c, chosen] of letters.entries()) {
                const d = distribution(letters, c, spread);
                const text = render(chosen);
                const at = text.lastIndexOf(chosen, text.lastIndexOf('</answer>'));
                const reference = readJudgeOutput(text, request, ownTokenShape(text, at, at + 1, d, chosen));
                const real = readJudgeOutput(text, request, realTokens(render, d, chosen, encoding));
                // Hidden: the chosen letter shares its token (`>E`) and letters the tokenizer does not glue (`>` then `F`) hold mass.
                const hidden = glued(render, chosen, encoding) ? [...d].filter(([l]) => !glued(render, l, encoding)).reduce((s, [, p]) => s + p, 0) : 0;
                const where = `${encoding}, ${chosen} of ${n}, ${spread ? 'spread' : 'neighbours'}`;
                if (!reference.ok) throw new Error(`reference unread at ${where}`);
                if (hidden > UNSEEN_LABEL_TOLERANCE) {
                  expect(real, where).toEqual({ ok: false, unreadable: expect.stringMatching(/of the probability at the answer's token went to ">"/) });
                  unreadable++;
                  continue;
                }
                if (!real.ok) throw new Error(`unread at ${where}: ${'error' in real ? real.error : real.unreadable}`);
                expect(real.label, where).toBe(reference.label);
                expect(real.distribution.method, where).toBe('logprobs');
                for (const [label, p] of Object.entries(reference.distribution.probs)) expect(real.distribution.probs[label], `${where}: ${label}`).toBeCloseTo(p, 12);
                expect(real.distribution.coverage, where).toBeCloseTo(1, 12);
                read++;
              }
            }
          }
          // Up to E every letter is glued alike in both tokenizers, so every answer reads; from
          // F on, o200k_base (and from Q, cl100k_base) leaves some letters bare after `>`.
          if (n <= 5 || !['as asked', 'reasoning in prose first', 'no reasoning'].includes(format)) expect(unreadable).toBe(0);
          else expect(unreadable).toBeGreaterThan(0);
          expect(read).toBeGreaterThan(0);
        });
      }
    });
  }

  it('a bare letter after ">" (o200k_base: F) reads from both positions: ">A"… at ">", the rest at "F"', () => {
    const render = FORMATS['as asked']!;
    const d = new Map([['E', 0.2], ['F', 0.5], ['G', 0.3]]);
    const tokens = realTokens(render, d, 'F', 'o200k_base');
    const at = tokens.findIndex((t) => t.token === 'F');
    expect(tokens[at - 1]!.token).toBe('>');
    expect(tokens[at - 1]!.top.map((t) => [t.token, Math.exp(t.logprob)])).toEqual([['>', expect.closeTo(0.8, 12)], ['>E', expect.closeTo(0.2, 12)]]);
    expect(tokens[at]!.top.map((t) => [t.token, Math.exp(t.logprob)])).toEqual([['F', expect.closeTo(0.5 / 0.8, 12)], ['G', expect.closeTo(0.3 / 0.8, 12)]]);
    const text = render('F');
    const r = readLabelPosition(tokens, { start: text.lastIndexOf('F'), end: text.lastIndexOf('F') + 1 }, ['E', 'F', 'G']);
    expect(r).toEqual({ ok: true, distribution: { method: 'logprobs', probs: { E: expect.closeTo(0.2, 12), F: expect.closeTo(0.5, 12), G: expect.closeTo(0.3, 12) }, coverage: expect.closeTo(1, 12) } });
  });

  it('a little probability on a bare ">" is tolerated (coverage says it); more is "unreadable", never a guess', () => {
    const text = '<answer>D</answer>';
    const at = (pBare: number): JudgeOutputToken[] => [
      { token: '<', logprob: 0, top: [] },
      { token: 'answer', logprob: 0, top: [] },
      { token: '>D', logprob: Math.log(0.7), top: [{ token: '>D', logprob: Math.log(0.7) }, { token: '>C', logprob: Math.log(0.3 - pBare) }, { token: '>', logprob: Math.log(pBare) }] },
      { token: '</', logprob: 0, top: [] },
      { token: 'answer', logprob: 0, top: [] },
      { token: '>', logprob: 0, top: [] },
    ];
    const span = { start: text.indexOf('D'), end: text.indexOf('D') + 1 };
    expect(readLabelPosition(at(0.005), span, ['A', 'B', 'C', 'D', 'E', 'F'])).toMatchObject({ ok: true, distribution: { coverage: expect.closeTo(0.995, 12) } });
    expect(readLabelPosition(at(0.05), span, ['A', 'B', 'C', 'D', 'E', 'F'])).toEqual({ ok: false, unreadable: `5.0% of the probability at the answer's token went to ">", which lead towards a label in a later token the reply does not show` });
  });
});

describe('batched answers on real OpenAI tokens', () => {
  const questions: JudgeQuestion[] = [choiceOf(5), { type: 'noul', statement: 'It is polite.' }, choiceOf(12), choiceOf(LETTERS.length)];
  const request = buildJudgeBatchRequest({ approach: 'standard', questions, reply: 'r' });
  const LINE_FORMATS: Record<string, (letter: string, n: string) => string> = {
    'A: N': (letter, n) => `${letter}: ${n}`,
    'A:N': (letter, n) => `${letter}:${n}`,
    'A. N': (letter, n) => `${letter}. ${n}`,
  };

  for (const [format, line] of Object.entries(LINE_FORMATS)) {
    it(`"${format}", one- and two-digit options: each question reads the distribution of the label-as-its-own-token case`, () => {
      let checked = 0;
      for (const encoding of ENCODINGS) {
        for (const [qi, q] of request.questions.entries()) {
          const numbers = Object.keys(q.options);
          for (const [c, chosen] of numbers.entries()) {
            const d = distribution(numbers, c, true);
            // The other questions answered with certainty; this line varies with the judge's distribution.
            const render = (n: string) => `${REFLECTION}<answers>\n${request.questions.map((o, j) => line(o.letter, j === qi ? n : '1')).join('\n')}\n</answers>`;
            const text = render(chosen);
            const start = text.indexOf(`\n${line(q.letter, chosen)}\n`) + 1 + line(q.letter, chosen).length - chosen.length;
            const reference = readJudgeBatchOutput(text, request, ownTokenShape(text, start, start + chosen.length, d, chosen)).answers[qi]!;
            const real = readJudgeBatchOutput(text, request, realTokens(render, d, chosen, encoding)).answers[qi]!;
            const where = `${encoding}, question ${q.letter} answered ${chosen}`;
            if (!reference.ok || !real.ok) throw new Error(`unread at ${where}: ${JSON.stringify(real)}`);
            expect(real.distribution.method, where).toBe('logprobs');
            for (const [label, p] of Object.entries(reference.distribution.probs)) expect(real.distribution.probs[label], `${where}: ${label}`).toBeCloseTo(p, 12);
            checked++;
          }
        }
      }
      expect(checked).toBe(2 * (5 + 2 + 12 + LETTERS.length));
    });
  }

  it('two-digit options are one token in both tokenizers (" ", "26"), unlike a digit-by-digit tokenizer', () => {
    for (const encoding of ENCODINGS) expect(tokenStrings('<answers>\nA: 4\nD: 26\n</answers>', encoding)).toEqual(['<', 'answers', '>\n', 'A', ':', ' ', '4', '\n', 'D', ':', ' ', '26', '\n', '</', 'answers', '>']);
  });
});
