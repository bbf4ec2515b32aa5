/**
 * The fake's batch APIs, in the providers' wire formats (the SDKs' types in node_modules are
 * the reference): OpenAI's Files (`POST /v1/files` multipart with purpose `batch`,
 * `GET /v1/files/{id}/content`) and Batches (`POST /v1/batches`, `GET /v1/batches/{id}`,
 * `POST /v1/batches/{id}/cancel`; validating → in_progress → completed, output and error files,
 * request_counts), and Anthropic's Message Batches (`POST /v1/messages/batches`,
 * `GET /v1/messages/batches/{id}` with `processing_status`, its `results_url` JSONL with
 * `custom_id` and `result.type` succeeded / errored / canceled / expired).
 *
 * A batch completes `delayMs` after it was created (so a client has to poll), and every line is
 * answered then, once, by the same rules as a live call (`answer`), billed at half price. Lines
 * whose last user turn matches `fail.lastUser` come back errored (`times`: only that many), so
 * a client's partial-failure path is exercised.
 *
 * `end` makes the whole batch end otherwise, as the Batch API reference and guide document (openai-node
 * src/resources/batches.ts: Batch.status, Batch.errors as a list of BatchError {code, line, message,
 * param}; failed_at, expired_at): `failed` (OpenAI: the input file failed validation or the organisation's
 * enqueued-token limit was reached, code `token_limit_exceeded`; no line runs, no output or error file)
 * or `expired` (the 24-hour window passed: the first `answered` lines are answered, the rest are written
 * to the error file with code `batch_expired` (OpenAI) or come back with result.type `expired` (Anthropic)).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { BadRequest, type Dialect } from './llm-server-dialects';
import { PatternSchema, toRegExp } from './llm-server-rules';

type Json = Record<string, unknown>;

export const BatchConfigSchema = z.object({
  /** How long after creation a batch completes (default 0: at the first retrieve). */
  delayMs: z.number().int().min(0).default(0),
  /** Lines to answer as errored (server error) instead of succeeded. */
  fail: z
    .object({
      lastUser: PatternSchema.optional(),
      system: PatternSchema.optional(),
      /** Only the first n matching lines fail (all when absent). */
      times: z.number().int().min(1).optional(),
      /** `expired` (Anthropic: result.type expired; OpenAI: an error line with code batch_expired) or `errored`. */
      as: z.enum(['errored', 'expired']).default('errored'),
    })
    .optional(),
  /** How every batch ends instead of completing (see the header). */
  end: z
    .discriminatedUnion('status', [
      z.object({
        status: z.literal('failed'),
        /** Batch.errors.data; default: OpenAI's enqueued-token limit. */
        errors: z
          .array(z.object({ code: z.string(), message: z.string(), line: z.number().int().min(1).nullable().default(null), param: z.string().nullable().default(null) }))
          .min(1)
          .default([
            {
              code: 'token_limit_exceeded',
              message: 'Enqueued token limit reached for fake-model in organization org-fake. Limit: 90,000 enqueued tokens. Please try again once some in_progress batches have been completed.',
              line: null,
              param: null,
            },
          ]),
      }),
      z.object({ status: z.literal('expired'), answered: z.number().int().min(0).default(0) }),
    ])
    .optional(),
});
export type BatchConfig = z.infer<typeof BatchConfigSchema>;
export type BatchConfigInput = z.input<typeof BatchConfigSchema>;

/** How one line was answered: a live call's body and its billed usage, or an error. */
export type LineAnswer = { ok: true; body: Json; usage: { promptTokens: number; completionTokens: number } } | { ok: false; status: number; body: Json };

export interface BatchHost {
  /** The time a batch's age is measured by (default Date.now). */
  now?(): number;
  origin(): string;
  /** Answers one line as a live call would (rules, faults), counting it as a completed call and billing it at `rate`. */
  answer(dialect: Dialect, body: unknown, attempt: string | undefined, rate: number): LineAnswer;
  /** Whether this line should fail (the batch config's `fail`), consuming one of its `times`. */
  config(): BatchConfig;
  lastUserAndSystem(dialect: Dialect, body: unknown): { lastUser: string; system: string };
}

