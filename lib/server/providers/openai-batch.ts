/**
 * OpenAI's Batch API over the official SDK: the requests are written as a JSONL file (one
 * `POST /v1/chat/completions` line per custom id), uploaded with purpose `batch`, and a batch
 * is created on it; once it is `completed` (or `expired`, `cancelled`, `failed`: all final),
 * its output file holds the answered lines and its error file the failed ones.
 */
import type { OpenAI } from 'openai';
import type { Batch } from 'openai/resources/batches';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { BatchApi, BatchLine, BatchLineResult, BatchState } from './batch-types';
import { classifiedSdkCall, httpError, malformedError, redact, type SdkErrorKinds } from './classify';
import { fromOpenAiCompletion, openAiSdk, toOpenAiParams } from './openai-compatible';
import { ProviderError } from './types';

const FINAL: ReadonlySet<Batch['status']> = new Set(['completed', 'expired', 'cancelled', 'failed']);

interface OutputLine {
  custom_id?: string;
  response?: { status_code?: number; body?: unknown } | null;
  error?: { code?: string | null; message?: string | null } | null;
}

/**
 * Codes of a failed batch that waiting cures: the organisation's enqueued-token limit frees up as
 * other batches finish (OpenAI Batch guide, "Rate limits": "Please try again once some in_progress
 * batches have been completed").
 */
const WAIT_CODES: ReadonlySet<string> = new Set(['token_limit_exceeded']);

/**
 * Why a batch ended without answering its lines, from its own fields (OpenAI API reference, Batch
 * object: `status` failed, with `errors.data[]` of {code, message, line, param}; expired, when the
 * 24-hour completion window passed), or undefined for a batch that completed or was cancelled.
 */
export function batchError(provider: string, b: Pick<Batch, 'id' | 'status' | 'errors'>, secrets: readonly string[] = []): ProviderError | undefined {
  if (b.status === 'failed') {
    const errors = b.errors?.data ?? [];
    const said = errors.map((e) => `${e.code ?? 'error'}${typeof e.line === 'number' ? ` (line ${e.line})` : ''}: ${e.message ?? ''}`.trim()).join('; ');
    const kind = errors.length > 0 && errors.every((e) => WAIT_CODES.has(e.code ?? '')) ? 'rate_limited' : 'bad_request';
    return new ProviderError({ kind, provider, message: `${provider}: batch ${b.id} failed: ${redact(said || 'no reason given', secrets).slice(0, 500)}` });
  }
  if (b.status === 'expired') {
    return new ProviderError({ kind: 'retryable', provider, message: `${provider}: batch ${b.id} expired (its 24-hour completion window passed) before this line ran` });
  }
  return undefined;
}

export class OpenAiBatchApi implements BatchApi {
  // ES private fields, not TypeScript's `private`: the SDK object holds the API key, and a
  // logged, inspected or serialised adapter must never show it (resolve.test.ts). The client's
  // own, made by its first call (lazy-module.ts).
  readonly #sdk: () => Promise<OpenAI>;
  readonly #errors: SdkErrorKinds;
  readonly #secrets: readonly string[];

  constructor(
    readonly provider: string,
    sdk: () => Promise<OpenAI>,
    errors: SdkErrorKinds,
    secrets: readonly string[],
  ) {
    this.#sdk = sdk;
    this.#errors = errors;
    this.#secrets = secrets;
  }

  #state(b: Batch): BatchState {
    const error = batchError(this.provider, b, this.#secrets);
    return { id: b.id, status: b.status, ended: FINAL.has(b.status), ...(error ? { error } : {}) };
  }

  async #sdkCall<T>(fn: (sdk: OpenAI) => Promise<T>): Promise<T> {
    const sdk = await this.#sdk();
    return classifiedSdkCall(() => fn(sdk), this.#errors, this.provider, this.#secrets);
  }

  async submit(lines: readonly BatchLine[], opts: { signal?: AbortSignal } = {}): Promise<BatchState> {
    const jsonl = lines.map((l) => JSON.stringify({ custom_id: l.customId, method: 'POST', url: '/v1/chat/completions', body: toOpenAiParams(l.request) })).join('\n') + '\n';
    const { toFile } = await openAiSdk();
    const file = await this.#sdkCall(async (sdk) => sdk.files.create({ file: await toFile(Buffer.from(jsonl), 'assay-batch.jsonl', { type: 'application/jsonl' }), purpose: 'batch' }, { signal: opts.signal }));
    const batch = await this.#sdkCall((sdk) => sdk.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' }, { signal: opts.signal }));
    return this.#state(batch);
  }

  async retrieve(id: string, opts: { signal?: AbortSignal } = {}): Promise<BatchState> {
    return this.#state(await this.#sdkCall((sdk) => sdk.batches.retrieve(id, { signal: opts.signal })));
  }

  async cancel(id: string): Promise<BatchState> {
    return this.#state(await this.#sdkCall((sdk) => sdk.batches.cancel(id)));
  }

  async results(id: string, opts: { signal?: AbortSignal } = {}): Promise<BatchLineResult[]> {
    const batch = await this.#sdkCall((sdk) => sdk.batches.retrieve(id, { signal: opts.signal }));
    const out: BatchLineResult[] = [];
    for (const fileId of [batch.output_file_id, batch.error_file_id]) {
      if (!fileId) continue;
      const text = await this.#sdkCall(async (sdk) => (await sdk.files.content(fileId, { signal: opts.signal })).text());
      for (const raw of text.split('\n')) {
        if (raw.trim() === '') continue;
        const line = JSON.parse(raw) as OutputLine;
        if (typeof line.custom_id !== 'string') throw malformedError(this.provider, `a line of batch ${id}'s results has no custom_id`, this.#secrets);
        out.push(this.#line(line.custom_id, line));
      }
    }
    return out;
  }

  #line(customId: string, line: OutputLine): BatchLineResult {
    const status = line.response?.status_code;
    if (line.response && status === 200) {
      try {
        // A batch has no per-call latency: 0, so a batch reply never looks slow or fast.
        return { customId, response: fromOpenAiCompletion(line.response.body as ChatCompletion, { provider: this.provider, model: (line.response.body as { model?: string })?.model ?? '', latencyMs: 0 }) };
      } catch (e) {
        if (e instanceof ProviderError) return { customId, error: e };
        throw e;
      }
    }
    if (line.response && typeof status === 'number') {
      const detail = (line.response.body as { error?: { message?: string } } | undefined)?.error?.message;
      return { customId, error: httpError({ provider: this.provider, status, ...(detail ? { detail } : {}), secrets: this.#secrets }) };
    }
    // No response: expired or cancelled before it ran; another try may pass.
    const why = line.error?.message ?? line.error?.code ?? 'no response';
    return { customId, error: new ProviderError({ kind: 'retryable', provider: this.provider, message: `${this.provider}: batch line not run (${line.error?.code ?? 'unknown'}): ${redact(why, this.#secrets).slice(0, 500)}` }) };
  }
}
