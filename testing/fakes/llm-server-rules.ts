/**
 * The fake LLM's brain, independent of HTTP: the script (rules matched in order), the judge
 * answer with exact label log-probabilities, deterministic fault draws and request keys.
 * Every dialect (OpenAI, Anthropic, custom JSON, soev threads) is first normalised to a FakeRequest.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { candidateTokens, certainTokens, encodingForModel, type FakeToken } from './llm-server-tokens';
import { FakeUsageSchema } from './llm-server-usage';

/**
 * A RegExp, or a string holding one so rules can travel as JSON: `/source/flags` (e.g.
 * `/weather/i`) or a bare source (`gpt-4o`, `judge`), which then matches anywhere.
 */
export const PatternSchema = z.union([z.string(), z.instanceof(RegExp)]);
export type Pattern = z.infer<typeof PatternSchema>;

export const FakeToolCallSchema = z.object({ name: z.string().min(1), arguments: z.unknown() });

export const JudgeSchema = z.object({
  /** Probability per label (normalised if they do not sum to 1); the reply is the most likely one. */
  labels: z.record(z.string(), z.number().min(0)).refine((l) => Object.values(l).some((p) => p > 0), 'at least one label needs p > 0'),
  /** Text before the label, as judges that reason first write it. */
  reasoning: z.string().optional(),
  /**
   * `assay`: Assay's judge protocol, `<reflection>…</reflection>\n<answer>X</answer>`; `bare`: the
   * label alone (after the reasoning, if any). Either way tokenised as OpenAI's tokenizer does
   * (llm-server-tokens.ts): `>X` is one token for most letters.
   */
  format: z.enum(['assay', 'bare']).default('assay'),
  /**
   * Write numbers one digit per token, as open models' tokenizers do (llm-server-tokens.ts): a
   * batched answer's option 10 then arrives as `1` + `0`. In a batched answer, any question's
   * rule asking for it splits the whole answer's numbers (one model writes one answer).
   */
  splitDigits: z.boolean().optional(),
});

export const RuleSchema = z
  .object({
    /** Shown in `requests()` so a test can see which rule answered. */
    name: z.string().optional(),
    model: PatternSchema.optional(),
    /** Matched against the conversation's final turn when it is the user's. */
    lastUser: PatternSchema.optional(),
    /** Matched against the conversation's final turn when it is a tool result (the second step of a tool loop). */
    lastTool: PatternSchema.optional(),
    system: PatternSchema.optional(),
    reply: z.string().optional(),
    /** Send `reply` as the provider's refusal, or as a reply cut off at the token limit, in each dialect's shape (llm-server-outcomes.ts). */
    outcome: z.enum(['refusal', 'cut_off']).optional(),
    toolCalls: z.array(FakeToolCallSchema).optional(),
    judge: JudgeSchema.optional(),
    /** Answer with this HTTP error instead. */
    error: z
      .object({
        status: z.number().int().min(400).max(599),
        message: z.string().optional(),
        headers: z.record(z.string(), z.string()).optional(),
        /** The provider's own error code in the body (OpenAI `insufficient_quota`, Anthropic `billing_error`…): llm-server-outcomes.ts. */
        code: z.string().optional(),
      })
      .optional(),
    /** Never answer (until the client gives up). */
    hang: z.boolean().optional(),
    latencyMs: z.number().min(0).optional(),
    /** Token counts per class (llm-server-usage.ts), each reported in the dialect's documented fields. */
    usage: FakeUsageSchema.optional(),
    /** Reported as OpenRouter's `usage.cost`. */
    costUsd: z.number().min(0).optional(),
    /** Applies to the first n matching requests only, then falls through to later rules. */
    times: z.number().int().positive().optional(),
    /** What the reply says it was served by (its `model` field), over the served table and the requested name. */
    servedModel: z.string().min(1).optional(),
    /** The reply's `system_fingerprint`, over the served table's. */
    fingerprint: z.string().min(1).optional(),
  })
  .refine((r) => [r.reply !== undefined || r.toolCalls !== undefined, r.judge, r.error, r.hang].filter(Boolean).length <= 1, {
    message: 'a rule answers with one of: reply and/or toolCalls, judge, error, hang',
  });
export type Rule = z.infer<typeof RuleSchema>;
/** A rule as written by a caller (defaults such as the judge `format` may be left out). */
export type RuleInput = z.input<typeof RuleSchema>;

