/**
 * Anthropic's Message Batches over the official SDK: the requests go in one create call
 * (`requests: [{ custom_id, params }]`), the batch is polled until its `processing_status` is
 * `ended`, and its results (JSONL at `results_url`, read by the SDK) carry `result.type`
 * succeeded / errored / canceled / expired per custom id.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { MessageBatch, MessageBatchIndividualResponse } from '@anthropic-ai/sdk/resources/messages/batches';
import { fromAnthropicMessage, toAnthropicParams } from './anthropic';
import type { BatchApi, BatchLine, BatchLineResult, BatchState } from './batch-types';
import { classifiedSdkCall, redact, type SdkErrorKinds } from './classify';
import { ProviderError } from './types';

export class AnthropicBatchApi implements BatchApi {
  // ES private fields, not TypeScript's `private`: the SDK object holds the API key, and a
  // logged, inspected or serialised adapter must never show it (resolve.test.ts). The client's
  // own, made by its first call (lazy-module.ts).
  readonly #sdk: () => Promise<Anthropic>;
  readonly #errors: SdkErrorKinds;
  readonly #secrets: readonly string[];

  constructor(
    readonly provider: string,
    sdk: () => Promise<Anthropic>,
    errors: SdkErrorKinds,
    secrets: readonly string[],
  ) {
    this.#sdk = sdk;
    this.#errors = errors;
    this.#secrets = secrets;
  }

  #state(b: MessageBatch): BatchState {
    return { id: b.id, status: b.processing_status, ended: b.processing_status === 'ended' };
  }

  async #sdkCall<T>(fn: (sdk: Anthropic) => Promise<T>): Promise<T> {
    const sdk = await this.#sdk();
    return classifiedSdkCall(() => fn(sdk), this.#errors, this.provider, this.#secrets);
  }

  async submit(lines: readonly BatchLine[], opts: { signal?: AbortSignal } = {}): Promise<BatchState> {
    const requests = lines.map((l) => ({ custom_id: l.customId, params: toAnthropicParams(l.request) }));
    return this.#state(await this.#sdkCall((sdk) => sdk.messages.batches.create({ requests }, { signal: opts.signal })));
  }

  async retrieve(id: string, opts: { signal?: AbortSignal } = {}): Promise<BatchState> {
    return this.#state(await this.#sdkCall((sdk) => sdk.messages.batches.retrieve(id, {}, { signal: opts.signal })));
  }

  async cancel(id: string): Promise<BatchState> {
    return this.#state(await this.#sdkCall((sdk) => sdk.messages.batches.cancel(id)));
  }

  async results(id: string, opts: { signal?: AbortSignal } = {}): Promise<BatchLineResult[]> {
    const out: BatchLineResult[] = [];
    await this.#sdkCall(async (sdk) => {
      for await (const line of await sdk.messages.batches.results(id, {}, { signal: opts.signal })) out.push(this.#line(line));
    });
    return out;
  }

  #line(line: MessageBatchIndividualResponse): BatchLineResult {
    const customId = line.custom_id;
    const r = line.result;
    if (r.type === 'succeeded') {
      try {
        return { customId, response: fromAnthropicMessage(r.message, { provider: this.provider, model: r.message.model, latencyMs: 0 }) };
      } catch (e) {
        if (e instanceof ProviderError) return { customId, error: e };
        throw e;
      }
    }
    if (r.type === 'errored') {
      const inner = r.error.error;
      // invalid_request_error will fail again; anything else (api_error, overloaded_error) may pass.
      const kind = inner.type === 'invalid_request_error' ? 'bad_request' : inner.type === 'rate_limit_error' ? 'rate_limited' : inner.type === 'authentication_error' || inner.type === 'permission_error' ? 'auth' : 'retryable';
      return { customId, error: new ProviderError({ kind, provider: this.provider, message: `${this.provider}: batch line errored (${inner.type}): ${redact(inner.message, this.#secrets).slice(0, 500)}` }) };
    }
    return { customId, error: new ProviderError({ kind: 'retryable', provider: this.provider, message: `${this.provider}: batch line ${r.type} before it ran` }) };
  }
}