export interface BatchStats {
  /** Batches created per dialect. */
  created: { openai: number; anthropic: number };
  /** Lines answered (each once, when its batch completed). */
  lines: number;
  /** Results downloads (output files, error files, results_url). */
  downloads: number;
}

interface StoredFile {
  id: string;
  filename: string;
  purpose: string;
  bytes: Buffer;
  createdAt: number;
}

interface Line {
  customId: string;
  body: unknown;
}

interface FakeBatch {
  id: string;
  dialect: Dialect;
  lines: Line[];
  createdMs: number;
  inputFileId?: string;
  endpoint?: string;
  metadata?: unknown;
  cancelled: boolean;
  /** Set when the batch completed: one result per line, in line order. */
  results?: { customId: string; answer: LineAnswer | 'expired' | 'canceled' }[];
  /** How it ended when not completed: the config's `end` at the time it settled. */
  end?: NonNullable<BatchConfig['end']>;
  endedMs?: number;
  outputFileId?: string | null;
  errorFileId?: string | null;
}

/**
 * The fake's convention for telling samples apart in a batch (a live call sends
 * `x-assay-attempt`; a batch line has no headers of its own): a custom_id ending in `-a<n>`.
 */
export function attemptOfCustomId(customId: string): string | undefined {
  return /-a(\d+)$/.exec(customId)?.[1];
}

const seconds = (ms: number) => Math.floor(ms / 1000);
const newId = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;

