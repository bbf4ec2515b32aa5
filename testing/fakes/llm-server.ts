/**
 * The fake LLM provider: ONE real HTTP server used by the unit tests, the e2e suite and the
 * benchmarks (a real server at the network boundary, never a module mock). It speaks OpenAI `POST /v1/chat/completions`, Anthropic
 * `POST /v1/messages`, Gemini `POST /v1beta/models/{m}:generateContent` (llm-server-gemini.ts),
 * a home-made `POST /custom/chat`, `GET /v1/models`, both batch APIs
 * (OpenAI Files + Batches, Anthropic Message Batches: llm-server-batch.ts), and embeddings as
 * OpenAI `POST /v1/embeddings`, Gemini `POST /v1beta/models/{m}:batchEmbedContents` (and
 * `:embedContent`) and `POST /custom/embed` (llm-server-embeddings.ts), and a soev server's
 * threads API `POST /soev/api/v1/threads/runs` answering with citations (llm-server-soev.ts); it is scripted
 * by rules (which also answer each question of a batched judge prompt, as they answer it asked
 * alone), injects seeded faults, counts calls so a test can prove that no completed call
 * was made twice, and keeps a billing ledger (tokens × its price, batch lines at half price).
 * `/__fake/*` lets another process (Playwright) script and inspect it.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { z } from 'zod';
import {
  DEFAULT_EMBEDDING_MODELS,
  EmbeddingBadRequest,
  embeddingDialectFor,
  embeddingModelFor,
  EmbeddingModelSchema,
  fakeEmbedding,
  parseEmbeddingRequest,
  renderEmbeddingError,
  renderEmbeddings,
  type EmbeddingDialect,
  type EmbeddingModel,
} from './llm-server-embeddings';
import { SOEV_RUNS_PATH } from './llm-server-soev';
import { warmTokenizer, withFillers } from './llm-server-tokens';
import { BatchConfigSchema, createBatchApis, readBytes, type BatchConfig, type BatchConfigInput, type BatchStats } from './llm-server-batch';
import { ToolShapeError } from './llm-server-tools';
import { answerHeaders, BadRequest, parseRequest, rateLimitReply, renderAnswer, renderError, type Dialect, type FakeAnswer } from './llm-server-dialects';
import { openAiEmbeddingLimitError } from './llm-server-embedding-limits';
import { isGeminiChatPath, thoughtsFor } from './llm-server-gemini';
import { withErrorCode, withOutcome } from './llm-server-outcomes';
import { wireViolation } from './llm-server-wire';
import { billedUsd, type FakePrice, type FakeUsage } from './llm-server-usage';
import { asSampled, capabilityRefusal, withReasoning } from './llm-server-capabilities';
import {
  batchedJudgeAnswer,
  batchedJudgeViews,
  countTokens,
  defaultReply,
  draw,
  FaultConfigSchema,
  GARBAGE,
  judgeAnswer,
  lastUserText,
  pickFault,
  plainLogprobs,
  requestKey,
  ruleMatches,
  RuleSchema,
  servedFor,
  ServedEntrySchema,
  type FakeRequest,
  type FaultConfig,
  type FaultKind,
  type Rule,
  type RuleInput,
  type ServedEntry,
  type ServedEntryInput,
} from './llm-server-rules';

export type { FaultConfig, Rule, RuleInput, Pattern, FakeRequest, FakeMessage, ServedEntryInput } from './llm-server-rules';
export type { BatchConfigInput, BatchStats } from './llm-server-batch';

/** The fake's price list, USD per 1M tokens (every model alike): what its billing ledger charges, each token class at its rate. */
export type { FakePrice };
export const FAKE_PRICE_PER_MTOK: FakePrice = { input: 1, output: 2, cachedInput: 0.1, cacheWrite: 1.25 };

/** What the fake billed: live calls at its price, batch lines at half of it (as OpenAI and Anthropic do). */
export interface FakeBilling {
  liveUsd: number;
  batchUsd: number;
  totalUsd: number;
  /** Billed calls (live) and lines (batch). */
  liveCalls: number;
  batchLines: number;
}

