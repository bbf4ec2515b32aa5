/**
 * An LlmClient whose replies and errors carry no known secret: content, tool-call arguments, an HTTP system's body
 * and error messages pass through the secret redactor before the gateway caches, stores or
 * logs them. Every client resolveModel hands out is wrapped, so no call path can skip it.
 */
import { createRedactor, redactDeep } from '../secret-redactor';
import type { BatchApi } from './batch-types';
import { ProviderError, type ChatRequest, type ChatResponse, type LlmClient } from './types';

export function redactingClient(inner: LlmClient, secrets: readonly string[]): LlmClient {
  const redact = createRedactor(secrets);
  const redactError = (e: ProviderError): ProviderError => {
    const { kind, provider, status, retryAfterMs } = e;
    return new ProviderError({ kind, provider, message: redact(e.message), ...(status === undefined ? {} : { status }), ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
  };
  const redactReply = (r: ChatResponse): ChatResponse => ({
    ...r,
    content: redact(r.content),
    toolCalls: r.toolCalls.map((c) => ({ ...c, name: redact(c.name), arguments: redactDeep(c.arguments, redact) })),
    logprobs: r.logprobs && redactDeep(r.logprobs, redact),
    // what the provider says it served is stored too: an echoed secret must not ride along
    served: redactDeep(r.served, redact),
    // an HTTP system's whole reply body is stored too (the criteria read its citations): redacted like the text
    ...(r.structured === undefined ? {} : { structured: redactDeep(r.structured, redact) }),
  });
  const batch = inner.batch;
  return {
    provider: inner.provider,
    async chat(req: ChatRequest): Promise<ChatResponse> {
      let r: ChatResponse;
      try {
        r = await inner.chat(req);
      } catch (e) {
        throw e instanceof ProviderError ? redactError(e) : e;
      }
      return redactReply(r);
    },
    // Batch results are replies too: redacted line by line, like a live reply.
    ...(batch
      ? {
          batch: {
            provider: batch.provider,
            submit: (lines, opts) => batch.submit(lines, opts),
            retrieve: (id, opts) => batch.retrieve(id, opts),
            cancel: (id) => batch.cancel(id),
            results: async (id, opts) => (await batch.results(id, opts)).map((l) => (l.error ? { customId: l.customId, error: redactError(l.error) } : { customId: l.customId, response: redactReply(l.response) })),
          } satisfies BatchApi,
        }
      : {}),
  };
}
