/**
 * Reading a judge's distribution from the token that carries its answer label, whatever the
 * tokenizer glued to the label. Used by both judge readers (prompt.ts for one point,
 * batch-reading.ts for a batch), so there is one definition of how a label is found.
 *
 * OpenAI's tokenizers (o200k_base, cl100k_base; checked with js-tiktoken) write
 * `<answer>D</answer>` as `<`, `answer`, `>D`, `</`, `answer`, `>`: the letter shares its token
 * with `>`, and the alternatives at that position are `>A`, `>B`, …. `<answer> B </answer>`
 * carries the letter as ` B`; a batched `A: 10` as `:`, ` `, `10`. Some letters are not glued
 * (o200k: F, G, H, J, O, Q, R, U, V, W, Y come as `>` then `F`): there the alternatives that glue
 * other letters to `>` sit one token earlier, at the bare `>`, and the letter's own token holds
 * the rest, conditional on that `>`. Both positions are read and combined.
 *
 * An alternative names a label when, after removing the text the chosen token carries before
 * and after the label (compared ignoring case and whitespace), what is left is a label; several
 * alternatives of one label add up. What the reading cannot do is say so instead of guessing:
 * a label spread over several tokens (option 10 as `1` + `0`: the first token's alternatives
 * are not options), no label among the alternatives, or more than a little probability on
 * alternatives that only lead towards a label in a later token this reply does not show (the
 * bare `>` next to the chosen `>D`, which may go on to F). The caller then samples.
 */
import { distributionFromLogprobs, type JudgeDistribution, type TopLogprob } from './distribution';

/** One output token as the provider returned it, with the alternatives at its position. */
export interface JudgeOutputToken {
  token: string;
  logprob: number;
  top: readonly TopLogprob[];
}

/** Where the label sits in the tokens' concatenated text: [start, end) in characters. */
export interface LabelSpan {
  start: number;
  end: number;
}

export type LabelPositionReading = { ok: true; distribution: JudgeDistribution } | { ok: false; unreadable: string };

/**
 * Probability (of the whole position) that may sit on alternatives leading towards a label not
 * shown before the reading is refused: at most this much could move between labels, so a
 * judged value read anyway is off by at most 0.01.
 */
export const UNSEEN_LABEL_TOLERANCE = 0.01;

const squash = (s: string): string => s.replace(/\s+/g, '').toLowerCase();

interface Classified {
  labelled: TopLogprob[];
  /** Probability on alternatives that lead towards a label in a later token (`>` next to `>D`). */
  unseen: number;
  unseenTokens: string[];
}

/** Maps each alternative to a label by removing `before` and `after` as the chosen token carries them. */
function classify(top: readonly TopLogprob[], before: string, after: string, labels: ReadonlyMap<string, string>): Classified {
  const pre = squash(before);
  const post = squash(after);
  const out: Classified = { labelled: [], unseen: 0, unseenTokens: [] };
  for (const alt of top) {
    if (!Number.isFinite(alt.logprob)) continue;
    const all = squash(alt.token);
    if (!all.startsWith(pre)) continue; // another path (not this answer's text): no label
    const rest = all.slice(pre.length);
    const bare = post && rest.endsWith(post) ? rest.slice(0, rest.length - post.length) : rest;
    const label = labels.get(bare);
    if (label !== undefined && bare !== '') {
      out.labelled.push({ token: label, logprob: alt.logprob });
    } else if (rest === '' || [...labels.keys()].some((l) => l.length > rest.length && l.startsWith(rest))) {
      out.unseen += Math.exp(alt.logprob);
      out.unseenTokens.push(alt.token);
    }
  }
  return out;
}

function tokenAt(tokens: readonly JudgeOutputToken[], offset: number): { index: number; start: number } | null {
  let start = 0;
  for (const [index, t] of tokens.entries()) {
    const end = start + t.token.length;
    if (offset >= start && offset < end) return { index, start };
    start = end;
  }
  return null;
}

/**
 * The distribution over `labels` (as the judge writes them: letters, option numbers) read at the
 * token(s) holding the label at `span`, or why it cannot be read there.
 */
export function readLabelPosition(tokens: readonly JudgeOutputToken[], span: LabelSpan, labels: readonly string[]): LabelPositionReading {
  const found = tokenAt(tokens, span.start);
  if (!found) return { ok: false, unreadable: 'no log-probability token covers the answer' };
  const token = tokens[found.index]!;
  const text = tokens.map((t) => t.token).join('').slice(span.start, span.end);
  if (span.end > found.start + token.token.length) {
    const parts: string[] = [];
    for (let i = found.index, at = found.start; i < tokens.length && at < span.end; at += tokens[i]!.token.length, i++) parts.push(tokens[i]!.token);
    return { ok: false, unreadable: `the answer "${text}" is split across tokens (${parts.map((p) => JSON.stringify(p)).join(' + ')}), so no one position's alternatives name the options` };
  }
  const index = new Map(labels.map((l) => [squash(l), l]));
  const before = token.token.slice(0, span.start - found.start);
  const after = token.token.slice(span.end - found.start);
  const own = classify(token.top, before, after, index);
  let entries = own.labelled;
  let unseen = own.unseen;
  const unseenTokens = [...own.unseenTokens];
  // Only whitespace before the label in its token: alternatives that glue a label to the previous
  // token's text (`>A` where the reply has `>` then `F`) compete with this whole path.
  const previous = found.index > 0 && before.trim() === '' ? tokens[found.index - 1]! : null;
  if (previous) {
    const others = previous.top.filter((alt) => alt.token !== previous.token);
    const outer = classify(others, previous.token + before, after, index);
    if (outer.labelled.length > 0) {
      entries = [...outer.labelled, ...own.labelled.map((e) => ({ token: e.token, logprob: e.logprob + previous.logprob }))];
      unseen = outer.unseen + Math.exp(previous.logprob) * own.unseen;
      unseenTokens.push(...outer.unseenTokens);
    }
  }
  const shown = token.top.map((t) => JSON.stringify(t.token)).join(', ') || 'none';
  if (entries.length === 0) return { ok: false, unreadable: `no label (${labels.join(', ')}) among the alternatives at the answer's token ${JSON.stringify(token.token)} (${shown})` };
  if (unseen > UNSEEN_LABEL_TOLERANCE) {
    return {
      ok: false,
      unreadable: `${(unseen * 100).toFixed(1)}% of the probability at the answer's token went to ${[...new Set(unseenTokens)].map((t) => JSON.stringify(t)).join(', ')}, which lead towards a label in a later token the reply does not show`,
    };
  }
  const d = distributionFromLogprobs(entries, labels);
  return 'error' in d ? { ok: false, unreadable: d.error } : { ok: true, distribution: d };
}