/** A request's body, refused beyond `limit` bytes. */
export function readBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) reject(new BadRequest('body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { 'content-type': type });
  res.end(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
}

const openAiError = (status: number, message: string) => ({ error: { message, type: status === 404 ? 'not_found_error' : 'invalid_request_error', param: null, code: null } });
const anthropicError = (status: number, message: string) => ({ type: 'error', error: { type: status === 404 ? 'not_found_error' : 'invalid_request_error', message } });

const MAX_UPLOAD = 50 * 1024 * 1024;

export function createBatchApis(host: BatchHost) {
  const now = () => host.now?.() ?? Date.now();
  let files = new Map<string, StoredFile>();
  let batches = new Map<string, FakeBatch>();
  let stats: BatchStats = { created: { openai: 0, anthropic: 0 }, lines: 0, downloads: 0 };
  let failsUsed = 0;

  const shouldFail = (dialect: Dialect, body: unknown): BatchConfig['fail'] | null => {
    const fail = host.config().fail;
    if (!fail) return null;
    const { lastUser, system } = host.lastUserAndSystem(dialect, body);
    if (fail.lastUser !== undefined && !toRegExp(fail.lastUser).test(lastUser)) return null;
    if (fail.system !== undefined && !toRegExp(fail.system).test(system)) return null;
    if (fail.times !== undefined && failsUsed >= fail.times) return null;
    failsUsed++;
    return fail;
  };

  /** Completes a batch whose time has come: every line answered once, billed at half price. */
  const settle = (b: FakeBatch): void => {
    if (b.results || b.cancelled) return;
    if (now() - b.createdMs < host.config().delayMs) return;
    const end = host.config().end;
    if (end) b.end = end;
    // A failed batch (OpenAI) ran none of its lines: no results, no files, only the batch's errors.
    if (end?.status === 'failed' && b.dialect === 'openai') {
      b.results = [];
      b.endedMs = now();
      b.outputFileId = null;
      b.errorFileId = null;
      return;
    }
    b.results = b.lines.map((l, i) => {
      if (end?.status === 'expired' && i >= end.answered) return { customId: l.customId, answer: 'expired' as const };
      const fail = shouldFail(b.dialect, l.body);
      if (fail?.as === 'expired') return { customId: l.customId, answer: 'expired' as const };
      if (fail) return { customId: l.customId, answer: { ok: false as const, status: 500, body: { message: 'The server had an error processing this line (fake)' } } };
      stats.lines++;
      return { customId: l.customId, answer: host.answer(b.dialect, l.body, attemptOfCustomId(l.customId), 0.5) };
    });
    b.endedMs = now();
    if (b.dialect === 'openai') writeOpenAiFiles(b);
  };

  const cancel = (b: FakeBatch): void => {
    if (b.results) return;
    b.cancelled = true;
    b.endedMs = now();
    b.results = b.lines.map((l) => ({ customId: l.customId, answer: 'canceled' as const }));
    if (b.dialect === 'openai') writeOpenAiFiles(b);
  };

  // ---------------------------------------------------------------------------------------
  // OpenAI

  const addFile = (filename: string, purpose: string, bytes: Buffer): StoredFile => {
    const f: StoredFile = { id: newId('file-'), filename, purpose, bytes, createdAt: now() };
    files.set(f.id, f);
    return f;
  };
  const fileObject = (f: StoredFile) => ({ id: f.id, object: 'file', bytes: f.bytes.length, created_at: seconds(f.createdAt), filename: f.filename, purpose: f.purpose, status: 'processed', status_details: null });

  function writeOpenAiFiles(b: FakeBatch): void {
    const out: string[] = [];
    const err: string[] = [];
    for (const [i, r] of (b.results ?? []).entries()) {
      const id = `batch_req_${b.id.slice(6, 14)}_${i}`;
      if (r.answer === 'expired' || r.answer === 'canceled') {
        const code = r.answer === 'expired' ? 'batch_expired' : 'batch_cancelled';
        err.push(JSON.stringify({ id, custom_id: r.customId, response: null, error: { code, message: `This request could not be executed before the batch ${r.answer === 'expired' ? 'expired' : 'was cancelled'}.` } }));
      } else if (r.answer.ok) {
        out.push(JSON.stringify({ id, custom_id: r.customId, response: { status_code: 200, request_id: `req_${id}`, body: r.answer.body }, error: null }));
      } else {
        err.push(JSON.stringify({ id, custom_id: r.customId, response: { status_code: r.answer.status, request_id: `req_${id}`, body: { error: { message: String(r.answer.body.message ?? 'error'), type: 'server_error', param: null, code: null } } }, error: null }));
      }
    }
    b.outputFileId = out.length ? addFile(`${b.id}_output.jsonl`, 'batch_output', Buffer.from(out.join('\n') + '\n')).id : null;
    b.errorFileId = err.length ? addFile(`${b.id}_error.jsonl`, 'batch_output', Buffer.from(err.join('\n') + '\n')).id : null;
  }

  function openAiBatchObject(b: FakeBatch): Json {
    settle(b);
    const age = now() - b.createdMs;
    const done = b.results !== undefined;
    const status = b.cancelled ? 'cancelled' : done ? (b.end?.status ?? 'completed') : age < host.config().delayMs / 4 ? 'validating' : 'in_progress';
    const failed = (b.results ?? []).filter((r) => r.answer === 'expired' || r.answer === 'canceled' || !r.answer.ok).length;
    return {
      id: b.id,
      object: 'batch',
      endpoint: b.endpoint,
      errors: b.end?.status === 'failed' ? { object: 'list', data: b.end.errors } : null,
      input_file_id: b.inputFileId,
      completion_window: '24h',
      status,
      output_file_id: done ? b.outputFileId : null,
      error_file_id: done ? b.errorFileId : null,
      created_at: seconds(b.createdMs),
      in_progress_at: status === 'validating' || status === 'failed' ? null : seconds(b.createdMs),
      expires_at: seconds(b.createdMs + 24 * 3600_000),
      finalizing_at: done && status !== 'failed' ? seconds(b.endedMs!) : null,
      completed_at: status === 'completed' ? seconds(b.endedMs!) : null,
      failed_at: status === 'failed' ? seconds(b.endedMs!) : null,
      expired_at: status === 'expired' ? seconds(b.endedMs!) : null,
      cancelling_at: b.cancelled ? seconds(b.endedMs!) : null,
      cancelled_at: b.cancelled ? seconds(b.endedMs!) : null,
      // A batch that failed validation never counted its lines.
      request_counts: status === 'failed' ? { total: 0, completed: 0, failed: 0 } : { total: b.lines.length, completed: done ? b.lines.length - failed : 0, failed: done ? failed : 0 },
      metadata: b.metadata ?? null,
    };
  }

  async function uploadFile(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBytes(req, MAX_UPLOAD);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    let form: FormData;
    try {
      form = await new Request('http://fake/v1/files', { method: 'POST', headers, body: new Uint8Array(raw) }).formData();
    } catch (e) {
      return send(res, 400, openAiError(400, `expected multipart/form-data: ${(e as Error).message}`));
    }
    const file = form.get('file');
    const purpose = form.get('purpose');
    if (typeof purpose !== 'string' || purpose !== 'batch') return send(res, 400, openAiError(400, `purpose must be "batch" here (got ${String(purpose)})`));
    if (!file || typeof file === 'string') return send(res, 400, openAiError(400, 'the form has no file part'));
    const bytes = Buffer.from(await file.arrayBuffer());
    send(res, 200, fileObject(addFile(file.name || 'upload.jsonl', purpose, bytes)));
  }

  function createOpenAiBatch(json: unknown, res: ServerResponse): void {
    const body = z.object({ input_file_id: z.string(), endpoint: z.literal('/v1/chat/completions'), completion_window: z.literal('24h'), metadata: z.record(z.string(), z.string()).nullish() }).safeParse(json);
    if (!body.success) return send(res, 400, openAiError(400, z.prettifyError(body.error)));
    const file = files.get(body.data.input_file_id);
    if (!file) return send(res, 404, openAiError(404, `No such File object: ${body.data.input_file_id}`));
    const lines: Line[] = [];
    const seen = new Set<string>();
    for (const [i, text] of file.bytes.toString('utf8').split('\n').entries()) {
      if (text.trim() === '') continue;
      const line = z.object({ custom_id: z.string().min(1), method: z.literal('POST'), url: z.literal('/v1/chat/completions'), body: z.record(z.string(), z.unknown()) }).safeParse(JSON.parse(text));
      if (!line.success) return send(res, 400, openAiError(400, `line ${i + 1} of ${file.id}: ${z.prettifyError(line.error)}`));
      if (seen.has(line.data.custom_id)) return send(res, 400, openAiError(400, `line ${i + 1}: duplicate custom_id ${line.data.custom_id}`));
      seen.add(line.data.custom_id);
      lines.push({ customId: line.data.custom_id, body: line.data.body });
    }
    const b: FakeBatch = { id: newId('batch_'), dialect: 'openai', lines, createdMs: now(), inputFileId: file.id, endpoint: body.data.endpoint, metadata: body.data.metadata, cancelled: false };
    batches.set(b.id, b);
    stats.created.openai++;
    send(res, 200, openAiBatchObject(b));
  }

  // ---------------------------------------------------------------------------------------
  // Anthropic

  function anthropicBatchObject(b: FakeBatch): Json {
    settle(b);
    const done = b.results !== undefined;
    const count = (t: string) => (b.results ?? []).filter((r) => (typeof r.answer === 'string' ? r.answer === t : (r.answer.ok ? 'succeeded' : 'errored') === t)).length;
    return {
      id: b.id,
      type: 'message_batch',
      processing_status: done ? 'ended' : 'in_progress',
      request_counts: { processing: done ? 0 : b.lines.length, succeeded: count('succeeded'), errored: count('errored'), canceled: count('canceled'), expired: count('expired') },
      created_at: new Date(b.createdMs).toISOString(),
      ended_at: done ? new Date(b.endedMs!).toISOString() : null,
      expires_at: new Date(b.createdMs + 24 * 3600_000).toISOString(),
      archived_at: null,
      cancel_initiated_at: b.cancelled ? new Date(b.endedMs!).toISOString() : null,
      results_url: done ? `${host.origin()}/v1/messages/batches/${b.id}/results` : null,
    };
  }

  function createAnthropicBatch(json: unknown, res: ServerResponse): void {
    const body = z.object({ requests: z.array(z.object({ custom_id: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/), params: z.record(z.string(), z.unknown()) })).min(1) }).safeParse(json);
    if (!body.success) return send(res, 400, anthropicError(400, z.prettifyError(body.error)));
    const ids = new Set(body.data.requests.map((r) => r.custom_id));
    if (ids.size !== body.data.requests.length) return send(res, 400, anthropicError(400, 'custom_id values must be unique within a batch'));
    const b: FakeBatch = { id: newId('msgbatch_'), dialect: 'anthropic', lines: body.data.requests.map((r) => ({ customId: r.custom_id, body: r.params })), createdMs: now(), cancelled: false };
    batches.set(b.id, b);
    stats.created.anthropic++;
    send(res, 200, anthropicBatchObject(b));
  }

  function anthropicResults(b: FakeBatch, res: ServerResponse): void {
    settle(b);
    if (!b.results) return send(res, 400, anthropicError(400, `batch ${b.id} is still in progress`));
    stats.downloads++;
    const lines = b.results.map((r) => {
      const result =
        r.answer === 'expired' || r.answer === 'canceled'
          ? { type: r.answer }
          : r.answer.ok
            ? { type: 'succeeded', message: r.answer.body }
            : { type: 'errored', error: { type: 'error', error: { type: 'api_error', message: String(r.answer.body.message ?? 'error') } } };
      return JSON.stringify({ custom_id: r.customId, result });
    });
    send(res, 200, lines.join('\n') + '\n', 'application/binary');
  }

  /** Routes the batch endpoints; false when the path is not one of them. */
  async function handle(method: string, path: string, req: IncomingMessage, res: ServerResponse, readJson: () => Promise<unknown>): Promise<boolean> {
    let m: RegExpExecArray | null;
    if (method === 'POST' && /\/v1\/files$/.test(path)) return void (await uploadFile(req, res)), true;
    if (method === 'GET' && (m = /\/v1\/files\/([^/]+)\/content$/.exec(path))) {
      const f = files.get(m[1]!);
      if (!f) return send(res, 404, openAiError(404, `No such File object: ${m[1]}`)), true;
      if (f.purpose === 'batch_output') stats.downloads++;
      return send(res, 200, f.bytes, 'application/octet-stream'), true;
    }
    if (method === 'POST' && /\/v1\/batches$/.test(path)) return createOpenAiBatch(await readJson(), res), true;
    if ((m = /\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(path))) {
      const b = batches.get(m[1]!);
      if (!b || b.dialect !== 'openai') return send(res, 404, openAiError(404, `No such batch: ${m[1]}`)), true;
      if (method === 'POST' && m[2]) cancel(b);
      else if (method !== 'GET' || m[2]) return false;
      return send(res, 200, openAiBatchObject(b)), true;
    }
    if (method === 'POST' && /\/v1\/messages\/batches$/.test(path)) return createAnthropicBatch(await readJson(), res), true;
    if ((m = /\/v1\/messages\/batches\/([^/]+)(\/cancel|\/results)?$/.exec(path))) {
      const b = batches.get(m[1]!);
      if (!b || b.dialect !== 'anthropic') return send(res, 404, anthropicError(404, `No such message batch: ${m[1]}`)), true;
      if (m[2] === '/results' && method === 'GET') return anthropicResults(b, res), true;
      if (m[2] === '/cancel' && method === 'POST') cancel(b);
      else if (m[2] || method !== 'GET') return false;
      return send(res, 200, anthropicBatchObject(b)), true;
    }
    return false;
  }

  return {
    handle,
    stats: (): BatchStats => structuredClone(stats),
    reset: () => {
      files = new Map();
      batches = new Map();
      stats = { created: { openai: 0, anthropic: 0 }, lines: 0, downloads: 0 };
      failsUsed = 0;
    },
  };
}