export const FaultConfigSchema = z.object({
  /** Only requests whose model matches (all when absent). */
  model: PatternSchema.optional(),
  /** Fractions of requests in [0, 1], drawn deterministically from the seed and the request. */
  rateLimited: z.number().min(0).max(1).optional(),
  serverError: z.number().min(0).max(1).optional(),
  hang: z.number().min(0).max(1).optional(),
  /** A 200 whose content is garbage without any label (a judge that rambled). */
  malformed: z.number().min(0).max(1).optional(),
  /** Transport faults, each a 200: the JSON body cut off halfway, an empty body, an HTML error page (a proxy's). */
  truncated: z.number().min(0).max(1).optional(),
  empty: z.number().min(0).max(1).optional(),
  html: z.number().min(0).max(1).optional(),
  /** The `retry-after` header value sent with a 429 (seconds). */
  retryAfter: z.string().optional(),
});
export type FaultConfig = z.infer<typeof FaultConfigSchema>;
/**
 * What a model says it is, per model name (first match wins): a provider that points an id at a
 * new snapshot changes the `model` field of its replies and their `system_fingerprint`. A test
 * changes both at run time (`setServed`, `POST /__fake/served`) together with the model's rules.
 */
export const ServedEntrySchema = z.object({
  model: PatternSchema,
  servedModel: z.string().min(1).optional(),
  fingerprint: z.string().min(1).optional(),
});
export type ServedEntry = z.infer<typeof ServedEntrySchema>;
export type ServedEntryInput = z.input<typeof ServedEntrySchema>;

/** The fingerprint a model has until a test changes it: stable per model name. */
export function defaultFingerprint(model: string): string {
  return `fp_${createHash('sha256').update(model).digest('hex').slice(0, 10)}`;
}

/** The served identity of one answer: the rule's, else the served table's, else the model name and its default fingerprint. */
export function servedFor(req: Pick<FakeRequest, 'model'>, rule: Pick<Rule, 'servedModel' | 'fingerprint'> | undefined, table: readonly ServedEntry[]): { model: string; fingerprint: string } {
  const entry = table.find((e) => toRegExp(e.model).test(req.model));
  return {
    model: rule?.servedModel ?? entry?.servedModel ?? req.model,
    fingerprint: rule?.fingerprint ?? entry?.fingerprint ?? defaultFingerprint(req.model),
  };
}

export type FaultKind = 'rate_limited' | 'server_error' | 'hang' | 'malformed' | 'truncated' | 'empty' | 'html';

export interface FakeMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  toolCalls?: { id?: string; name: string; arguments: unknown }[];
  toolCallId?: string;
}

export interface FakeRequest {
  dialect: 'openai' | 'anthropic' | 'custom' | 'soev' | 'gemini';
  model: string;
  /** System prompt(s), joined; '' when none. */
  system: string;
  /** The conversation without system turns, normalised across dialects. */
  messages: FakeMessage[];
  temperature?: number;
  maxTokens?: number;
  tools: unknown[];
  /** k when the client asked for top-k log-probabilities (OpenAI), else undefined. */
  topLogprobs?: number;
  attempt?: string;
}

export function toRegExp(p: Pattern): RegExp {
  if (typeof p !== 'string') return new RegExp(p.source, p.flags.replace(/[gy]/g, '')); // g/y would make test() stateful
  const literal = /^\/(.+)\/([imsuv]*)$/s.exec(p);
  return literal ? new RegExp(literal[1]!, literal[2]) : new RegExp(p);
}

export function lastUserText(req: FakeRequest): string {
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = req.messages[i]!;
    if (m.role === 'user' && m.content !== '') return m.content;
  }
  return '';
}

/** The final turn's text when it has this role, else null. */
function finalTurn(req: FakeRequest, role: FakeMessage['role']): string | null {
  const last = req.messages.at(-1);
  return last?.role === role ? last.content : null;
}

export function ruleMatches(rule: Rule, req: FakeRequest): boolean {
  const test = (p: Pattern, text: string | null): boolean => text !== null && toRegExp(p).test(text);
  if (rule.model !== undefined && !toRegExp(rule.model).test(req.model)) return false;
  if (rule.lastUser !== undefined && !test(rule.lastUser, finalTurn(req, 'user'))) return false;
  if (rule.lastTool !== undefined && !test(rule.lastTool, finalTurn(req, 'tool'))) return false;
  if (rule.system !== undefined && !toRegExp(rule.system).test(req.system)) return false;
  return true;
}

export function defaultReply(req: FakeRequest): string {
  return `Fake reply from ${req.model} to: ${lastUserText(req).slice(0, 40)}`;
}

/** Identity of a request for the duplicate counter: what a response cache would key on. */
export function requestKey(req: FakeRequest): string {
  const material = JSON.stringify([req.model, req.system, req.messages, req.temperature ?? null, req.attempt ?? null]);
  return createHash('sha256').update(material).digest('hex').slice(0, 16);
}

