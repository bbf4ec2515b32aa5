/**
 * Reading a batched judge answer (batch-prompt.ts): one line per lettered question inside the
 * LAST `<answers>` block, each question's distribution read from the top log-probabilities of
 * ITS OWN answer token (the option number on its line, found as label-position.ts finds any
 * label), or, without log-probabilities, from several sampled answers of the whole batch. Each question stands alone: a missing,
 * repeated-with-a-different-answer or out-of-range answer makes that question an error (with
 * the reason) and the others are still read, so one slip costs one verdict, not the reply's.
 */
import { remap, type JudgeOutputToken } from './prompt';
import type { JudgeBatchRequest } from './batch-prompt';
import { distributionFromSamples, type JudgeDistribution } from './distribution';
import { readLabelPosition } from './label-position';
import { fragment, pattern } from '../untrusted';

export type BatchAnswerReading =
  | { letter: string; ok: true; distribution: JudgeDistribution; label: string; reasoning: string | null }
  | { letter: string; ok: false; error: string }
  /** Log-probabilities came back and the line parsed, but its number's position does not give the distribution: sample. */
  | { letter: string; ok: false; unreadable: string };

export interface JudgeBatchReading {
  /** One per question of the request, in the order asked. */
  answers: BatchAnswerReading[];
  /** Answer lines naming a letter the request did not ask (kept for the record, never scored). */
  ignored: string[];
}

const STRIP = fragment`[*_\`"']*`;
/** `B: 4`, `B. 4`, `B) 4`, `**B**: 4`, `b = 4.`; letter and number each captured with their offsets (flag d). */
const LINE = pattern('gmd')`^[ \\t]*${STRIP}([A-Za-z])${STRIP}[ \\t]*[:.)=-][ \\t]*${STRIP}(\\d+)${STRIP}[ \\t]*\\.?[ \\t]*$`;
const BLOCK = /<\s*answers\s*>([\s\S]*?)<\s*\/\s*answers\s*>/gi;
const REFLECTION = /<\s*reflection\s*>([\s\S]*?)<\s*\/\s*reflection\s*>/gi;

interface Line {
  letter: string;
  number: string;
  /** Offset of the number in the text that was parsed, and its length as written (`04` is 2). */
  at: number;
  length: number;
  raw: string;
}

/** The answer lines of the last `<answers>` block, or null when there is none. */
function answerLines(text: string): Line[] | null {
  const blocks = [...text.matchAll(BLOCK)];
  const block = blocks.at(-1);
  if (!block) return null;
  const bodyAt = block.index + block[0].indexOf('>') + 1;
  const body = block[1] ?? '';
  const lines: Line[] = [];
  for (const m of body.matchAll(LINE)) {
    const numberAt = m.indices![2]![0];
    lines.push({ letter: m[1]!.toUpperCase(), number: String(Number(m[2]!)), at: bodyAt + numberAt, length: m[2]!.length, raw: m[0].trim() });
  }
  return lines;
}

function lastReflection(text: string): string | null {
  const last = [...text.matchAll(REFLECTION)].at(-1)?.[1];
  return last === undefined ? null : last.trim();
}

type Pick = { ok: true; line: Line } | { ok: false; error: string };

/** The one answer line of a question (duplicates with the same answer count once, the last one read). */
function pickLine(lines: readonly Line[], letter: string, options: Record<string, string>): Pick {
  const mine = lines.filter((l) => l.letter === letter);
  if (mine.length === 0) return { ok: false, error: `the judge's answers have no line for question ${letter}` };
  const numbers = [...new Set(mine.map((l) => l.number))];
  if (numbers.length > 1) return { ok: false, error: `question ${letter} was answered ${mine.length} times with different options (${mine.map((l) => `"${l.raw}"`).join(', ')}), so its answer is unknown` };
  const line = mine.at(-1)!;
  const range = Object.keys(options);
  if (!(line.number in options)) return { ok: false, error: `question ${letter} was answered ${line.number}, which is not one of its options (${range[0]}–${range.at(-1)})` };
  return { ok: true, line };
}

