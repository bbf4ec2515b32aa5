/**
 * Log-probabilities as OpenAI sends them, for the fake's answers.
 *
 * OpenAI API reference, Chat Completions > The chat completion object: `choices[].logprobs.content`
 * holds one entry per output token, `{ token, logprob, bytes, top_logprobs }`, and `top_logprobs`
 * lists "the most likely tokens and their log probability, at this token position" (as many as
 * the request's `top_logprobs`, 0–20); openai-node's `ChatCompletionTokenLogprob` type
 * (src/resources/chat/completions.ts) has the same shape. The tokens are the model's tokenizer's:
 * o200k_base for gpt-4o, gpt-4.1, gpt-4.5, gpt-5 and the o-series, cl100k_base for gpt-4 and
 * gpt-3.5-turbo (tiktoken's model table, which js-tiktoken's `getEncodingNameForModel` carries,
 * and its prefix table for dated names: `gpt-4-`, `gpt-3.5-turbo-`, `gpt-35-turbo-`). Any other
 * name, the fake's own (`fake-judge`, …) included, gets o200k_base, the tokenizer of OpenAI's
 * current models, so every test meets the tokens a real OpenAI judge sends.
 *
 * A judge's answer is a choice between candidate texts (the same reply with each label in the
 * answer's place), each with its probability. The fake answers like a model that writes the
 * chosen candidate's tokens: at each position, the alternatives are the tokens that the
 * candidates still agreeing with the tokens so far have there, with their summed probability,
 * conditional on those tokens. So where o200k_base writes `<answer>D` as `<`, `answer`, `>D`, the
 * alternatives at `>D` are `>A`, `>B`, … and a bare `>` holding every letter the tokenizer does
 * not glue to `>` (F, G, H, …), whose own token then comes next.
 *
 * `splitDigits` writes every number one digit per token, as tokenizers of open models served
 * through OpenAI-compatible APIs do (LLaMA: "we split all numbers into individual digits",
 * Touvron et al. 2023, "LLaMA: Open and Efficient Foundation Language Models", §2, Tokenizer).
 * Only the numbers are split; the other text keeps OpenAI's tokens (those vocabularies are not
 * at hand), which is all a reader of option numbers sees of the difference: option 10 arrives
 * as `1` + `0`.
 */
import { getEncodingNameForModel, Tiktoken, type TiktokenModel } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import o200k from 'js-tiktoken/ranks/o200k_base';

export type EncodingName = 'o200k_base' | 'cl100k_base';

export interface FakeToken {
  token: string;
  logprob: number;
  top: { token: string; logprob: number }[];
}

/** One way the answer could have been written, and how likely the judge is to write it. */
export interface Candidate {
  text: string;
  p: number;
}

/** OpenAI's cap on `top_logprobs` (API reference: "an integer between 0 and 20"). */
export const MAX_TOP_LOGPROBS = 20;

const CL100K_PREFIX = /^(gpt-4|gpt-3\.5-turbo|gpt-35-turbo)(-|$)/;

/** The tokenizer of a model name as sent to the API (an OpenRouter-style `openai/gpt-4` reads as `gpt-4`). */
export function encodingForModel(model: string): EncodingName {
  const name = model.slice(model.lastIndexOf('/') + 1);
  try {
    return getEncodingNameForModel(name as TiktokenModel) === 'cl100k_base' ? 'cl100k_base' : 'o200k_base';
  } catch {
    return CL100K_PREFIX.test(name) ? 'cl100k_base' : 'o200k_base';
  }
}

// Building a tokenizer from its ranks takes about a second (o200k_base), so each is built once
// per process, on first use; tokenised texts are kept, since a bench's judges answer the same
// few texts thousands of times.
const encoders = new Map<EncodingName, Tiktoken>();
const tokenised = new Map<string, string[]>();
const KEEP_TEXTS = 4096;

/**
 * Builds the tokenizer now rather than inside the first request that needs it: a fake started
 * with judge rules calls this, so the second of CPU is spent before any client's timeout runs.
 */
export function warmTokenizer(name: EncodingName = 'o200k_base'): void {
  encoder(name);
}