/** Uniform in [0, 1) from the seed, the request and how many times it was seen before. */
export function draw(seed: number, key: string, occurrence: number): number {
  const h = createHash('sha256').update(`${seed}:${key}:${occurrence}`).digest();
  return h.readUIntBE(0, 6) / 2 ** 48;
}

/**
 * Which fault (if any) hits this request. Deterministic per (seed, request, occurrence): a
 * retry of the same request is a fresh draw, so a retried call can succeed, and concurrency
 * cannot change which requests fail.
 */
export function pickFault(faults: readonly FaultConfig[], req: FakeRequest, u: number): { kind: FaultKind; config: FaultConfig } | null {
  const config = faults.find((f) => f.model === undefined || toRegExp(f.model).test(req.model));
  if (!config) return null;
  let edge = 0;
  for (const [kind, p] of [
    ['rate_limited', config.rateLimited],
    ['server_error', config.serverError],
    ['hang', config.hang],
    ['malformed', config.malformed],
    ['truncated', config.truncated],
    ['empty', config.empty],
    ['html', config.html],
  ] as const) {
    edge += p ?? 0;
    if (u < edge) return { kind, config };
  }
  return null;
}

export interface JudgeAnswer {
  content: string;
  label: string;
  /**
   * When log-probabilities were asked for (`k` given): the content's tokens as the model's
   * tokenizer writes them; where the labels' texts part, the alternatives carry each label's
   * log(p) (see llm-server-tokens.ts).
   */
  tokens?: FakeToken[];
}

/** How a judge answer is asked: top-k log-probabilities (absent: not asked), the model (its tokenizer), a sample's attempt. */
export interface JudgeAsk {
  k?: number;
  model: string;
  sample?: { attempt: number };
}

/**
 * The judge reply for a label distribution: the answer is the most likely label, and where the
 * labels' texts part, the top log-probabilities hold each label's log(p) (p > 0) as the tokenizer
 * writes it there (`>A`, `>B`, …), best first, cut to the k the client asked for; a client that
 * finds the label's token and maps those alternatives back to labels gets the distribution back.
 * A sampled request (temperature > 0, no log-probabilities asked for) answers a label drawn at a
 * low-discrepancy quantile of its attempt number instead, so n samples of attempts 0…n−1
 * approximate the distribution deterministically.
 */
export function judgeAnswer(judge: z.infer<typeof JudgeSchema>, ask: JudgeAsk): JudgeAnswer {
  const { ranked, chosen } = rankLabels(judge.labels, ask.sample);
  const [before, after] =
    judge.format === 'assay'
      ? [`<reflection>${judge.reasoning ?? 'Graded against the criterion.'}</reflection>\n<answer>`, '</answer>']
      : [judge.reasoning ? `${judge.reasoning} ` : '', ''];
  const content = before + chosen.token + after;
  if (ask.k === undefined) return { content, label: chosen.token };
  const candidates = ranked.map((r) => ({ text: before + r.token + after, p: Math.exp(r.logprob) }));
  return { content, label: chosen.token, tokens: candidateTokens(candidates, ranked.indexOf(chosen), ask.k, encodingForModel(ask.model), judge.splitDigits) };
}

type Ranked = { token: string; logprob: number };

/** The labels as log-probabilities, best first, and the one answered (the best, or a sampled one). */
function rankLabels(labels: Record<string, number>, sample?: { attempt: number }): { ranked: Ranked[]; chosen: Ranked } {
  const entries = Object.entries(labels).filter(([, p]) => p > 0);
  const total = entries.reduce((s, [, p]) => s + p, 0);
  const ranked = entries.map(([token, p]) => ({ token, logprob: Math.log(p / total) })).sort((a, b) => b.logprob - a.logprob);
  let chosen = ranked[0]!;
  if (sample) {
    const u = (((sample.attempt + 0.5) * 0.6180339887498949) % 1 + 1) % 1;
    let acc = 0;
    for (const r of ranked) {
      acc += Math.exp(r.logprob);
      chosen = r;
      if (u < acc) break;
    }
  }
  return { ranked, chosen };
}

/** One question of Assay's batched judge prompt, seen as the single-point prompt it stands for. */
export interface BatchQuestionView {
  letter: string;
  /** How many numbered options the question has. */
  options: number;
  /** The request as if this question had been asked alone (same model, system, reply and blocks). */
  view: FakeRequest;
}

const BATCH_QUESTION = /<QUESTION id="([A-Z])">\n([\s\S]*?)\n<\/QUESTION>\n<OPTIONS id="\1">\n([\s\S]*?)\n<\/OPTIONS>(\nOptions are ordered[^\n]*)?/g;

