/**
 * An LlmClient whose replies and errors carry no known secret: content, tool-call arguments
 * and error messages pass through the secret redactor before the gateway caches, stores or
 * logs them. Every client resolveModel hands out is wrapped, so no call path can skip it.
 */
import { createRedactor, redactDeep } from '../secret-redactor';
import { ProviderError, type ChatRequest, type ChatResponse, type LlmClient } from './types';

export function redactingClient(inner: LlmClient, secrets: readonly string[]): LlmClient {
  const redact = createRedactor(secrets);
  return {
    provider: inner.provider,
    async chat(req: ChatRequest): Promise<ChatResponse> {
      let r: ChatResponse;
      try {
        r = await inner.chat(req);
      } catch (e) {
        if (e instanceof ProviderError) {
          const { kind, provider, status, retryAfterMs } = e;
          throw new ProviderError({ kind, provider, message: redact(e.message), ...(status === undefined ? {} : { status }), ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
        }
        throw e;
      }
      return {
        ...r,
        content: redact(r.content),
        toolCalls: r.toolCalls.map((c) => ({ ...c, name: redact(c.name), arguments: redactDeep(c.arguments, redact) })),
        logprobs: r.logprobs && redactDeep(r.logprobs, redact),
        // what the provider says it served is stored too: an echoed secret must not ride along
        served: redactDeep(r.served, redact),
      };
    },
  };
}