function encoder(name: EncodingName): Tiktoken {
  let e = encoders.get(name);
  if (!e) {
    e = new Tiktoken(name === 'o200k_base' ? o200k : cl100k);
    encoders.set(name, e);
  }
  return e;
}

/**
 * The text as the tokenizer's token strings (a token that is part of a multi-byte character
 * reads as U+FFFD; the API offers `bytes` to put those back together). Special-token text such
 * as `<|endoftext|>` in a reply is ordinary text here, as in a model's output.
 */
export function tokenStrings(text: string, name: EncodingName, splitDigits = false): string[] {
  const key = `${name}${splitDigits ? '+digits' : ''}\u0000${text}`;
  const hit = tokenised.get(key);
  if (hit) return hit;
  const e = encoder(name);
  const whole = e.encode(text, [], []).map((id) => e.decode([id]));
  const strings = splitDigits ? whole.flatMap((t) => t.match(/\d|\D+/g) ?? [t]) : whole;
  if (tokenised.size >= KEEP_TEXTS) tokenised.clear();
  tokenised.set(key, strings);
  return strings;
}

/**
 * The tokens of `candidates[chosen]`, each with the alternatives at its position among the
 * candidates that agree with the tokens before it (best first, cut to `k`), and its own
 * log-probability conditional on those tokens. Where every such candidate has the same token,
 * it is certain (log-probability 0, itself the only alternative).
 */
export function candidateTokens(candidates: readonly Candidate[], chosen: number, k: number, name: EncodingName, splitDigits = false): FakeToken[] {
  const seqs = candidates.map((c) => tokenStrings(c.text, name, splitDigits));
  const mine = seqs[chosen]!;
  let alive = candidates.flatMap((c, i) => (c.p > 0 || i === chosen ? [i] : []));
  const cut = Math.max(0, Math.min(k, MAX_TOP_LOGPROBS));
  return mine.map((token, pos) => {
    const groups = new Map<string, number>();
    let total = 0;
    for (const i of alive) {
      const t = seqs[i]![pos];
      if (t === undefined) continue; // a candidate that already ended: no token here
      groups.set(t, (groups.get(t) ?? 0) + candidates[i]!.p);
      total += candidates[i]!.p;
    }
    alive = alive.filter((i) => seqs[i]![pos] === token);
    const ranked = [...groups].sort((a, b) => b[1] - a[1]).map(([t, p]) => ({ token: t, logprob: total > 0 ? Math.log(p / total) : 0 }));
    const logprob = ranked.find((r) => r.token === token)?.logprob ?? 0;
    return { token, logprob, top: ranked.slice(0, cut) };
  });
}

/**
 * Common words, none of them a judge label (a letter or a number), that fill the alternatives
 * the candidates leave empty, far below any candidate's probability.
 */
const FILLERS = [' the', ',', ' of', ' and', '.', ' to', ' in', ' is', ' that', ' for', ' it', ' with', ' as', ' was', ' on', ' be', ' at', ' by', ' this', ' from'];

/**
 * OpenAI's API reference (Chat Completions, `logprobs.content[].top_logprobs`): "the most likely
 * tokens and their log probability, at this token position. In rare cases, there may be fewer than
 * the number of requested top_logprobs returned." So every position carries `k` alternatives, the
 * unlikely ones near zero probability, not only the candidates the fake was scripted with. Applied
 * once, where the fake hands its answer to a dialect, so the candidates' own positions stay
 * recognisable while the answer is built.
 */
export function withFillers(tokens: readonly FakeToken[], k: number): FakeToken[] {
  const cut = Math.max(0, Math.min(k, MAX_TOP_LOGPROBS));
  return tokens.map((t) => ({ ...t, top: padded(t.top, cut) }));
}

function padded(top: readonly { token: string; logprob: number }[], k: number): { token: string; logprob: number }[] {
  const out = [...top];
  for (const filler of FILLERS) {
    if (out.length >= k) break;
    if (!out.some((t) => t.token === filler)) out.push({ token: filler, logprob: -25 - out.length });
  }
  return out;
}

/** A reply the fake writes with certainty: its tokens, each the only alternative at its position. */
export function certainTokens(text: string, k: number, name: EncodingName, splitDigits = false): FakeToken[] {
  return candidateTokens([{ text, p: 1 }], 0, k, name, splitDigits);
}