/**
 * Recognises Assay's batched judge prompt (lib/core/judging/batch-prompt.ts: `<QUESTION id="A">`
 * blocks with numbered `<OPTIONS id="A">`) and rewrites each question into the per-point prompt
 * (lettered options, one `<QUESTION>`), so the rules written for per-point judge prompts
 * (`lastUser: /E\. CLASS_FULLY_PRESENT/`, a criterion's text…) answer each question the same way.
 * The holistic rubric list of a view holds the criteria not asked in the call. Null otherwise.
 */
export function batchedJudgeViews(req: FakeRequest): BatchQuestionView[] | null {
  const last = req.messages.at(-1);
  if (last?.role !== 'user' || !last.content.includes('<QUESTION id="')) return null;
  const text = last.content;
  const preamble = text.slice(0, text.indexOf('<QUESTION id="')).trimEnd();
  const views: BatchQuestionView[] = [];
  for (const m of text.matchAll(BATCH_QUESTION)) {
    const lines = m[3]!.split('\n').map((l) => /^(\d+)\. ([\s\S]*)$/.exec(l));
    if (lines.some((l) => l === null)) return null;
    const lettered = lines.map((l) => `${String.fromCharCode(64 + Number(l![1]))}. ${l![2]}`);
    const order = m[4] ? ' Options are ordered from worst to best.' : '';
    const content = `${preamble}\n\n<QUESTION>\n${m[2]}\n</QUESTION>\n\n<OPTIONS>\n${lettered.join('\n')}\n</OPTIONS>\nAnswer with the letter of the option that fits best.${order}`;
    views.push({ letter: m[1]!, options: lines.length, view: { ...req, messages: [...req.messages.slice(0, -1), { role: 'user', content }] } });
  }
  return views.length > 0 ? views : null;
}

/**
 * The batched judge reply: one `LETTER: NUMBER` line per question whose rule is a judge rule
 * (a question without one gets no line, as a per-point prompt without one gets no label), each
 * answer number's position carrying log(p) of every option the rule gives, as the tokenizer
 * writes the numbers there, exactly as the per-point answer carries them for its letter. Sampled
 * requests draw each question's answer at the same quantile of the attempt number as a
 * per-point sample would.
 */
export function batchedJudgeAnswer(questions: readonly { letter: string; options: number; judge: z.infer<typeof JudgeSchema> | undefined }[], ask: JudgeAsk): JudgeAnswer {
  const reasoning = questions.find((q) => q.judge?.reasoning)?.judge?.reasoning ?? 'Graded against each question.';
  const head = `<reflection>${reasoning}</reflection>\n<answers>\n`;
  const lines: { letter: string; ranked: Ranked[]; chosen: Ranked }[] = [];
  for (const q of questions) {
    if (!q.judge) continue;
    // Option letters (A = option 1) as the per-point protocol writes them; anything else is no option here.
    const numbered: Record<string, number> = {};
    for (const [label, p] of Object.entries(q.judge.labels)) {
      const n = /^[A-Z]$/.test(label) ? label.charCodeAt(0) - 64 : 0;
      if (n >= 1 && n <= q.options) numbered[String(n)] = p;
    }
    if (!Object.values(numbered).some((p) => p > 0)) continue;
    lines.push({ letter: q.letter, ...rankLabels(numbered, ask.sample) });
  }
  /** The answer with line `at` (if any) answering `number` instead of its chosen option. */
  const render = (at = -1, number = '') => `${head}${lines.map((l, j) => `${l.letter}: ${j === at ? number : l.chosen.token}\n`).join('')}</answers>`;
  const content = render();
  if (ask.k === undefined) return { content, label: '' };
  const encoding = encodingForModel(ask.model);
  const digits = questions.some((q) => q.judge?.splitDigits);
  // Each question's alternatives, varying its line alone; the positions where its options part are its own.
  const perLine = lines.map((l, j) => candidateTokens(l.ranked.map((r) => ({ text: render(j, r.token), p: Math.exp(r.logprob) })), l.ranked.indexOf(l.chosen), ask.k!, encoding, digits));
  const tokens = certainTokens(content, ask.k, encoding, digits).map((t, pos) => perLine.find((q) => q[pos]!.logprob !== 0 || q[pos]!.top.length > 1)?.[pos] ?? t);
  return { content, label: '', tokens };
}

/** Plain replies get token log-probabilities too: the tokenizer's tokens, each certain (deterministic, not meaningful). */
export function plainLogprobs(content: string, k: number, model: string): FakeToken[] {
  return certainTokens(content, k, encodingForModel(model));
}

export const GARBAGE = 'Hmm… let me think about that ~~ §§ (no verdict) ~~';

/** Deterministic token counts so usage assertions are stable: one token per word. */
export function countTokens(...texts: string[]): number {
  return texts.reduce((n, t) => n + (t.match(/\S+/g)?.length ?? 0), 0);
}