/**
 * Reads one batched judge output. With log-probabilities, each question's distribution comes
 * from its own answer token; where that position does not give it (no option among its
 * alternatives, the number split across tokens) the question is `unreadable`, as the per-point
 * reader says, and the caller samples. Without log-probabilities each answer is one sample.
 */
export function readJudgeBatchOutput(output: string, request: JudgeBatchRequest, logprobs: readonly JudgeOutputToken[] | null): JudgeBatchReading {
  const lines = answerLines(output);
  if (lines === null) {
    return { answers: request.questions.map((q) => ({ letter: q.letter, ok: false, error: "the judge's output has no <answers> block" })), ignored: [] };
  }
  const tokenText = logprobs?.length ? logprobs.map((t) => t.token).join('') : null;
  const tokenLines = tokenText === null ? null : (answerLines(tokenText) ?? []);
  const reasoning = lastReflection(output);
  const asked = new Set(request.questions.map((q) => q.letter));
  const answers = request.questions.map((q): BatchAnswerReading => {
    const picked = pickLine(lines, q.letter, q.options);
    if (!picked.ok) return { letter: q.letter, ok: false, error: picked.error };
    const numbers = Object.keys(q.options);
    if (tokenLines && logprobs) {
      const inTokens = tokenLines.filter((l) => l.letter === q.letter && l.number === picked.line.number).at(-1);
      if (!inTokens) return { letter: q.letter, ok: false, unreadable: `the log-probability tokens hold no line "${q.letter}: ${picked.line.number}"` };
      const read = readLabelPosition(logprobs, { start: inTokens.at, end: inTokens.at + inTokens.length }, numbers);
      if (!read.ok) return { letter: q.letter, ok: false, unreadable: read.unreadable };
      return { letter: q.letter, ok: true, distribution: remap(read.distribution, q.options), label: q.options[picked.line.number]!, reasoning };
    }
    const single = distributionFromSamples([picked.line.number], numbers);
    if ('error' in single) return { letter: q.letter, ok: false, error: single.error };
    return { letter: q.letter, ok: true, distribution: remap(single, q.options), label: q.options[picked.line.number]!, reasoning };
  });
  return { answers, ignored: lines.filter((l) => !asked.has(l.letter)).map((l) => l.raw) };
}

/** Several sampled outputs of the same batched request → each question's empirical distribution. */
export function readJudgeBatchSamples(outputs: readonly string[], request: JudgeBatchRequest): JudgeBatchReading {
  const parsed = outputs.map((o) => ({ lines: answerLines(o), reasoning: lastReflection(o) }));
  const asked = new Set(request.questions.map((q) => q.letter));
  const answers = request.questions.map((q): BatchAnswerReading => {
    const numbers = Object.keys(q.options);
    const samples: (string | null)[] = [];
    const errors: string[] = [];
    let reasoning: string | null = null;
    for (const p of parsed) {
      const picked = p.lines === null ? ({ ok: false, error: "the judge's output has no <answers> block" } as const) : pickLine(p.lines, q.letter, q.options);
      if (picked.ok) {
        samples.push(picked.line.number);
        reasoning ??= p.reasoning;
      } else {
        samples.push(null);
        errors.push(picked.error);
      }
    }
    const d = distributionFromSamples(samples, numbers);
    if ('error' in d) return { letter: q.letter, ok: false, error: `${d.error}: ${[...new Set(errors)].join('; ')}` };
    const mapped = remap(d, q.options);
    const best = Object.entries(mapped.probs).sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
    return { letter: q.letter, ok: true, distribution: mapped, label: best, reasoning };
  });
  const ignored = parsed.flatMap((p) => (p.lines ?? []).filter((l) => !asked.has(l.letter)).map((l) => l.raw));
  return { answers, ignored: [...new Set(ignored)] };
}