export interface FakeLlmOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  rules?: RuleInput[];
  /** Delay before every answer, unless a rule sets its own. */
  latencyMs?: number;
  faults?: FaultConfig | FaultConfig[];
  /** Seed of the fault draws (default 1). */
  seed?: number;
  /** When set, chat requests must present one of these keys (Bearer or x-api-key), else 401. */
  apiKeys?: string[];
  /** How many requests `requests()` keeps (oldest dropped first); default 1000. */
  keepRequests?: number;
  /** What each model says it is (`model` field, `system_fingerprint`); see setServed. */
  served?: ServedEntryInput[];
  /** Embedding models' dimensions and noise (default DEFAULT_EMBEDDING_MODELS; others get a fallback). */
  embeddingModels?: EmbeddingModel[];
  /**
   * A provider's concurrency limit: a chat request arriving while this many are already being
   * answered gets a 429 (retry-after 0.05 s), as a rate-limited account does. Unset: no limit.
   */
  maxConcurrent?: number;
  /** The batch APIs' behaviour: completion delay, lines answered as errored (see llm-server-batch.ts). */
  batch?: BatchConfigInput;
  /** The batch APIs' clock (default Date.now): a test simulating a day of polling moves it as its sleeps pass. */
  batchClock?: () => number;
  price?: FakePrice;
}

export interface FakeEmbeddingStats {
  /** Embedding requests received, whatever their outcome. */
  calls: number;
  /** Texts in requests that were answered with vectors. */
  inputs: number;
  byModel: Record<string, { calls: number; inputs: number }>;
  /** Most embedding requests open at once: what a concurrency limit allowed. */
  peakInFlight: number;
}

/** How many chat requests the fake answered at once, and how many it refused for the limit. */
export interface FakeConcurrency {
  inFlight: number;
  /** Most requests being answered at once (refused ones not counted). */
  peak: number;
  /** Requests answered 429 because `maxConcurrent` were in flight. */
  refused: number;
}

export interface RecordedRequest {
  seq: number;
  dialect: Dialect;
  path: string;
  key: string;
  request: FakeRequest;
  status: number;
  fault?: FaultKind;
  rule?: string;
  /** The parameter the model refused (llm-server-capabilities.ts), when the request was answered with that refusal. */
  refused?: string;
}

export interface FakeStats {
  calls: number;
  completed: number;
  duplicateCompletedCalls: number;
  byKey: Record<string, number>;
  embeddings: FakeEmbeddingStats;
}

export interface FakeLlm {
  /** OpenAI-style base URL, e.g. http://127.0.0.1:4010/v1 (set ASSAY_LLM_BASE_URL to it). */
  url: string;
  /** Scheme, host and port only, e.g. http://127.0.0.1:4010. */
  origin: string;
  port: number;
  /** Every chat request received, whatever its outcome (embedding requests are counted in stats().embeddings). */
  calls(): number;
  /** Completed (200, well-formed) responses per request key. */
  callsByKey(): Map<string, number>;
  /** Completed responses beyond the first, summed over keys: 0 when nothing was done twice. */
  duplicateCompletedCalls(): number;
  /** The most recent requests, normalised, with how each was answered. */
  requests(): RecordedRequest[];
  stats(): FakeStats;
  concurrency(): FakeConcurrency;
  /** Changes (or with null removes) the concurrency limit; see FakeLlmOptions.maxConcurrent. */
  setMaxConcurrent(n: number | null): void;
  setRules(rules: RuleInput[]): void;
  setFaults(faults: FaultConfig | FaultConfig[] | null): void;
  setLatency(ms: number): void;
  /**
   * What models say they are from now on: the `model` field and `system_fingerprint` of their
   * replies (a provider pointing an id at a new snapshot). `null` restores the defaults.
   */
  setServed(entries: ServedEntryInput[] | null): void;
  /** How batches behave from now on (completion delay, failing lines); null restores the start options. */
  setBatch(config: BatchConfigInput | null): void;
  /** The billing ledger: what every completed call and batch line cost. */
  billing(): FakeBilling;
  batchStats(): BatchStats;
  /** Clears counters and the request log, and restores the rules and faults given at start. */
  reset(): void;
  close(): Promise<void>;
}

const MAX_BODY = 5 * 1024 * 1024;

async function readBody(req: IncomingMessage): Promise<string> {
  return (await readBytes(req, MAX_BODY)).toString('utf8');
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** The client hung up (gave up waiting, or aborted): nothing more to send. */
function clientGone(res: ServerResponse): boolean {
  return res.destroyed || !res.socket || res.socket.destroyed;
}

function dialectFor(method: string, path: string): Dialect | null {
  if (method !== 'POST') return null;
  if (path.endsWith('/chat/completions')) return 'openai';
  if (path.endsWith('/messages')) return 'anthropic';
  if (path === '/custom/chat') return 'custom';
  if (path === SOEV_RUNS_PATH) return 'soev';
  if (isGeminiChatPath(path)) return 'gemini';
  return null;
}

function presentedKey(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice('Bearer '.length);
  const x = req.headers['x-api-key'] ?? req.headers['x-goog-api-key'];
  // Gemini also takes the key as `?key=` (Gemini API reference, API keys).
  return (Array.isArray(x) ? x[0] : x) ?? new URL(req.url ?? '/', 'http://fake').searchParams.get('key') ?? undefined;
}

const normaliseFaults = (f: FaultConfig | FaultConfig[] | null | undefined): FaultConfig[] =>
  (f == null ? [] : Array.isArray(f) ? f : [f]).map((c) => FaultConfigSchema.parse(c));

/**
 * A Gemini thinking model's thoughts (llm-server-gemini.ts `thoughtsFor`) in the answer's usage, as
 * part of its output: reported apart from the answer (`thoughtsTokenCount`) and billed as output.
 */
function withThoughts(req: FakeRequest, usage: FakeUsage): FakeUsage {
  const thoughts = req.dialect === 'gemini' && usage.reasoningTokens === undefined ? thoughtsFor(req, usage.completionTokens) : 0;
  return thoughts ? { ...usage, completionTokens: usage.completionTokens + thoughts, reasoningTokens: thoughts } : usage;
}

/**
 * Rules as given at start or later (setRules, the admin route). Judge answers are tokenised with
 * OpenAI's tokenizer (llm-server-tokens.ts), whose tables take about a second of CPU to build:
 * built when judge rules arrive, not inside the first judge request, where it would stall every
 * request in flight (a benchmark sets its rules after start, then times the run).
 */
function parseRules(input: readonly RuleInput[]): Rule[] {
  const parsed = input.map((r) => RuleSchema.parse(r));
  if (parsed.some((r) => r.judge)) warmTokenizer();
  return parsed;
}

export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const initialRules = parseRules(options.rules ?? []);
  const initialFaults = normaliseFaults(options.faults);
  const seed = options.seed ?? 1;
  const keep = options.keepRequests ?? 1000;
  const apiKeys = options.apiKeys ? new Set(options.apiKeys) : null;

  const initialServed: ServedEntry[] = (options.served ?? []).map((e) => ServedEntrySchema.parse(e));
  let rules = initialRules;
  let faults = initialFaults;
  let served = initialServed;
  const initialBatch = BatchConfigSchema.parse(options.batch ?? {});
  let batchConfig: BatchConfig = initialBatch;
  const price = options.price ?? FAKE_PRICE_PER_MTOK;
  let billing: FakeBilling = { liveUsd: 0, batchUsd: 0, totalUsd: 0, liveCalls: 0, batchLines: 0 };
  // Billed as the providers bill: tokens × price, batch lines at `rate` 0.5.
  const bill = (usage: FakeUsage, rate: number): void => {
    const usd = billedUsd(usage, price) * rate;
    if (rate === 1) {
      billing.liveUsd += usd;
      billing.liveCalls++;
    } else {
      billing.batchUsd += usd;
      billing.batchLines++;
    }
    billing.totalUsd += usd;
  };
  let latencyMs = options.latencyMs ?? 0;
  let maxConcurrent = options.maxConcurrent ?? null;
  let inFlight = 0;
  let peak = 0;
  let refused = 0;
  let calls = 0;
  let seq = 0;
  let ruleUses = new Map<Rule, number>();
  let seen = new Map<string, number>();
  let completed = new Map<string, number>();
  let log: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const embeddingModels = (options.embeddingModels ?? DEFAULT_EMBEDDING_MODELS).map((m) => EmbeddingModelSchema.parse(m));
  let embeddingStats: FakeEmbeddingStats = { calls: 0, inputs: 0, byModel: {}, peakInFlight: 0 };
  let embeddingsInFlight = 0;

  const record = (r: RecordedRequest): void => {
    log.push(r);
    if (log.length > keep) log = log.slice(-keep);
  };

  const pickRule = (req: FakeRequest): Rule | undefined => {
    const rule = rules.find((r) => ruleMatches(r, req) && (r.times === undefined || (ruleUses.get(r) ?? 0) < r.times));
    if (rule) ruleUses.set(rule, (ruleUses.get(rule) ?? 0) + 1);
    return rule;
  };

  /** Per question of a batched judge prompt: its view and the rule that answers it. */
  type BatchRules = { letter: string; options: number; rule: Rule | undefined }[];

  function answerFor(req: FakeRequest, rule: Rule | undefined, malformed: boolean, batch?: BatchRules): FakeAnswer {
    const k = req.topLogprobs;
    let content: string;
    let tokens: FakeAnswer['logprobTokens'];
    if (malformed) {
      content = GARBAGE;
      tokens = k === undefined ? undefined : plainLogprobs(content, k, req.model);
    } else if (batch) {
      const sampled = k === undefined && (req.temperature ?? 0) > 0;
      const judged = batchedJudgeAnswer(
        batch.map((q) => ({ letter: q.letter, options: q.options, judge: q.rule?.judge })),
        { k, model: req.model, ...(sampled ? { sample: { attempt: Number(req.attempt ?? 0) || 0 } } : {}) },
      );
      content = judged.content;
      tokens = judged.tokens;
    } else if (rule?.judge) {
      const sampled = k === undefined && (req.temperature ?? 0) > 0;
      const judged = judgeAnswer(rule.judge, { k, model: req.model, ...(sampled ? { sample: { attempt: Number(req.attempt ?? 0) || 0 } } : {}) });
      content = judged.content;
      tokens = judged.tokens;
    } else {
      content = rule?.reply ?? (rule?.toolCalls ? '' : defaultReply(req));
      tokens = k === undefined ? undefined : plainLogprobs(content, k, req.model);
    }
    const toolCalls = malformed ? [] : (rule?.toolCalls ?? []).map((c, i) => ({ id: `call_fake_${seq}_${i}`, name: c.name, arguments: c.arguments ?? {} }));
    const promptTokens = countTokens(req.system, ...req.messages.map((m) => m.content));
    const completionTokens = countTokens(content, ...toolCalls.map((c) => JSON.stringify(c.arguments)));
    return {
      content,
      toolCalls,
      ...(tokens && k !== undefined ? { logprobTokens: withFillers(tokens, k) } : {}),
      // A reasoning model's hidden reasoning is billed with the completion (llm-server-capabilities.ts).
      usage: rule?.usage ?? withThoughts(req, withReasoning(req.dialect, req.model, { promptTokens, completionTokens })),
      ...(rule?.costUsd !== undefined ? { costUsd: rule.costUsd } : {}),
      served: servedFor(req, rule, served),
    };
  }

  async function handleChat(dialect: Dialect, path: string, httpReq: IncomingMessage, res: ServerResponse): Promise<void> {
    if (maxConcurrent !== null && inFlight >= maxConcurrent) {
      calls++;
      refused++;
      httpReq.resume();
      const limited = rateLimitReply(dialect, `Too many concurrent requests (fake limit ${maxConcurrent})`, '0.05');
      return sendJson(res, 429, limited.body, limited.headers);
    }
    inFlight++;
    peak = Math.max(peak, inFlight);
    let counted = true;
    const leave = () => {
      if (counted) inFlight--;
      counted = false;
    };
    res.once('close', leave);
    res.once('finish', leave);
    return answerChat(dialect, path, httpReq, res);
  }

  async function answerChat(dialect: Dialect, path: string, httpReq: IncomingMessage, res: ServerResponse): Promise<void> {
    calls++;
    const mySeq = ++seq;
    let req: FakeRequest;
    let sent: unknown;
    try {
      sent = JSON.parse(await readBody(httpReq)) as unknown;
      req = parseRequest(dialect, sent, httpReq.headers, path);
    } catch (e) {
      // A refused tools list comes with the body the dialect's API sends (param, code: llm-server-tools.ts).
      if (e instanceof ToolShapeError) return sendJson(res, 400, e.body);
      const message = e instanceof BadRequest ? e.message : `invalid JSON body: ${(e as Error).message}`;
      return sendJson(res, 400, renderError(dialect, 400, message));
    }
    const key = requestKey(req);
    const entry: RecordedRequest = { seq: mySeq, dialect, path, key, request: req, status: 0 };
    record(entry);

    const presented = presentedKey(httpReq);
    if (apiKeys && (!presented || !apiKeys.has(presented))) {
      // Gemini answers a bad key with 400 INVALID_ARGUMENT, reason API_KEY_INVALID (Gemini API troubleshooting page).
      if (dialect === 'gemini') {
        entry.status = 400;
        return sendJson(res, 400, renderError(dialect, 400, 'API key not valid. Please pass a valid API key.', { reason: 'API_KEY_INVALID' }));
      }
      entry.status = 401;
      // Echoes the key, as some providers do: proves the adapters redact what comes back.
      return sendJson(res, 401, renderError(dialect, 401, `Incorrect API key provided: ${presented ?? '(none)'}`));
    }
    // A parameter the model refuses (log-probabilities, a temperature, max_tokens on a reasoning
    // model: llm-server-capabilities.ts) is answered as its provider answers it, before anything is generated.
    const refusal = capabilityRefusal(dialect, req.model, sent);
    if (refusal) {
      entry.status = refusal.status;
      entry.refused = refusal.param;
      return sendJson(res, refusal.status, refusal.body);
    }
    req = asSampled(dialect, req);

    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    const fault = pickFault(faults, req, draw(seed, key, occurrence));
    if (fault) entry.fault = fault.kind;
    // A batched judge prompt: each question is answered by the rule its per-point prompt would
    // match; an error or hang rule of any question answers the whole call.
    const views = fault ? null : batchedJudgeViews(req);
    const batch: BatchRules | undefined = views?.map((v) => ({ letter: v.letter, options: v.options, rule: pickRule(v.view) }));
    const rule = fault ? undefined : batch ? (batch.find((q) => q.rule?.error || q.rule?.hang)?.rule ?? batch.find((q) => q.rule?.judge)?.rule) : pickRule(req);
    if (batch) {
      const names = batch.flatMap((q) => (q.rule?.name ? [q.rule.name] : []));
      if (names.length > 0) entry.rule = [...new Set(names)].join(', ');
    } else if (rule?.name) entry.rule = rule.name;

    if (fault?.kind === 'hang' || rule?.hang) return; // held open until the client gives up or close()

    const delay = rule?.latencyMs ?? latencyMs;
    if (delay > 0) {
      await new Promise((r) => setTimeout(r, delay));
      if (clientGone(res)) return;
    }

    if (fault?.kind === 'rate_limited') {
      entry.status = 429;
      const limited = rateLimitReply(dialect, 'Rate limit reached (fake)', fault.config.retryAfter ?? '0.05');
      return sendJson(res, 429, limited.body, limited.headers);
    }
    if (fault?.kind === 'server_error') {
      entry.status = 500;
      return sendJson(res, 500, renderError(dialect, 500, 'The server had an error (fake)'));
    }
    if (rule?.error) {
      entry.status = rule.error.status;
      const message = rule.error.message ?? `scripted error ${rule.error.status}`;
      // A scripted Gemini 429's retry-after travels as the body's RetryInfo, as Google sends it.
      const retryDelaySeconds = dialect === 'gemini' && rule.error.status === 429 ? rule.error.headers?.['retry-after'] : undefined;
      const headers = retryDelaySeconds === undefined ? rule.error.headers : Object.fromEntries(Object.entries(rule.error.headers ?? {}).filter(([h]) => h !== 'retry-after'));
      const errorBody = renderError(dialect, rule.error.status, message, retryDelaySeconds === undefined ? undefined : { retryDelaySeconds });
      return sendJson(res, rule.error.status, withErrorCode(dialect, errorBody, rule.error.code), headers);
    }

    if (fault?.kind === 'truncated' || fault?.kind === 'empty' || fault?.kind === 'html') {
      entry.status = 200;
      if (res.destroyed || res.headersSent) return;
      const full = JSON.stringify(renderAnswer(dialect, req, answerFor(req, rule, false, batch), mySeq));
      if (fault.kind === 'html') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end('<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>');
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(fault.kind === 'empty' ? '' : full.slice(0, Math.floor(full.length / 2)));
    }

    const malformed = fault?.kind === 'malformed';
    const answer = answerFor(req, rule, malformed, batch);
    const body = withOutcome(dialect, renderAnswer(dialect, req, answer, mySeq), rule?.outcome);
    const violation = wireViolation(dialect, body);
    if (violation) {
      entry.status = 500;
      return sendJson(res, 500, { error: { message: `fake server bug: this ${dialect} answer is not what the provider sends (llm-server-wire.ts):\n${violation}` } });
    }
    entry.status = 200;
    // Counted once the response is actually handed over: a client that already gave up did not complete.
    res.on('finish', () => {
      bill(answer.usage, 1);
      if (!malformed) completed.set(key, (completed.get(key) ?? 0) + 1);
    });
    sendJson(res, 200, body, answerHeaders(dialect, answer, mySeq));
  }

  async function handleEmbeddings(dialect: EmbeddingDialect, path: string, httpReq: IncomingMessage, res: ServerResponse): Promise<void> {
    embeddingStats.calls++;
    embeddingsInFlight++;
    embeddingStats.peakInFlight = Math.max(embeddingStats.peakInFlight, embeddingsInFlight);
    res.on('close', () => embeddingsInFlight--);
    let req;
    try {
      req = parseEmbeddingRequest(dialect, path, JSON.parse(await readBody(httpReq)) as unknown);
    } catch (e) {
      const message = e instanceof EmbeddingBadRequest || e instanceof BadRequest ? e.message : `invalid JSON body: ${(e as Error).message}`;
      return sendJson(res, 400, renderEmbeddingError(dialect, 400, message));
    }
    const presented = presentedKey(httpReq);
    if (apiKeys && (!presented || !apiKeys.has(presented))) {
      return sendJson(res, 401, renderEmbeddingError(dialect, 401, `Incorrect API key provided: ${presented ?? '(none)'}`));
    }
    const overLimit = dialect === 'openai' ? openAiEmbeddingLimitError(req.model, req.inputs) : null;
    if (overLimit) return sendJson(res, overLimit.status, overLimit.body);
    // the same seeded fault draws as chat: a retry of the same batch is a fresh draw
    const key = `embed:${createHash('sha256').update(JSON.stringify([req.model, req.inputs])).digest('hex').slice(0, 16)}`;
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    const fault = pickFault(faults, { model: req.model } as FakeRequest, draw(seed, key, occurrence));
    if (fault?.kind === 'hang') return;
    if (latencyMs > 0) {
      await new Promise((r) => setTimeout(r, latencyMs));
      if (clientGone(res)) return;
    }
    if (fault?.kind === 'rate_limited') {
      return sendJson(res, 429, renderEmbeddingError(dialect, 429, 'Rate limit reached (fake)'), { 'retry-after': fault.config.retryAfter ?? '0.05' });
    }
    if (fault?.kind === 'server_error') return sendJson(res, 500, renderEmbeddingError(dialect, 500, 'The server had an error (fake)'));
    const spec = embeddingModelFor(req.model, embeddingModels);
    const dims = req.dims ?? spec.dims;
    const vectors = req.inputs.map((t) => fakeEmbedding(t, req.model, { dims, noise: spec.noise }));
    const body = JSON.stringify(renderEmbeddings(req, vectors, path, fault?.kind === 'malformed'));
    if (fault?.kind === 'truncated' || fault?.kind === 'empty' || fault?.kind === 'html') {
      if (res.destroyed || res.headersSent) return;
      res.writeHead(200, { 'content-type': fault.kind === 'html' ? 'text/html' : 'application/json' });
      return void res.end(fault.kind === 'html' ? '<html><body><h1>502 Bad Gateway</h1></body></html>' : fault.kind === 'empty' ? '' : body.slice(0, Math.floor(body.length / 2)));
    }
    if (!fault) {
      embeddingStats.inputs += req.inputs.length;
      const m = (embeddingStats.byModel[req.model] ??= { calls: 0, inputs: 0 });
      m.calls++;
      m.inputs += req.inputs.length;
    }
    if (res.destroyed || res.headersSent) return;
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_fake_embed_${embeddingStats.calls}` });
    res.end(body);
  }

  /** One batch line, answered by the rules and faults a live call of the same request meets. */
  function answerLine(dialect: Dialect, body: unknown, attempt: string | undefined, rate: number) {
    const mySeq = ++seq;
    let req: FakeRequest;
    try {
      req = parseRequest(dialect, body, attempt === undefined ? {} : { 'x-assay-attempt': attempt });
    } catch (e) {
      return { ok: false as const, status: 400, body: { message: (e as Error).message } };
    }
    const key = requestKey(req);
    const refusal = capabilityRefusal(dialect, req.model, body);
    record({ seq: mySeq, dialect, path: dialect === 'openai' ? '/v1/batches' : '/v1/messages/batches', key, request: req, status: refusal?.status ?? 200, ...(refusal ? { refused: refusal.param } : {}) });
    // A batch line the model refuses fails as the live call would (llm-server-capabilities.ts).
    if (refusal) return { ok: false as const, status: refusal.status, body: { message: String((refusal.body.error as { message?: unknown } | undefined)?.message ?? 'refused') } };
    req = asSampled(dialect, req);
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    const fault = pickFault(faults, req, draw(seed, key, occurrence));
    if (fault?.kind === 'rate_limited' || fault?.kind === 'server_error') return { ok: false as const, status: fault.kind === 'rate_limited' ? 429 : 500, body: { message: `${fault.kind} (fake)` } };
    const rule = fault ? undefined : pickRule(req);
    if (rule?.error) return { ok: false as const, status: rule.error.status, body: { message: rule.error.message ?? `scripted error ${rule.error.status}` } };
    const malformed = fault?.kind === 'malformed';
    const answer = answerFor(req, rule, malformed);
    bill(answer.usage, rate);
    if (!malformed) completed.set(key, (completed.get(key) ?? 0) + 1);
    const rendered = renderAnswer(dialect, req, answer, mySeq);
    const violation = wireViolation(dialect, rendered);
    if (violation) return { ok: false as const, status: 500, body: { message: `fake server bug: this ${dialect} batch line is not what the provider sends (llm-server-wire.ts):\n${violation}` } };
    return { ok: true as const, body: rendered, usage: answer.usage };
  }

  const batchApis = createBatchApis({
    ...(options.batchClock ? { now: options.batchClock } : {}),
    origin: () => origin,
    answer: answerLine,
    config: () => batchConfig,
    lastUserAndSystem: (dialect, body) => {
      try {
        const req = parseRequest(dialect, body, {});
        return { lastUser: lastUserText(req), system: req.system };
      } catch {
        return { lastUser: '', system: '' };
      }
    },
  });

  function modelList(): unknown {
    const named = rules.flatMap((r) => (typeof r.model === 'string' && /^[\w./:-]+$/.test(r.model) ? [r.model] : []));
    const ids = [...new Set(['fake-model', 'fake-judge', ...embeddingModels.map((m) => m.model), ...named])];
    return { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'assay-fake' })) };
  }

  const api: Omit<FakeLlm, 'url' | 'origin' | 'port' | 'close'> = {
    calls: () => calls,
    callsByKey: () => new Map(completed),
    duplicateCompletedCalls: () => [...completed.values()].reduce((s, n) => s + Math.max(0, n - 1), 0),
    requests: () => [...log],
    concurrency: () => ({ inFlight, peak, refused }),
    setMaxConcurrent: (n) => {
      maxConcurrent = n;
    },
    stats: () => ({
      calls,
      completed: [...completed.values()].reduce((s, n) => s + n, 0),
      duplicateCompletedCalls: api.duplicateCompletedCalls(),
      byKey: Object.fromEntries(completed),
      embeddings: structuredClone(embeddingStats),
    }),
    setRules: (next) => {
      rules = parseRules(next);
      ruleUses = new Map();
    },
    setFaults: (next) => {
      faults = normaliseFaults(next);
    },
    setLatency: (ms) => {
      latencyMs = ms;
    },
    setServed: (next) => {
      served = (next ?? []).map((e) => ServedEntrySchema.parse(e));
    },
    setBatch: (next) => {
      batchConfig = next === null ? initialBatch : BatchConfigSchema.parse(next);
    },
    billing: () => ({ ...billing }),
    batchStats: () => batchApis.stats(),
    reset: () => {
      rules = initialRules;
      faults = initialFaults;
      served = initialServed;
      latencyMs = options.latencyMs ?? 0;
      maxConcurrent = options.maxConcurrent ?? null;
      peak = inFlight;
      refused = 0;
      batchConfig = initialBatch;
      billing = { liveUsd: 0, batchUsd: 0, totalUsd: 0, liveCalls: 0, batchLines: 0 };
      batchApis.reset();
      calls = 0;
      ruleUses = new Map();
      seen = new Map();
      completed = new Map();
      log = [];
      embeddingStats = { calls: 0, inputs: 0, byModel: {}, peakInFlight: 0 };
    },
  };

  async function handleAdmin(path: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    let json: unknown;
    try {
      json = req.method === 'POST' ? (JSON.parse((await readBody(req)) || 'null') as unknown) : undefined;
    } catch (e) {
      return sendJson(res, 400, { error: `invalid JSON body: ${(e as Error).message}` });
    }
    if (path === '/__fake/stats' && req.method === 'GET') return sendJson(res, 200, api.stats());
    if (path === '/__fake/requests' && req.method === 'GET') return sendJson(res, 200, api.requests());
    if (path === '/__fake/rules' && req.method === 'POST') {
      const parsed = z.array(RuleSchema).safeParse(json);
      if (!parsed.success) return sendJson(res, 400, { error: z.prettifyError(parsed.error) });
      api.setRules(parsed.data);
      return sendJson(res, 200, { ok: true, rules: parsed.data.length });
    }
    if (path === '/__fake/faults' && req.method === 'POST') {
      const parsed = z.union([z.null(), FaultConfigSchema, z.array(FaultConfigSchema)]).safeParse(json);
      if (!parsed.success) return sendJson(res, 400, { error: z.prettifyError(parsed.error) });
      api.setFaults(parsed.data);
      return sendJson(res, 200, { ok: true });
    }
    if (path === '/__fake/served' && req.method === 'POST') {
      const parsed = z.union([z.null(), z.array(ServedEntrySchema)]).safeParse(json);
      if (!parsed.success) return sendJson(res, 400, { error: z.prettifyError(parsed.error) });
      api.setServed(parsed.data);
      return sendJson(res, 200, { ok: true, served: parsed.data?.length ?? 0 });
    }
    if (path === '/__fake/billing' && req.method === 'GET') return sendJson(res, 200, { ...api.billing(), batches: api.batchStats() });
    if (path === '/__fake/batch' && req.method === 'POST') {
      const parsed = z.union([z.null(), BatchConfigSchema]).safeParse(json);
      if (!parsed.success) return sendJson(res, 400, { error: z.prettifyError(parsed.error) });
      api.setBatch(parsed.data);
      return sendJson(res, 200, { ok: true });
    }
    if (path === '/__fake/reset' && req.method === 'POST') {
      api.reset();
      return sendJson(res, 200, { ok: true });
    }
    return sendJson(res, 404, { error: `no admin route ${req.method} ${path}` });
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const dialect = dialectFor(req.method ?? 'GET', path);
    const done = (p: Promise<void>): void => {
      p.catch((e: unknown) => sendJson(res, 500, { error: `fake server bug: ${(e as Error).message}` }));
    };
    if (dialect) return done(handleChat(dialect, path, req, res));
    const embedding = embeddingDialectFor(req.method ?? 'GET', path);
    if (embedding) return done(handleEmbeddings(embedding, path, req, res));
    if (/\/v1\/(files|batches|messages\/batches)(\/|$)/.test(path)) {
      const presented = presentedKey(req);
      if (apiKeys && (!presented || !apiKeys.has(presented))) {
        return sendJson(res, 401, renderError(path.includes('/messages/') ? 'anthropic' : 'openai', 401, `Incorrect API key provided: ${presented ?? '(none)'}`));
      }
      return done(
        batchApis.handle(req.method ?? 'GET', path, req, res, async () => JSON.parse((await readBody(req)) || 'null') as unknown).then((handled) => {
          if (!handled) sendJson(res, 404, { error: { message: `The fake LLM has no route ${req.method} ${path}`, type: 'not_found_error' } });
        }),
      );
    }
    if (req.method === 'GET' && path.endsWith('/models')) return sendJson(res, 200, modelList());
    if (path.startsWith('/__fake/')) return done(handleAdmin(path, req, res));
    sendJson(res, 404, { error: { message: `The fake LLM has no route ${req.method} ${path}`, type: 'not_found_error' } });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${host}:${port}`;

  return {
    ...api,
    url: `${origin}/v1`,
    origin,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        // Hanging requests would keep the server open forever: cut every connection.
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
